import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';

/** The queue of drain jobs (one endpoint each); webhooks have queues of their own (docs/webhooks.md#isolation). */
export const WEBHOOKS_QUEUE = 'webhooks';
export const WEBHOOKS_FAN_OUT_QUEUE = 'webhooks-fan-out';

export interface DrainJob {
  endpointId: number;
}

const DONE = { removeOnComplete: true, removeOnFail: true, attempts: 1 } as const;

/**
 * Wakes an endpoint's sender: a drain job, named for the endpoint and the second it is due, so
 * many wakes for one moment are one job. The job carries no delivery: what is owed is read from
 * PostgreSQL when it runs, so a job lost with Redis loses nothing (the sweep wakes the endpoint).
 */
@Injectable()
export class DeliveryQueue {
  constructor(@InjectQueue(WEBHOOKS_QUEUE) private readonly queue: Queue<DrainJob>) {}

  async wake(endpointId: number, at: Date | null = null, unique = false): Promise<void> {
    const when = Math.max(at?.getTime() ?? 0, Date.now());
    const jobId = unique
      ? `drain-${endpointId}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`
      : `drain-${endpointId}-${Math.ceil(when / 1000)}`;
    await this.queue.add('drain', { endpointId }, { ...DONE, jobId, delay: Math.max(0, when - Date.now()) });
  }
}
