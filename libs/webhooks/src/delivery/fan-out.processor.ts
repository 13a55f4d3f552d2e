import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { EVENT_SOURCES, subscribes } from '../event-types.js';
import { EndpointQueries } from '../endpoint/endpoint.queries.js';
import { Deliveries } from './deliveries.js';
import { DeliveryQueue, WEBHOOKS_FAN_OUT_QUEUE } from './delivery-queue.js';
import type { FanOutJob } from './fan-out.reactor.js';
import { Payloads, webhookBody } from './payloads.js';

/**
 * Turns one event into one delivery per enabled endpoint of its organisation that subscribes to
 * its public type (docs/webhooks.md#delivery), then wakes those endpoints' senders. One at a time,
 * so a record's webhooks are prepared in the order of its events. Run twice, it adds nothing (one
 * delivery per endpoint and event).
 */
@Processor(WEBHOOKS_FAN_OUT_QUEUE, { concurrency: 1 })
export class FanOutProcessor extends WorkerHost {
  constructor(
    private readonly endpoints: EndpointQueries,
    private readonly payloads: Payloads,
    private readonly deliveries: Deliveries,
    private readonly queue: DeliveryQueue,
  ) {
    super();
  }

  async process(job: Job<FanOutJob>): Promise<void> {
    const { eventId, type, organisationId, recordId, recordedAt } = job.data;
    const source = EVENT_SOURCES[type];
    if (!source) return;
    const targets = (await this.endpoints.enabledOf(organisationId)).filter((e) =>
      subscribes(e.events, source.publicType),
    );
    if (targets.length === 0) return;
    const data = await this.payloads.data(source, organisationId, recordId);
    if (!data) return;
    const body = webhookBody(source.publicType, recordedAt, data);
    await this.deliveries.add(
      targets.map((e) => ({ organisationId, endpointId: e.id, eventId, eventType: source.publicType, body })),
    );
    for (const e of targets) await this.queue.wake(e.id);
  }
}
