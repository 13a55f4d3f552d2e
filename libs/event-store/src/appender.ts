import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { groupBy, type Metrics, type PreparedStatements } from '#app/platform';
import { AppendStatements } from './append-statements.js';
import { ConcurrencyError, lostRaceAsConflict } from './errors.js';
import { type EventRow, toStoredEvent } from './event-rows.js';
import type { AppendResult, EventMetadata, NewEvent, StoredEvent, StreamAppend } from './event.types.js';
import type { InlineProjections } from './inline-projections.js';
import { LOCKS } from './locks.js';
import { pendingEvent } from './pending-event.js';
import type { KeyQuery, PersonalDataKeys } from './personal-data/personal-data-keys.js';
import type { StreamReader } from './stream-reader.js';
import type { EventUpcasters } from './upcasters.js';

/**
 * How the store appends (docs/adr/0002-one-statement-commit.md): one statement for the events and
 * their projection rows where it can (`writeOnce`), else a transaction and `append` inside it. The
 * store's own machinery: domain code writes through `EventStore.handle` and `write`.
 */
export class Appender {
  private readonly statements = new AppendStatements();

  constructor(
    private readonly dataSource: DataSource,
    private readonly upcasters: EventUpcasters,
    private readonly projections: InlineProjections,
    private readonly prepared: PreparedStatements,
    private readonly reader: StreamReader,
    private readonly metrics?: Metrics,
    private readonly personal?: PersonalDataKeys,
  ) {}

  /** Runs `work` in one transaction: everything it appends and projects commits or rolls back together. */
  async transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
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
  async append(
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
  async appendNow(appends: readonly StreamAppend[], metadata: EventMetadata): Promise<AppendResult[]> {
    const results = await this.writeOnce(appends, metadata);
    // Committed by now; an event id stored before (a retried job) appends nothing and counts nothing.
    for (const r of results) this.metrics?.eventsAppended(r.events);
    return results;
  }

  /**
   * `inTx`: inside a locked write's transaction (which holds the projections lock): the same one
   * statement on its connection, falling back to `append` there.
   */
  async writeOnce(
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
    await this.reader.opened(rows, txQuery);
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

/** Streams in one order everywhere (code points, not locale), so concurrent writers lock them alike. */
const byStreamId = (a: StreamAppend, b: StreamAppend) =>
  a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0;
