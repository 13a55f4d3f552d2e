import { ConflictError } from '#app/platform';
import type { StreamAppend } from './event.types.js';

/** A lost optimistic-concurrency race: the stream moved since the caller read it. */
export class ConcurrencyError extends ConflictError {
  constructor(
    readonly streamId: string,
    readonly expected: string,
  ) {
    super('The record was changed by another request; reload it and try again.');
  }
}

/**
 * The events' unique keys a concurrent writer can take first: (stream, version), the concurrency
 * gate (docs/adr/0004), and the event id, when two retries of one event race (Postgres checks
 * that index first).
 */
const RACED_KEYS = new Set(['events_stream_id_stream_version_key', 'events_event_id_key']);

/** Whether `error` is Postgres refusing an event another writer stored first: a lost race. */
export function isLostRace(error: unknown): boolean {
  const e = (error as { driverError?: unknown } | null | undefined)?.driverError ?? error;
  const { code, constraint } = (e ?? {}) as { code?: string; constraint?: string };
  return code === '23505' && constraint !== undefined && RACED_KEYS.has(constraint);
}

/** The stream a write to `appends` lost its race on, named by Postgres's message, else the first. */
function lostOn(error: unknown, appends: readonly StreamAppend[]): StreamAppend {
  const { detail } = ((error as { driverError?: unknown }).driverError ?? error ?? {}) as { detail?: string };
  const version = /^Key \(stream_id, stream_version\)=\((.*), -?\d+\) already exists/.exec(detail ?? '');
  const eventId = /^Key \(event_id\)=\(([^)]*)\) already exists/.exec(detail ?? '');
  return (
    (version && appends.find((a) => a.streamId === version[1])) ||
    (eventId && appends.find((a) => a.events.some((e) => e.eventId === eventId[1]))) ||
    appends[0]!
  );
}

/** A rejection handler for an append's insert: a lost race becomes the ConcurrencyError (409). */
export function lostRaceAsConflict(appends: readonly StreamAppend[]): (error: unknown) => never {
  return (error) => {
    if (!isLostRace(error)) throw error;
    const lost = lostOn(error, appends);
    throw new ConcurrencyError(lost.streamId, String(lost.expectedVersion));
  };
}
