import { Injectable } from '@nestjs/common';
import { type Caller } from '#app/identity';
import { NotFoundError } from '#app/platform';
import { PING } from '../event-types.js';
import { EndpointQueries } from '../endpoint/endpoint.queries.js';
import { Deliveries, type DeliveryView, pingDeliveryId } from './deliveries.js';
import { DeliveryQueue } from './delivery-queue.js';
import { webhookBody } from './payloads.js';

/** What the API asks of the senders: a ping, a retry now (docs/webhooks.md#deliveries). */
@Injectable()
export class DeliveryRequests {
  constructor(
    private readonly endpoints: EndpointQueries,
    private readonly deliveries: Deliveries,
    private readonly queue: DeliveryQueue,
  ) {}

  /** One `ping` to the endpoint, whatever its events and enabled. */
  async ping(caller: Caller, endpointId: number): Promise<DeliveryView> {
    await this.endpoints.get(caller, endpointId);
    const id = pingDeliveryId();
    const body = webhookBody(PING, new Date().toISOString(), { endpoint_id: endpointId });
    await this.deliveries.add([
      { id, organisationId: caller.organisationId, endpointId, eventId: null, eventType: PING, body },
    ]);
    await this.queue.wake(endpointId);
    return (await this.deliveries.get(caller, endpointId, id))!;
  }

  /** One more attempt at once, with the same webhook-id (a failed delivery fails again if it fails). */
  async retry(caller: Caller, endpointId: number, deliveryId: string): Promise<DeliveryView> {
    await this.endpoints.get(caller, endpointId);
    const view = await this.deliveries.retryNow(caller, endpointId, deliveryId);
    if (!view) throw new NotFoundError('Delivery');
    await this.queue.wake(endpointId, null, true);
    return view;
  }
}
