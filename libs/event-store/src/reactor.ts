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
}

export const AsReactor = DiscoveryService.createDecorator();
