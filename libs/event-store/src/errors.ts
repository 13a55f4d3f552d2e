import { ConflictError } from '#app/platform';

/** A lost optimistic-concurrency race: the stream moved since the caller read it. */
export class ConcurrencyError extends ConflictError {
  constructor(
    readonly streamId: string,
    readonly expected: string,
  ) {
    super('The record was changed by another request; reload it and try again.');
  }
}

/** The events' unique (stream, version) key, which is the concurrency gate (docs/adr/0004). */
const STREAM_VERSION_KEY = 'events_stream_id_stream_version_key';

/** Whether `error` is Postgres refusing a second event at one stream version: a lost race. */
export function isStreamVersionTaken(error: unknown): boolean {
  const e = (error as { driverError?: unknown }).driverError ?? error;
  const { code, constraint } = (e ?? {}) as { code?: string; constraint?: string };
  return code === '23505' && constraint === STREAM_VERSION_KEY;
}
