import { randomUUID } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { groupBy, Metrics, PreparedStatements } from '#app/platform';
import { AppendStatements } from './append-statements.js';
import { ConcurrencyError, lostRaceAsConflict } from './errors.js';
import { EVENT_COLUMNS, type EventRow, toStoredEvent } from './event-rows.js';
import type {
  AppendResult,
  EventMetadata,
  Evolve,
  Handled,
  HandledStream,
  HandleOptions,
  LogCursor,
  NewEvent,
  StatesOf,
  StoredEvent,
  StatesByName,
  StreamAppend,
  StreamEvents,
  StreamRead,
  StreamReads,
  Write,
  Written,
} from './event.types.js';
import { lockGates, sortedGates } from './gate-locks.js';
import { InlineProjections } from './inline-projections.js';
import { LOCKS } from './locks.js';
import { pendingEvent } from './pending-event.js';
import { type KeyQuery, PersonalDataKeys } from './personal-data/personal-data-keys.js';
import { EventUpcasters } from './upcasters.js';

/**
 * What the store keeps from domain code (docs/adr/0005-one-write-path.md): a transaction of its own,
 * `append` inside it, and one stream's append at a version the caller names (`commit`). The store
 * writes through them itself; libs/event-store's own tests and the white-box benchmarks
 * (bench/internals.ts) reach them through `storeInternals`, which index.ts does not export.
 */
export interface StoreInternals {
  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T>;
  append(tx: EntityManager, appends: readonly StreamAppend[], metadata?: EventMetadata): Promise<AppendResult[]>;
  /** One stream in a transaction of its own, as `handle` writes it, at `append.expectedVersion`. */
  commit(append: StreamAppend, metadata?: EventMetadata): Promise<AppendResult>;
}

let internalsOf: (store: EventStore) => StoreInternals;

/** See `StoreInternals`: not for domain code, which writes through `handle` / `handleMany`. */
export const storeInternals = (store: EventStore): StoreInternals => internalsOf(store);

/**
 * The event log. Domain code writes through `handle` / `handleMany` (docs/adr/0005-one-write-path.md)
 * and reads with `readStream`; reactors follow the log with `readAll`. How the store writes (one
 * statement, or a transaction and `append`) is private to it and never limits what a projection may do.
 */
@Injectable()
export class EventStore {
  private readonly statements = new AppendStatements();

  static {
    internalsOf = (store) => ({
      transaction: (work) => store.transaction(work),
      append: (tx, appends, metadata) => store.append(tx, appends, metadata),
      commit: async (append, metadata = {}) => (await store.appendNow([append], metadata))[0]!,
    });
  }

  constructor(
    private readonly dataSource: DataSource,
    private readonly upcasters: EventUpcasters,
    private readonly projections: InlineProjections,
    private readonly prepared: PreparedStatements,
    // Absent only where a benchmark builds the store by hand.
    @Optional() private readonly metrics?: Metrics,
    // Absent only where a benchmark builds the store by hand: nothing is sealed then.
    @Optional() private readonly personal?: PersonalDataKeys,
  ) {}

  /** `rows` with their sealed personal fields opened (docs/privacy.md, "Sealed fields in the log"). */
  private opened<R extends EventRow>(rows: R[], query: KeyQuery): Promise<R[]> | R[] {
    return this.personal ? this.personal.open(rows, query) : rows;
  }

  private readonly keyQuery: KeyQuery = (text, params) => this.dataSource.query(text, params);

