/**
 * Who caused an event: a user acting through the API, or the system acting on its own (a worker
 * following the log, a scheduler), with the reason a person reading the history would want.
 */
export type Actor =
  { readonly kind: 'user'; readonly userId: number } | { readonly kind: 'system'; readonly reason: string };

/** Who and what caused an event; stored beside it, never part of the domain data. */
export interface EventMetadata {
  readonly organisationId?: number;
  /** Who caused it (actor.ts); read through `actorOf`, which also reads the older `actorId`. */
  readonly actor?: Actor;
  /** Before `actor`: the acting user's id. No longer written; stored events keep it (read it through actorOf). */
  readonly actorId?: number;
  /** The request or chain the event belongs to (a request id, or the first event's id). */
  readonly correlationId?: string;
  /** The event that caused this one, for events appended by a worker. */
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

/** Folds one event into an aggregate's state; the state is null before the stream's first event. */
export type Evolve<S, E = StoredEvent> = (state: S | null, event: E) => S | null;

/** The events a decision appends to one stream. */
export interface StreamEvents {
  readonly streamId: string;
  readonly events: readonly NewEvent[];
}

/**
 * Instead of reading a stream: 'no_stream' for a stream whose id the caller has just drawn (the
 * decision sees null, and the append fails with ConcurrencyError if the stream exists after all);
 * 'any' for events that go after whatever the stream holds, appends queued per stream (the decision
 * sees null: for blind writes such as settings, where the last writer wins).
 */
export type Unread = 'no_stream' | 'any';

/**
 * Gates (docs/adr/0008-booking-gates.md, docs/adr/0011-declarative-writes.md): named rows, without
 * events, for rules that span records no one stream holds ("at most `max` on a timeslot", "no two
 * shifts of a user at once"). A `Write` locks them first and keeps them until it commits, then reads
 * the tables they protect (its facts):
 * - `advance`: gates this write moves on by one, locked exclusively: writers advancing one gate,
 *   or holding it, queue behind this one.
 * - `hold`: gates this write depends on without moving them, locked shared: holders run together,
 *   an advancer waits for them.
 */
export interface Gates {
  readonly advance?: readonly string[];
  readonly hold?: readonly string[];
}

export interface HandleOptions {
  readonly metadata?: EventMetadata;
  /** Do not read the stream (see `Unread`). */
  readonly expect?: Unread;
  /**
   * Run the whole read–decide–write again after a lost race, up to this many more times: for
   * decisions whose loser should get the winner's answer (a 422 for the last place), not a 409.
   */
  readonly retries?: number;
}

/** What `EventStore.handle` did: the state the decision saw, and the append (no events: nothing to append). */
export interface Handled<S> extends AppendResult {
  readonly state: S | null;
}

/** One stream a `Write` reads and folds (`evolve`), or names without reading (`expect`). */
export interface StreamRead<S = unknown, E = never> {
  readonly streamId: string;
  // A method, so a stream's own evolve (typed by its events) fits any record of streams.
  evolve?(state: S | null, event: E): S | null;
  readonly expect?: Unread;
}

/** The streams of a write, by name: the decision sees their states under the same names. */
export type StreamReads = Readonly<Record<string, StreamRead<unknown, never>>>;

/** The folded state of each named stream (null: no events yet, or not read). */
export type StatesByName<R extends StreamReads> = {
  readonly [K in keyof R]: R[K] extends { evolve(state: never, event: never): infer S } ? S : null;
};

/** SQL inside a write's transaction: what a facts read may use (it must not open a connection of its own). */
export interface WriteQuery {
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

/** What a write's planning phase may use: the attempt's instant, and streams read and folded (outside the transaction). */
export interface Planning {
  readonly now: number;
  read<R extends StreamReads>(streams: R): Promise<StatesByName<R>>;
}

/** What the decision of a write is given beside the states: the plan, the facts and the attempt's instant. */
export interface Given<P, F> {
  readonly plan: P;
  readonly facts: F;
  readonly now: number;
}

/**
 * A write described as data (docs/adr/0011-declarative-writes.md), run by `EventStore.write`. Every
 * attempt runs the phases in order:
 * 1. `plan`: reads outside the transaction that choose the gates and the streams (the occurrences a
 *    series edit acts on, what a rota change decides before its cancellations are known);
 * 2. `gates`: named locks taken first, in one sorted order (`advance` exclusive, `hold` shared), kept
 *    until the write commits: writers that share a gate queue, they do not fail;
 * 3. `facts`: one read of what the rules need beyond the streams (read tables), inside the write's
 *    transaction, so it sees every writer that passed the gates before this one;
 * 4. `streams`: read and folded by name;
 * 5. `holds`: whether the plan still holds for what was read (false: a lost race, planned again);
 * 6. `decide`: pure, over the states, the plan, the facts and the attempt's `now` (never a clock of
 *    its own); it returns the events of each stream, or throws a domain refusal;
 * 7. the append, at the versions read, with the projections' rows, in the same transaction.
 * A stream that moved meanwhile (a writer that passes no gate of this one), a deadlock or a plan
 * that no longer holds is a lost race: the store alone runs the whole write again, up to `retries`
 * times, then answers 409. Without gates or facts the append is one statement (ADR 0002).
 */
export interface Write<P, F, R extends StreamReads> {
  readonly plan?: (planning: Planning) => Promise<P>;
  readonly gates?: (plan: P) => Gates;
  readonly facts?: (db: WriteQuery, plan: P) => Promise<F>;
  readonly streams: (plan: P, facts: F) => R;
  readonly holds?: (states: StatesByName<R>, given: Given<P, F>) => boolean;
  readonly decide: (states: StatesByName<R>, given: Given<P, F>) => readonly StreamEvents[];
  readonly metadata?: EventMetadata;
  /** Runs after a lost race (default WRITE_RETRIES). */
  readonly retries?: number;
}

/** What `EventStore.write` did: the plan, facts and states it decided on, and each stream's append. */
export interface Written<P, F, R extends StreamReads> extends Given<P, F> {
  readonly states: StatesByName<R>;
  readonly appended: readonly AppendResult[];
  /** Every event appended, in log order. */
  readonly events: readonly StoredEvent[];
}

/** A stream read and folded by a `Write`, its state typed by its `evolve`. */
export interface Folding<S> {
  readonly streamId: string;
  evolve(state: S | null, event: never): S | null;
}

/** Streams named by their records' ids, for a write over a list of records: its states come back under the same ids. */
export function streamsById<K extends string | number, S, E>(
  ids: readonly K[],
  streamId: (id: K) => string,
  evolve: Evolve<S, E>,
): Record<K, Folding<S>> {
  const streams = {} as Record<K, Folding<S>>;
  for (const id of ids) streams[id] = { streamId: streamId(id), evolve };
  return streams;
}

/** Named streams and streams by id in one record (a spread would lose the ids' types). */
export function combineStreams<A extends StreamReads, B extends StreamReads>(a: A, b: B): A & B {
  return { ...a, ...b };
}
