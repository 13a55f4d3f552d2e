import { Module } from '@nestjs/common';
import { DeliveryProcessor } from './delivery/delivery.processor.js';
import { FanOutProcessor } from './delivery/fan-out.processor.js';
import { Payloads } from './delivery/payloads.js';
import { WebhookSender } from './delivery/sender.js';
import { DeliverySweep } from './delivery/sweep.js';
import { WebhooksModule } from './webhooks.module.js';

/** The fan-out, the senders and the sweep (docs/webhooks.md#delivery). */
@Module({
  imports: [WebhooksModule],
  providers: [Payloads, FanOutProcessor, WebhookSender, DeliveryProcessor, DeliverySweep],
})
export class WebhooksWorkerModule {}
