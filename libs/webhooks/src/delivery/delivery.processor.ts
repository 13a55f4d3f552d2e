import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { isDependencyError } from '#app/platform';
import { Deliveries } from './deliveries.js';
import { DeliveryQueue, type DrainJob, WEBHOOKS_QUEUE } from './delivery-queue.js';
import { LEASE_MS, WebhookSender } from './sender.js';

/**
 * docs/webhooks.md#isolation: at most PER_ENDPOINT attempts to one endpoint at a time (the claim's
 * cap), and a drain job gives its slot back after DRAIN_MS, so an endpoint that never answers holds
 * at most a few of the CONCURRENCY slots, and only its own deliveries wait for it.
 */
export const PER_ENDPOINT = 4;
export const CONCURRENCY = 16;
const DRAIN_MS = 2_000;

/** Sends an endpoint's due deliveries, a few at a time, then wakes itself for the next one due. */
@Processor(WEBHOOKS_QUEUE, { concurrency: CONCURRENCY })
export class DeliveryProcessor extends WorkerHost {
  private readonly logger = new Logger(DeliveryProcessor.name);

  constructor(
    private readonly deliveries: Deliveries,
    private readonly sender: WebhookSender,
    private readonly queue: DeliveryQueue,
  ) {
    super();
  }

  async process(job: Job<DrainJob>): Promise<void> {
    const { endpointId } = job.data;
    const until = Date.now() + DRAIN_MS;
    let more = false;
    while (!this.sender.stopping) {
      const batch = await this.deliveries.claim(endpointId, PER_ENDPOINT, LEASE_MS);
      if (batch.length === 0) break;
      await Promise.all(
        batch.map((d) =>
          // A bug or a lost database leaves the lease to run out; the sweep offers the delivery again.
          this.sender.attempt(d).catch((err: Error) => {
            if (!isDependencyError(err)) this.logger.error(`webhook ${d.id}: ${err.stack ?? err.message}`);
          }),
        ),
      );
      if (Date.now() >= until) {
        more = true;
        break;
      }
    }
    if (this.sender.stopping) return;
    // The next due (a retry, or what came in while this ran); a fresh job id, as this one still exists.
    const next = more ? new Date() : await this.deliveries.nextDue(endpointId);
    if (next) await this.queue.wake(endpointId, next, true);
  }
}
