/** Who and what caused an event; stored beside it, never part of the domain data. */
export interface EventMetadata {
  readonly organisationId?: number;
  readonly actorId?: number;
  readonly correlationId?: string;
  readonly causationId?: string;
}

/** An event as a decide function returns it. */
export interface NewEvent<T extends string = string, D = unknown> {
  readonly type: T;
  readonly data: D;
  /** Defaults to 1; bump it when the data's shape changes and register an upcaster for the old one. */
  readonly schemaVersion?: number;
  /** Supplied when the caller needs idempotence: re-appending a stored id is a no-op. */
  readonly eventId?: string;
}

export interface StoredEvent<T extends string = string, D = unknown> {
  readonly position: number;
  readonly transactionId: string;
  readonly eventId: string;
  readonly streamId: string;
  readonly streamVersion: number;
  readonly type: T;
  readonly schemaVersion: number;
  readonly data: D;
  readonly metadata: EventMetadata;
  readonly recordedAt: Date;
}

/** A number is the version the stream must be at (0: must not exist yet). */
export type ExpectedVersion = number | 'any' | 'no_stream';

export interface StreamAppend {
  readonly streamId: string;
  readonly expectedVersion: ExpectedVersion;
  readonly events: readonly NewEvent[];
}

export interface AppendResult {
  readonly streamId: string;
  readonly nextExpectedVersion: number;
  readonly events: readonly StoredEvent[];
}

/** Where a gap-safe reader stands in the log: ordered by transaction id, then position. */
export interface LogCursor {
  readonly transactionId: string;
  readonly position: number;
}

export const LOG_START: LogCursor = { transactionId: '0', position: 0 };