  /**
   * The write path for domain code (docs/adr/0005-one-write-path.md): reads the stream, folds it
   * with `evolve`, asks `decide` for the events and appends them at the version read, projections
   * included. A writer that appended in between wins: this append fails with ConcurrencyError (409)
   * and writes nothing. `decide` runs outside any transaction (the embedded database has one session),
   * so it may also throw a domain error: nothing is appended. No events: nothing is written.
   *
   * One read, then one statement for the events and their projection rows where the store can
   * (see `appendNow`); how it writes is the store's business and never limits what a projection may do.
   * `options.expect` skips the read (`Unread`).
   */
  async handle<S, E = StoredEvent>(
    streamId: string,
    evolve: Evolve<S, E>,
    decide: (state: S | null) => readonly NewEvent[] | Promise<readonly NewEvent[]>,
    options: HandleOptions = {},
  ): Promise<Handled<S>> {
    return this.retrying(options.retries, async () => {
      const { state, version } = options.expect
        ? { state: null, version: 0 }
        : this.fold(
            evolve,
            await this.opened(await this.prepared.query<EventRow>(READ_STREAM, [streamId]), this.keyQuery),
          );
      const events = await decide(state);
      if (events.length === 0) return { streamId, nextExpectedVersion: version, events: [], state };
      const [result] = await this.appendNow(
        [{ streamId, expectedVersion: options.expect ?? version, events }],
        options.metadata ?? {},
      );
      return { ...result!, state };
    });
  }

  /**
   * `handle` for a decision over several streams: every stream is read (one query; those with
   * `expect` are not), `decide` sees their states in the order given and returns events for any of
   * them, and all of it is appended together, each stream at the version read, or none of it
   * (ConcurrencyError when any stream moved). A stream read but given no events is not checked.
   * Returns one result per stream, in the order given.
   */
  async handleMany<const T extends readonly HandledStream[]>(
    streams: T,
    decide: (states: StatesOf<T>) => readonly StreamEvents[] | Promise<readonly StreamEvents[]>,
    options: Pick<HandleOptions, 'metadata' | 'retries'> = {},
  ): Promise<AppendResult[]> {
    return this.retrying(options.retries, () => this.handleManyOnce(streams, decide, options));
  }

  private async handleManyOnce<const T extends readonly HandledStream[]>(
    streams: T,
    decide: (states: StatesOf<T>) => readonly StreamEvents[] | Promise<readonly StreamEvents[]>,
    options: Pick<HandleOptions, 'metadata'>,
  ): Promise<AppendResult[]> {
    const folded = await this.readFolded(streams, (text, params) => this.prepared.query<EventRow>(text, params));
    const decided = await decide(streams.map((s) => folded.get(s.streamId)!.state) as StatesOf<T>);
    const appends = appendsOf(streams, folded, decided);
    const written = appends.length > 0 ? await this.appendNow(appends, options.metadata ?? {}) : [];
    return streams.map(
      (s) =>
        written.find((w) => w.streamId === s.streamId) ?? {
          streamId: s.streamId,
          nextExpectedVersion: folded.get(s.streamId)!.version,
          events: [],
        },
    );
  }

  /**
   * A write described as data (`Write`, docs/adr/0011-declarative-writes.md): gates, facts, named
   * streams and a pure decision. With gates or facts it runs in one transaction that takes the
   * gates first; without, it is `handleMany`'s one-statement write. The store alone runs it again
   * after a lost race (a stream that moved, a deadlock, a ConcurrencyError from the decision), up to
   * `retries` times, then answers 409. Given a function, the store calls it for every attempt: a
   * write whose gates or streams come from reads made before it (a series' occurrences) plans again.
   */
  async write<F = undefined, R extends StreamReads = StreamReads>(
    write: Write<F, R> | (() => Promise<Write<F, R>>),
  ): Promise<Written<F, R>> {
    let retries = typeof write === 'function' ? WRITE_RETRIES : (write.retries ?? WRITE_RETRIES);
    const written = await this.retrying(
      () => retries,
      async () => {
        const spec = typeof write === 'function' ? await write() : write;
        retries = spec.retries ?? WRITE_RETRIES;
        const locked = !!spec.facts || (spec.gates?.advance?.length ?? 0) + (spec.gates?.hold?.length ?? 0) > 0;
        return locked ? this.writeLocked(spec) : this.writeUnlocked(spec);
      },
    );
    for (const r of written.appended) this.metrics?.eventsAppended(r.events);
    return written;
  }

