import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AsReconciler, type Reconciles } from '#app/event-store';
import { RetentionSweep } from './retention-sweep.js';

export const PRIVACY_RETENTION = 'privacy-retention';
export const RETENTION_SCHEDULER = 'privacy-retention-sweep';
const SWEEP = 'sweep';
/**
 * The sweep runs every hour, each organisation as of its own today: the first run after an
 * organisation's midnight is its daily sweep, and the others find nothing new (a warning goes once
 * per due_on, an anonymised user is not due again). No run is lost to a worker that was down at
 * one fixed hour, and no zone waits a day.
 */
const EVERY_MS = 3_600_000;

/** The daily retention sweep of every organisation (docs/privacy.md#retention). */
@Processor(PRIVACY_RETENTION)
export class RetentionProcessor extends WorkerHost {
  constructor(private readonly retention: RetentionSweep) {
    super();
  }

  async process(): Promise<void> {
    await this.retention.sweep();
  }
}

/**
 * Keeps the sweep's job scheduler in the queue: at start, and on each full reconciliation (the
 * queue may have lost it: docs/adr/0009), as the reminders' tick is.
 */
@Injectable()
@AsReconciler()
export class RetentionSchedule implements OnApplicationBootstrap, Reconciles {
  constructor(@InjectQueue(PRIVACY_RETENTION) private readonly queue: Queue) {}

  reconcile(): Promise<void> {
    return this.onApplicationBootstrap();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(
      RETENTION_SCHEDULER,
      { every: EVERY_MS },
      { name: SWEEP, data: {}, opts: { removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600 } } },
    );
  }
}
