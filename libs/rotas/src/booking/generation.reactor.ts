import { Injectable } from '@nestjs/common';
import { AsReactor, causedJob, type CausedJob, defineReactor, type StoredEvent } from '#app/event-store';
import type { RepeatingShiftEvent } from '../rotas.events.js';

/**
 * Generation jobs only (id = the causing event's id). The daily extension has a queue of its own
 * (series-extension.ts): its scheduler keeps a delayed job hours ahead, and on BullMQ's PostgreSQL
 * backend a worker blocks until its queue's next delayed job (up to an hour) when no notification
 * wakes it (a LISTEN connection down), and generation jobs would then wait that long.
 */
export const SERIES_GENERATION = 'rotas-series-generation';
export const GENERATE_JOB = 'generate-occurrences';

/** The events that leave a series with occurrences to book: its start, and each daily extension. */
type Trigger = Extract<RepeatingShiftEvent, { type: 'rotas.RepeatingShiftStarted' | 'rotas.RepeatingShiftExtended' }>;

/** The series to generate. */
export interface GenerationData {
  readonly id: number;
  readonly organisationId: number;
}
/** The job: the series, and the event that asked for it as `cause`. */
export type GenerationJob = CausedJob<GenerationData>;

// Only the series' id and organisation travel: the job reads the series as it is when it runs.
const job = (event: StoredEvent<string, GenerationData>) =>
  causedJob(GENERATE_JOB, event, {
    id: event.data.id,
    organisationId: event.data.organisationId,
  } satisfies GenerationData);

/**
 * A started or extended series is handed to the worker: one generation job per event (the runner
 * makes the event id the job id, so a replayed batch adds nothing twice). The job books whatever is
 * pending when it runs, so a late or doubled job finds nothing left.
 */
@AsReactor()
@Injectable()
export class GenerationReactor extends defineReactor<Trigger>({
  name: 'rotas.series-generation',
  queue: SERIES_GENERATION,
  on: { 'rotas.RepeatingShiftStarted': job, 'rotas.RepeatingShiftExtended': job },
}) {}