  private async writeUnlocked<F, R extends StreamReads>(spec: Write<F, R>): Promise<Written<F, R>> {
    const facts = undefined as F;
    const streams = typeof spec.streams === 'function' ? spec.streams(facts) : spec.streams;
    const read = await this.readNamed(streams, (text, params) => this.prepared.query<EventRow>(text, params));
    const appends = appendsOf(Object.values(streams), read.folded, spec.decide(read.states, facts));
    const appended = appends.length > 0 ? await this.writeOnce(appends, spec.metadata ?? {}) : [];
    return { facts, states: read.states, appended, events: eventsOf(appended) };
  }

  private async writeLocked<F, R extends StreamReads>(spec: Write<F, R>): Promise<Written<F, R>> {
    let decided: Written<F, R> | undefined;
    try {
      await this.transaction(async (tx) => {
        const query = <T>(text: string, params?: readonly unknown[]) =>
          this.prepared.queryIn<T>(tx, text, params ?? []);
        await lockGates(query, sortedGates(spec.gates));
        const facts = spec.facts ? await spec.facts({ query }) : (undefined as F);
        const streams = typeof spec.streams === 'function' ? spec.streams(facts) : spec.streams;
        const read = await this.readNamed(streams, query<EventRow>);
        const appends = appendsOf(Object.values(streams), read.folded, spec.decide(read.states, facts));
        decided = { facts, states: read.states, appended: [], events: [] };
        // Nothing to append: roll the gates back too, so a write that did nothing leaves no trace.
        if (appends.length === 0) throw NOTHING_TO_WRITE;
        const appended = await this.writeOnce(appends, spec.metadata ?? {}, tx);
        decided = { ...decided, appended, events: eventsOf(appended) };
      });
    } catch (error) {
      // A deadlock anywhere in the write (its gates, the facts, the projections' rows) lost a race.
      if (error !== NOTHING_TO_WRITE) deadlockAsConflict('write')(error);
    }
    return decided!;
  }

  /** The named streams read and folded (readFolded), and their states under their names. */
  private async readNamed<R extends StreamReads>(
    streams: R,
    query: (text: string, params: unknown[]) => Promise<EventRow[]>,
  ): Promise<{ states: StatesByName<R>; folded: Map<string, Folded> }> {
    const folded = await this.readFolded(Object.values(streams), query);
    const states = Object.fromEntries(
      Object.entries(streams).map(([name, s]) => [name, folded.get(s.streamId)!.state]),
    );
    return { states: states as StatesByName<R>, folded };
  }

  /**
   * Each stream's state and the version to append at, read in one query (a single stream by the
   * named READ_STREAM) and folded with its `evolve`; a stream with `expect` is not read (null, 0).
   */
  private async readFolded(
    streams: readonly StreamRead<unknown, never>[],
    query: (text: string, params: unknown[]) => Promise<EventRow[]>,
  ): Promise<Map<string, Folded>> {
    const folded = new Map<string, Folded>();
    for (const s of streams) {
      if (folded.has(s.streamId)) throw new Error(`EventStore: stream ${s.streamId} is named twice`);
      if (!s.expect && !s.evolve) throw new Error(`EventStore: stream ${s.streamId} needs evolve or expect`);
      folded.set(s.streamId, { state: null, version: 0 });
    }
    const read = streams.filter((s) => !s.expect);
    if (read.length === 0) return folded;
    const rows = await this.opened(
      await (read.length === 1
        ? query(READ_STREAM, [read[0]!.streamId])
        : query(READ_STREAMS, [read.map((s) => s.streamId)])),
      query as KeyQuery,
    );
    const rowsOf = groupBy(rows, (row) => row.stream_id);
    for (const s of read)
      folded.set(s.streamId, this.fold(s.evolve!.bind(s) as Evolve<unknown, never>, rowsOf.get(s.streamId) ?? []));
    return folded;
  }

