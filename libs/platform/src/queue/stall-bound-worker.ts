import { type Processor, Worker, type WorkerOptions } from 'bullmq';

type StallSettings = Pick<WorkerOptions, 'lockDuration' | 'stalledInterval' | 'maxStalledCount'>;

/** BullMQ's stall settings for every worker of the service: docs/process-lifecycle.md#stalled-jobs. */
export const STALL_SETTINGS: StallSettings = {
  lockDuration: 4_000,
  stalledInterval: 2_000,
  maxStalledCount: 1,
};

/**
 * The Worker @nestjs/bullmq creates for each @Processor (`BullModule.workerClass`), with the stall
 * settings under the processor's own options: one place for every context's workers.
 */
export class StallBoundWorker extends Worker {
  /**
   * Set by QueueModule from the mode before any worker exists: STALL_SETTINGS with servers, BullMQ's
   * own in the embedded mode, where no other process could take a job over and PGlite's statements
   * hold the event loop (docs/process-lifecycle.md#stalled-jobs).
   */
  static settings: StallSettings = STALL_SETTINGS;

  constructor(name: string, processor: Processor, opts: WorkerOptions) {
    super(name, processor, { ...StallBoundWorker.settings, ...opts });
  }
}
