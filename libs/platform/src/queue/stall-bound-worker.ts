import { type Processor, Worker, type WorkerOptions } from 'bullmq';

/** BullMQ's stall settings for every worker of the service: docs/process-lifecycle.md#stalled-jobs. */
export const STALL_SETTINGS: Pick<WorkerOptions, 'lockDuration' | 'stalledInterval' | 'maxStalledCount'> = {
  lockDuration: 4_000,
  stalledInterval: 2_000,
  maxStalledCount: 1,
};

/**
 * The Worker @nestjs/bullmq creates for each @Processor (`BullModule.workerClass`), with
 * STALL_SETTINGS under the processor's own options: one place for every context's workers.
 */
export class StallBoundWorker extends Worker {
  constructor(name: string, processor: Processor, opts: WorkerOptions) {
    super(name, processor, { ...STALL_SETTINGS, ...opts });
  }
}