  /** A stream's rows folded with `evolve`, and the version to append at. */
  private fold<S, E>(evolve: Evolve<S, E>, rows: readonly EventRow[]): { state: S | null; version: number } {
    let state: S | null = null;
    for (const row of rows) state = evolve(state, toStoredEvent(row, this.upcasters) as unknown as E);
    return { state, version: rows.length > 0 ? rows[rows.length - 1]!.stream_version : 0 };
  }

  /** `work`, run again after a lost race up to `retries` more times (HandleOptions.retries). */
  private async retrying<T>(retries: number | undefined | (() => number), work: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        const limit = typeof retries === 'function' ? retries() : (retries ?? 0);
        if (!(error instanceof ConcurrencyError) || attempt >= limit) throw error;
        // A little jitter, so the losers of one race do not meet again on the next round.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3 * (attempt + 1)));
      }
    }
  }

  /** Runs `work` in one transaction: everything it appends and projects commits or rolls back together. */
  private async transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    let manager: EntityManager | undefined;
    const result = await this.dataSource.transaction((tx) => {
      manager = tx;
      return work(tx);
    });
    this.projections.committed(manager!);
    return result;
  }

  /**
   * Appends to one or several streams inside the caller's transaction and applies the inline
   * projections there, so a client reads its own write. All streams go in one insert (a stream
   * named twice appends twice, one insert per repetition), in id order, and the 'any' streams are
   * locked in id order, so two commands touching the same pair of streams cannot deadlock.
   * The store's own fallback for writes that cannot be one statement (`appendNow`).
   */
  private async append(
    tx: EntityManager,
    appends: readonly StreamAppend[],
    metadata: EventMetadata = {},
    options: { projectionsLocked?: boolean } = {},
  ): Promise<AppendResult[]> {
    if (!tx.queryRunner?.isTransactionActive) throw new Error('EventStore.append needs a transaction');
    // Appends at 'any' read the stream's latest version and append after it, so they queue per
    // stream; their locks come with the projections lock, in one order, so they cannot deadlock.
    const anyStreams = [...new Set(appends.filter((a) => a.expectedVersion === 'any').map((a) => a.streamId))].sort();
    if (!options.projectionsLocked || anyStreams.length > 0)
      await tx.query(
        `SELECT pg_advisory_xact_lock_shared(${LOCKS.projections})${anyStreams.map((_, i) => `, pg_advisory_xact_lock(${LOCKS.stream(`$${i + 1}`)})`).join('')}`,
        anyStreams,
      );
    const stored = await this.storedIds(tx, appends);
    const recordedAt = new Date();
    // Round k holds each stream's k-th append: one insert a round, and nearly always one round.
    const rounds: StreamAppend[][] = [];
    const seen = new Map<string, number>();
    for (const append of [...appends].sort(byStreamId)) {
      const k = seen.get(append.streamId) ?? 0;
      seen.set(append.streamId, k + 1);
      (rounds[k] ??= []).push(
        stored.size === 0
          ? append
          : { ...append, events: append.events.filter((e) => !e.eventId || !stored.has(e.eventId)) },
      );
    }
    const results = new Map<string, AppendResult[]>();
    for (const round of rounds) {
      for (const result of await this.insert(tx, round, metadata, recordedAt))
        results.set(result.streamId, [...(results.get(result.streamId) ?? []), result]);
    }
    const events = [...results.values()]
      .flat()
      .flatMap((r) => r.events)
      .sort((a, b) => a.position - b.position);
    await this.projections.apply(tx, events);
    return appends.map((a) => results.get(a.streamId)!.shift()!);
  }

  /**
   * Appends to distinct streams in a transaction of its own. Where it can, this is one statement:
   * the projections lock, the stream gate, the events and the projection writes as data-modifying
   * CTEs that Postgres runs atomically, one round trip where `transaction` + `append` take four or
   * more (docs/adr/0002). The events and projection writes are conditional on the gate, so a lost
   * race writes nothing. It falls back to `transaction` + `append` for a stream version it cannot
   * know in advance ('any'), idempotency keys (they need a read), projections that cannot share the
   * statement (InlineProjections.plan), and while a replay holds the projections lock for its swap.
   */
  private async appendNow(appends: readonly StreamAppend[], metadata: EventMetadata): Promise<AppendResult[]> {
    const results = await this.writeOnce(appends, metadata);
    // Committed by now; an event id stored before (a retried job) appends nothing and counts nothing.
    for (const r of results) this.metrics?.eventsAppended(r.events);
    return results;
  }

  /**
   * `inTx`: inside a locked write's transaction (which holds the projections lock): the same one
   * statement on its connection, falling back to `append` there.
   */
  private async writeOnce(
    appends: readonly StreamAppend[],
    metadata: EventMetadata,
    inTx?: EntityManager,
  ): Promise<AppendResult[]> {
    const viaTransaction = () =>
      inTx
        ? this.append(inTx, appends, metadata, { projectionsLocked: true })
        : this.transaction((tx) => this.append(tx, appends, metadata));
    const run = <T>(text: string, params: unknown[]): Promise<T[]> =>
      inTx ? this.prepared.queryIn<T>(inTx, text, params) : this.prepared.query<T>(text, params);
    for (const a of appends) {
      if (a.events.length === 0 || a.expectedVersion === 'any' || a.events.some((e) => e.eventId))
        return viaTransaction();
    }
    const one = appends.length === 1;
    const sorted = one ? appends : [...appends].sort(byStreamId);
    // Personal fields go to the log sealed; the projections and the caller see them in clear. A
    // user without a key yet, or whose key is destroyed, takes the transactional path: the key is
    // made there, and there the projections see the events as stored (placeholders for an erased user).
    const sealed = this.personal
      ? await this.personal.seal(
          sorted.flatMap((a) => a.events),
          (text, params) => (inTx ?? this.dataSource).query(text, params),
          false,
        )
      : null;
    if (this.personal && !sealed) return viaTransaction();
    let nth = 0;
    const recordedAt = new Date();
    const meta = JSON.stringify(metadata);
    const pending: StoredEvent[] = [];
    // Events (and streams) travel as one JSON array each (see AppendStatements).
    let eventsJson = '[';
    let streamsJson = '[';
    for (const { streamId, expectedVersion, events } of sorted) {
      const from = expectedVersion === 'no_stream' ? 0 : (expectedVersion as number);
      if (!one) streamsJson += `${streamsJson.length > 1 ? ',' : ''}{"id":${JSON.stringify(streamId)},"after":${from}}`;
      for (let i = 0; i < events.length; i++) {
        const e = events[i]!;
        const data = JSON.stringify(e.data ?? {});
        const toStore = sealed ? sealed[nth++] : e.data;
        const storedData = toStore === e.data ? data : JSON.stringify(toStore ?? {});
        const fields = {
          eventId: randomUUID(),
          streamId,
          streamVersion: from + i + 1,
          type: e.type,
          schemaVersion: e.schemaVersion ?? 1,
          recordedAt,
        };
        const where = one ? '' : `"o":${pending.length},"s":${JSON.stringify(streamId)},`;
        const head = `${pending.length ? ',' : ''}{${where}"id":"${fields.eventId}","n":${i + 1}`;
        eventsJson += `${head},"type":${JSON.stringify(fields.type)},"schema_version":${fields.schemaVersion},"data":${storedData}}`;
        pending.push(pendingEvent(fields, data, meta));
      }
    }
    eventsJson += ']';
    streamsJson += ']';
    const planned = await this.projections.plan(pending, 'EXISTS (SELECT FROM ev)', (text, p) =>
      (inTx ?? this.dataSource).query(text, p),
    );
    if (!planned) return viaTransaction();
    const extra = planned.statements.flatMap((s) => s.params);
    let stored: { position: string; transaction_id: string }[];
    if (one) {
      const { streamId, expectedVersion } = appends[0]!;
      const from = pending[0]!.streamVersion - 1;
      const rows = await run<{ locked: boolean; position: string | null; transaction_id: string | null }>(
        this.statements.oneStream(from === 0, planned.statements),
        [streamId, from, eventsJson, meta, recordedAt.toISOString(), ...extra],
      ).catch(lostRaceAsConflict(appends));
      if (!rows[0]!.locked) return viaTransaction();
      if (rows[0]!.position === null) throw new ConcurrencyError(streamId, String(expectedVersion));
      stored = rows as typeof stored;
    } else {
      const rows = await run<{
        locked: boolean;
        stale: string | null;
        event_id: string | null;
        position: string;
        transaction_id: string;
      }>(this.statements.manyStreams(planned.statements), [
        streamsJson,
        eventsJson,
        meta,
        recordedAt.toISOString(),
        ...extra,
      ]).catch(lostRaceAsConflict(appends));
      if (!rows[0]!.locked) return viaTransaction();
      const stale = rows[0]!.stale;
      if (stale !== null)
        throw new ConcurrencyError(stale, String(appends.find((a) => a.streamId === stale)?.expectedVersion));
      const byEvent = new Map(rows.map((r) => [r.event_id, r]));
      stored = pending.map((e) => byEvent.get(e.eventId)!);
    }
    if (inTx) this.projections.remember(inTx, planned.ops);
    else this.projections.announce(planned.ops);
    const events = pending.map((e, i) => ({
      ...e,
      position: Number(stored[i]!.position),
      transactionId: stored[i]!.transaction_id,
    }));
    const byStream = groupBy(events, (e) => e.streamId);
    return appends.map((a) => {
      const own = byStream.get(a.streamId)!;
      return { streamId: a.streamId, nextExpectedVersion: own[own.length - 1]!.streamVersion, events: own };
    });
  }

  async readStream(streamId: string, afterVersion = 0, tx?: EntityManager): Promise<StoredEvent[]> {
    const rows: EventRow[] = await (tx ?? this.dataSource).query(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 AND stream_version > $2 ORDER BY stream_version`,
      [streamId, afterVersion],
    );
    await this.opened(rows, (text, params) => (tx ?? this.dataSource).query(text, params));
    return rows.map((r) => toStoredEvent(r, this.upcasters));
  }

  /**
   * The events one transaction appended, in log order (only `types` when given, at most `limit`):
   * everything one write did, that is one request's command or one worker job's. A transaction's
   * events become visible together, so a reactor's job that reads its event's transaction sees all
   * of it (the rota notifications send one e-mail per request this way). The (transaction_id,
   * position) index serves it.
   */
  async readTransaction(
    transactionId: string,
    options: { types?: readonly string[]; limit?: number } = {},
  ): Promise<StoredEvent[]> {
    const { types, limit } = options;
    const rows: EventRow[] = await this.dataSource.query(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE transaction_id = $1::xid8 ${types ? 'AND type = ANY($3::text[])' : ''} ORDER BY position LIMIT $2`,
      [transactionId, limit ?? null, ...(types ? [types] : [])],
    );
    await this.opened(rows, this.keyQuery);
    return rows.map((r) => toStoredEvent(r, this.upcasters));
  }

  /**
   * The whole log after `cursor`, gap-safely: only transactions older than every transaction still
   * running are returned, in (transaction id, position) order. A transaction that took a lower
   * position but commits late is therefore never skipped. The order names `events.` columns: a bare
   * `transaction_id` would be the selected text (EVENT_COLUMNS), which sorts 1000 before 999 and
   * cannot walk the index.
   *
   * With `types` (a reactor's), each type is read on its own from the (type, transaction_id,
   * position) index and the runs merged: a filter over the whole log's order walked every event
   * since the reactor's last one, so an idle reactor (cover alerts during a run of bookings) read
   * more of the log at every wake-up.
   */
  async readAll(
    cursor: LogCursor,
    limit: number,
    types?: readonly string[],
    tx?: EntityManager,
  ): Promise<StoredEvent[]> {
    const after = `(transaction_id, position) > ($1::xid8, $2::bigint)
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())`;
    const rows: EventRow[] = await (tx ?? this.dataSource).query(
      types
        ? `SELECT e.* FROM unnest($4::text[]) AS wanted(type)
           CROSS JOIN LATERAL (
             SELECT ${EVENT_COLUMNS} FROM events
              WHERE events.type = wanted.type AND ${after}
              ORDER BY events.transaction_id, events.position LIMIT $3) e
           ORDER BY e.transaction_id::xid8, e.position LIMIT $3`
        : `SELECT ${EVENT_COLUMNS} FROM events WHERE ${after} ORDER BY events.transaction_id, events.position LIMIT $3`,
      types
        ? [cursor.transactionId, cursor.position, limit, [...new Set(types)]]
        : [cursor.transactionId, cursor.position, limit],
    );
    await this.opened(rows, (text, params) => (tx ?? this.dataSource).query(text, params));
    return rows.map((r) => toStoredEvent(r, this.upcasters));
  }

  private async storedIds(tx: EntityManager, appends: readonly StreamAppend[]): Promise<Set<string>> {
    const ids = appends.flatMap((a) => a.events.flatMap((e) => (e.eventId ? [e.eventId] : [])));
    if (ids.length === 0) return new Set();
    const rows: { event_id: string }[] = await tx.query(
      `SELECT event_id FROM events WHERE event_id = ANY($1::uuid[])`,
      [ids],
    );
    return new Set(rows.map((r) => r.event_id));
  }

  /** One insert for `round` (distinct streams) inside the caller's transaction; no events: the stream's latest version. */
  private async insert(
    tx: EntityManager,
    round: readonly StreamAppend[],
    metadata: EventMetadata,
    recordedAt: Date,
  ): Promise<AppendResult[]> {
    const results: AppendResult[] = [];
    const writing = round.filter((a) => a.events.length > 0);
    // Every event was stored before: an idempotent retry, not a race.
    const retried = round.filter((a) => a.events.length === 0).map((a) => a.streamId);
    if (retried.length > 0) {
      const rows: { stream_id: string; version: number }[] = await tx.query(
        `SELECT s AS stream_id, (SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = s)::int AS version FROM unnest($1::text[]) AS s`,
        [retried],
      );
      for (const r of rows) results.push({ streamId: r.stream_id, nextExpectedVersion: r.version, events: [] });
    }
    if (writing.length === 0) return results;
    // Personal fields go to the log sealed; missing keys are created here, in the append's transaction.
    const txQuery: KeyQuery = (text, params) => tx.query(text, params);
    const sealed = this.personal
      ? await this.personal.seal(
          writing.flatMap((a) => a.events),
          txQuery,
          true,
        )
      : null;
    let nth = 0;
    const storedData = (e: NewEvent) => (sealed ? sealed[nth++] : e.data) ?? {};
    let rows: (EventRow & { stale?: string | null })[];
    if (writing.length === 1) {
      const [{ streamId, expectedVersion, events }] = writing as [StreamAppend];
      const follows =
        expectedVersion === 'any'
          ? 'any'
          : expectedVersion === 'no_stream' || expectedVersion === 0
            ? 'new'
            : 'version';
      rows = await tx
        .query(this.statements.inTransactionOne(follows), [
          streamId,
          JSON.stringify(
            events.map((e, i) => ({
              id: e.eventId ?? randomUUID(),
              n: i + 1,
              type: e.type,
              schema_version: e.schemaVersion ?? 1,
              data: storedData(e),
            })),
          ),
          JSON.stringify(metadata),
          recordedAt.toISOString(),
          ...(follows === 'version' ? [expectedVersion] : []),
        ])
        .catch(lostRaceAsConflict(writing));
      // Nothing inserted: the version to append after does not exist (yet).
      if (rows.length === 0) throw new ConcurrencyError(streamId, String(expectedVersion));
    } else {
      const streams = writing.map((a) => ({
        id: a.streamId,
        after: a.expectedVersion === 'any' ? null : a.expectedVersion === 'no_stream' ? 0 : a.expectedVersion,
      }));
      const events = writing.flatMap((a) =>
        a.events.map((e, i) => ({
          id: e.eventId ?? randomUUID(),
          s: a.streamId,
          n: i + 1,
          type: e.type,
          schema_version: e.schemaVersion ?? 1,
          data: storedData(e),
        })),
      );
      rows = await tx
        .query(this.statements.inTransaction(), [
          JSON.stringify(streams),
          JSON.stringify(events.map((e, o) => ({ o, ...e }))),
          JSON.stringify(metadata),
          recordedAt.toISOString(),
        ])
        .catch(lostRaceAsConflict(writing));
      const stale = rows[0]!.stale ?? null;
      // Nothing inserted: that stream's version to append after does not exist (yet).
      if (stale !== null)
        throw new ConcurrencyError(stale, String(writing.find((a) => a.streamId === stale)?.expectedVersion));
    }
    // The rows come back as stored: opened for the projections and the caller.
    await this.opened(rows, txQuery);
    // Grouped once: a write of 20,000 streams (a bulk archive) must not scan every row per stream.
    const rowsOf = groupBy(rows, (r) => r.stream_id);
    for (const a of writing) {
      const stored = (rowsOf.get(a.streamId) ?? [])
        .map((r) => toStoredEvent(r, this.upcasters))
        .sort((x, y) => x.streamVersion - y.streamVersion);
      results.push({
        streamId: a.streamId,
        nextExpectedVersion: stored[stored.length - 1]!.streamVersion,
        events: stored,
      });
    }
    return results;
  }
}

