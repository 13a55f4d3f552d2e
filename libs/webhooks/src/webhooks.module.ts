import { WebhookPersonalDataProjection } from './delivery/webhook-personal-data.projection.js';
import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { ExpensesModule } from '#app/expenses';
import { IdentityModule } from '#app/identity';
import { RotasModule } from '#app/rotas';
import { Deliveries } from './delivery/deliveries.js';
import { DeliveryQueue, WEBHOOKS_FAN_OUT_QUEUE, WEBHOOKS_QUEUE } from './delivery/delivery-queue.js';
import { DeliveryRequests } from './delivery/delivery-requests.js';
import { FanOutReactor } from './delivery/fan-out.reactor.js';
import { CreateEndpointHandler } from './endpoint/create-endpoint.command.js';
import { DeleteEndpointHandler } from './endpoint/delete-endpoint.command.js';
import { EndpointQueries } from './endpoint/endpoint.queries.js';
import { EndpointSettingsCheck } from './endpoint/endpoint-settings-check.js';
import { EndpointsProjection } from './endpoint/endpoints.projection.js';
import { RotateSecretHandler } from './endpoint/rotate-secret.command.js';
import { UpdateEndpointHandler } from './endpoint/update-endpoint.command.js';
// Declares which fields of webhooks's events are whose personal data (sealed in the log).
import './webhooks.personal-data.js';

/** Providers shared by the api and worker roles (docs/webhooks.md). */
@Module({
  imports: [
    IdentityModule,
    RotasModule,
    ExpensesModule,
    BullModule.registerQueue({ name: WEBHOOKS_QUEUE }, { name: WEBHOOKS_FAN_OUT_QUEUE }),
  ],
  providers: [
    EndpointsProjection,
    WebhookPersonalDataProjection,
    EndpointQueries,
    EndpointSettingsCheck,
    CreateEndpointHandler,
    UpdateEndpointHandler,
    RotateSecretHandler,
    DeleteEndpointHandler,
    Deliveries,
    DeliveryQueue,
    DeliveryRequests,
    // Known everywhere (projections:status lists it); only the worker runs it.
    FanOutReactor,
  ],
  exports: [EndpointQueries, Deliveries, DeliveryQueue, DeliveryRequests, RotasModule, ExpensesModule],
})
export class WebhooksModule {}
