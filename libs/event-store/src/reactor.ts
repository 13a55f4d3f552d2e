import { DiscoveryService } from '@nestjs/core';
import type { JobsOptions } from 'bullmq';
import type { StoredEvent } from './event.types.js';

export interface ReactorJob {
  readonly name: string;
  readonly data: unknown;
  readonly options?: Omit<JobsOptions, 'jobId'>;
}

/**
 * A side effect that follows the log (mail, repeating-shift generation, webhooks). The runner
 * hands each job to BullMQ with the event id as job id, so a batch replayed after a crash adds
 * nothing twice. One reactor per queue keeps those ids unique.
 */
export interface Reactor {
  readonly name: string;
  readonly queue: string;
  readonly handles: readonly string[];
  /** null: nothing to do for this event. */
  toJob(event: StoredEvent): ReactorJob | null;
  /**
   * Only the first event of a transaction that gets a job has one (its id the job id); the job reads
   * the rest of its transaction itself (EventStore.readTransaction). A bulk of 20,000 cancellations
   * is then one job, not 20,000 that each find they are not the first.
   */
  readonly perTransaction?: boolean;
}

export const AsReactor = DiscoveryService.createDecorator();
