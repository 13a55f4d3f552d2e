import { Module } from '@nestjs/common';
import { DeliveryProcessor } from './delivery/delivery.processor.js';
import { FanOutProcessor } from './delivery/fan-out.processor.js';
import { Payloads } from './delivery/payloads.js';
import { WebhookSender } from './delivery/sender.js';
import { DeliverySweep } from './delivery/sweep.js';
import { WEBHOOKS_FAN_OUT_QUEUE, WEBHOOKS_QUEUE } from './delivery/delivery-queue.js';
import { WebhooksModule } from './webhooks.module.js';

/** The context's queues, for the operator's tools (queues:status, the dashboard). */
export const WEBHOOKS_QUEUES: readonly string[] = [WEBHOOKS_FAN_OUT_QUEUE, WEBHOOKS_QUEUE];

/** The fan-out, the senders and the sweep (docs/webhooks.md#delivery). */
@Module({
  imports: [WebhooksModule],
  providers: [Payloads, FanOutProcessor, WebhookSender, DeliveryProcessor, DeliverySweep],
})
export class WebhooksWorkerModule {}
