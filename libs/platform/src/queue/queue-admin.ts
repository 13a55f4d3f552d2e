import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';

/** Every queue of the application by name (each context lists its own; apps/common/core.ts gathers them). */
export const ADMIN_QUEUES = Symbol('ADMIN_QUEUES');

/** What `queues:status` prints for one queue. */
export interface QueueCounts {
  readonly name: string;
  /** Ready to run (BullMQ's wait and prioritized). */
  readonly waiting: number;
  readonly active: number;
  readonly delayed: number;
  readonly failed: number;
}

/**
 * The operator's view of the queues (docs/operations.md#queues): their counts, and their failed jobs retried.
 * Works the same on Redis and on BullMQ's PostgreSQL backend (embedded mode).
 */
@Injectable()
export class QueueAdmin {
  constructor(@Inject(ADMIN_QUEUES) private readonly queues: ReadonlyMap<string, Queue>) {}

  get names(): string[] {
    return [...this.queues.keys()];
  }

  queue(name: string): Queue {
    const queue = this.queues.get(name);
    if (!queue) throw new Error(`Unknown queue ${name}`);
    return queue;
  }

  async status(): Promise<QueueCounts[]> {
    return Promise.all(
      this.names.map(async (name) => {
        const c = await this.queue(name).getJobCounts('wait', 'prioritized', 'active', 'delayed', 'failed');
        return {
          name,
          waiting: (c.wait ?? 0) + (c.prioritized ?? 0),
          active: c.active ?? 0,
          delayed: c.delayed ?? 0,
          failed: c.failed ?? 0,
        };
      }),
    );
  }

  /** Moves every failed job of `name` back to waiting, each with its attempts reset; answers how many. */
  async retry(name: string): Promise<number> {
    const queue = this.queue(name);
    let retried = 0;
    // In pages, so a queue with many failures is not loaded at once; a retried job leaves the failed set.
    for (;;) {
      const jobs = await queue.getFailed(0, 99);
      if (jobs.length === 0) return retried;
      for (const job of jobs) {
        await job.retry('failed');
        retried += 1;
      }
    }
  }
}