/** Lost races a `write` runs again after, by default: losing one takes a stream edited meanwhile. */
export const WRITE_RETRIES = 5;

/** Thrown inside a locked write's transaction to roll it back when the decision appends nothing. */
const NOTHING_TO_WRITE = Symbol('nothing to write');

/** What readFolded gives for one stream: its state and the version to append at. */
interface Folded {
  readonly state: unknown;
  readonly version: number;
}

/** The appends of a decision: only to the streams it was given, each once, at the version read (or its `expect`). */
function appendsOf(
  streams: readonly StreamRead<unknown, never>[],
  folded: ReadonlyMap<string, Folded>,
  decided: readonly StreamEvents[],
): StreamAppend[] {
  const given = new Map(streams.map((s) => [s.streamId, s]));
  const seen = new Set<string>();
  const appends: StreamAppend[] = [];
  for (const d of decided) {
    const stream = given.get(d.streamId);
    if (!stream)
      throw new Error(
        `EventStore: the decision appends to ${d.streamId}, which it did not name (not one of its streams)`,
      );
    if (seen.has(d.streamId)) throw new Error(`EventStore: the decision names ${d.streamId} twice`);
    seen.add(d.streamId);
    if (d.events.length > 0)
      appends.push({
        streamId: d.streamId,
        expectedVersion: stream.expect ?? folded.get(d.streamId)!.version,
        events: d.events,
      });
  }
  return appends;
}

const eventsOf = (appended: readonly AppendResult[]): StoredEvent[] =>
  appended.flatMap((a) => a.events).sort((a, b) => a.position - b.position);

/** Streams in one order everywhere (code points, not locale), so concurrent writers lock them alike. */
const byStreamId = (a: StreamAppend, b: StreamAppend) =>
  a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0;

/** A deadlock (writers locking rows in crossed orders): Postgres aborts one of them, which lost a race. */
const deadlockAsConflict =
  (gate: string) =>
  (error: unknown): never => {
    const code = (
      (error as { driverError?: { code?: string } } | null)?.driverError ?? (error as { code?: string } | null)
    )?.code;
    throw code === '40P01' ? new ConcurrencyError(gate, 'gate') : error;
  };

/** A stream's events in order (named: the first query of every `handle`). */
const READ_STREAM = `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_version`;
/** Several streams' events, each stream's in order. */
const READ_STREAMS = `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, stream_version`;
