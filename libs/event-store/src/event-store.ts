import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { PreparedStatements } from '#app/platform';
import { ConcurrencyError, lostRaceAsConflict } from './errors.js';
import { EVENT_COLUMNS, type EventRow, toStoredEvent } from './event-rows.js';
import type {
  AppendResult,
  EventMetadata,
  LogCursor,
  NewEvent,
  StoredEvent,
  StreamAppend,
} from './event.types.js';
import { InlineProjections, type PlannedStatement } from './inline-projections.js';
import { LOCKS } from './locks.js';
import { pendingEvent } from './pending-event.js';
import { EventUpcasters } from './upcasters.js';

@Injectable()
export class EventStore {
  private readonly commitTexts = new Map<string, string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly upcasters: EventUpcasters,
    private readonly projections: InlineProjections,
    private readonly prepared: PreparedStatements,
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
   * projections there, so a client reads its own write. Streams are written in id order, and the
   * 'any' streams locked in id order, so two commands touching the same pair of streams cannot
   * deadlock.
   */
  async append(tx: EntityManager, appends: readonly StreamAppend[], metadata: EventMetadata = {}): Promise<AppendResult[]> {
    if (!tx.queryRunner?.isTransactionActive) throw new Error('EventStore.append needs a transaction');
    // Appends at 'any' read the stream's latest version and append after it, so they queue per
    // stream; their locks come with the projections lock, in one order, so they cannot deadlock.
    const anyStreams = [...new Set(appends.filter((a) => a.expectedVersion === 'any').map((a) => a.streamId))].sort();
    await tx.query(
      `SELECT pg_advisory_xact_lock_shared(${LOCKS.projections})${anyStreams.map((_, i) => `, pg_advisory_xact_lock(${LOCKS.stream(`$${i + 1}`)})`).join('')}`,
      anyStreams,
    );
    const stored = await this.storedIds(tx, appends);
    const recordedAt = new Date();
    const results: AppendResult[] = [];
    for (const append of [...appends].sort((a, b) => a.streamId.localeCompare(b.streamId))) {
      const fresh = append.events.filter((e) => !e.eventId || !stored.has(e.eventId));
      results.push(await this.appendToStream(tx, append, fresh, metadata, recordedAt));
    }
    const events = results.flatMap((r) => r.events).sort((a, b) => a.position - b.position);
    await this.projections.apply(tx, events);
    return appends.map((a) => results.find((r) => r.streamId === a.streamId)!);
  }

  /**
   * Appends to one stream in a transaction of its own: for commands that read and check first and
   * then write (every write that needs no other stream). Where it can, this is one statement, the
   * projections lock, the stream gate, the events and the projection writes as data-modifying CTEs
   * that Postgres runs atomically: one round trip where `transaction` + `append` take six. The
   * events and projection writes are conditional on the gate, so a lost race writes nothing.
   * It falls back to that longer path for a stream version it cannot know in advance ('any'),
   * idempotency keys (they need a read), projections that cannot share the statement
   * (InlineProjections.plan), and while a replay holds the projections lock for its swap.
   */
  async commit(append: StreamAppend, metadata: EventMetadata = {}): Promise<AppendResult> {
    const { streamId, expectedVersion, events } = append;
    const oneStatement = events.length > 0 && expectedVersion !== 'any' && events.every((e) => !e.eventId);
    const viaTransaction = () => this.transaction(async (tx) => (await this.append(tx, [append], metadata))[0]!);
    if (!oneStatement) return viaTransaction();
    const from = expectedVersion === 'no_stream' ? 0 : expectedVersion;
    const recordedAt = new Date();
    const meta = JSON.stringify(metadata);
    const pending: StoredEvent[] = [];
    // The events travel as one JSON array (their data is already JSON): pg builds array literals
    // in JavaScript, which cost more than the rest of the parameters together.
    let eventsJson = '[';
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      const data = JSON.stringify(e.data ?? {});
      const fields = { eventId: randomUUID(), streamId, streamVersion: from + i + 1, type: e.type, schemaVersion: e.schemaVersion ?? 1, recordedAt };
      pending.push(pendingEvent(fields, data, meta));
      eventsJson += `${i ? ',' : ''}{"id":"${fields.eventId}","n":${i + 1},"type":${JSON.stringify(fields.type)},"schema_version":${fields.schemaVersion},"data":${data}}`;
    }
    eventsJson += ']';
    const planned = await this.projections.plan(pending, 'EXISTS (SELECT FROM ev)', (text, p) => this.dataSource.query(text, p));
    if (!planned) return viaTransaction();
    const params: unknown[] = [streamId, from, eventsJson, meta, recordedAt.toISOString()];
    for (const statement of planned.statements) params.push(...statement.params);
    const rows = await this.prepared
      .query<{ locked: boolean; position: string | null; transaction_id: string | null }>(this.commitText(from === 0, planned.statements), params)
      .catch(lostRaceAsConflict(streamId, expectedVersion));
    if (!rows[0]!.locked) return viaTransaction();
    if (rows[0]!.position === null) throw new ConcurrencyError(streamId, String(expectedVersion));
    this.projections.announce(planned.ops);
    return {
      streamId,
      nextExpectedVersion: from + events.length,
      events: pending.map((e, i) => ({ ...e, position: Number(rows[i]!.position), transactionId: rows[i]!.transaction_id! })),
    };
  }

  /**
   * The one-statement commit's text for a gate (new stream or next version) and the projections'
   * statements, built once per shape: the same few shapes recur on every write.
   */
  private commitText(newStream: boolean, statements: readonly PlannedStatement[]): string {
    const shape = `${newStream}\0${statements.map((s) => s.text).join('\0')}`;
    let text = this.commitTexts.get(shape);
    if (text !== undefined) return text;
    let offset = 5;
    const writes = statements.map((s, i) => {
      const at = offset;
      offset += s.params.length;
      // OpsWriter numbers its parameters from $1; projection tables and columns are plain names, so
      // `$n` is only ever a parameter (a `$` in a name would fail loudly, not silently).
      return `, w${i} AS (${s.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + at}`)})`;
    });
    // The gate is the events' unique (stream, version) key: a version already taken fails the
    // whole statement (a unique violation, turned into a ConcurrencyError), and appending after
    // version n needs event n to exist, so a version from the future writes nothing.
    const after = newStream ? '' : ` AND EXISTS (SELECT FROM events WHERE stream_id = $1::text AND stream_version = $2::int)`;
    // `a`: whether the projections lock was free. The statement holds its tables from the start, so
    // waiting for the lock here could deadlock with a replay that holds it and wants a table for its
    // swap; a taken lock writes nothing, and the transaction path waits for it before touching any table.
    text = `WITH a AS (SELECT pg_try_advisory_xact_lock_shared(${LOCKS.projections}) AS locked),
            ev AS (INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
                   SELECT e.id, $1::text, $2::int + e.n::int, e.type, e.schema_version, e.data, $4::jsonb, $5::timestamptz
                     FROM a, jsonb_to_recordset($3::jsonb) AS e(id uuid, n int, type text, schema_version int, data jsonb)
                    WHERE a.locked${after}
                   RETURNING position, transaction_id::text AS transaction_id, stream_version)
            ${writes.join('\n')}
       SELECT a.locked, ev.position, ev.transaction_id FROM a LEFT JOIN ev ON true ORDER BY ev.stream_version`;
    this.commitTexts.set(shape, text);
    return text;
  }

  async readStream(streamId: string, afterVersion = 0, tx?: EntityManager): Promise<StoredEvent[]> {
    const rows: EventRow[] = await (tx ?? this.dataSource).query(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 AND stream_version > $2 ORDER BY stream_version`,
      [streamId, afterVersion],
    );
    return rows.map((r) => toStoredEvent(r, this.upcasters));
  }

  /** An aggregate's state folded from its stream, with the version to append at. */
  async load<S, E>(streamId: string, evolve: (state: S | null, event: E) => S | null, tx?: EntityManager): Promise<{ state: S | null; version: number }> {
    const events = await this.readStream(streamId, 0, tx);
    return { state: events.reduce<S | null>((s, e) => evolve(s, e as unknown as E), null), version: events.length };
  }

  /**
   * The whole log after `cursor`, gap-safely: only transactions older than every transaction still
   * running are returned, in (transaction id, position) order. A transaction that took a lower
   * position but commits late is therefore never skipped.
   */
  async readAll(
    cursor: LogCursor,
    limit: number,
    types?: readonly string[],
    tx?: EntityManager,
  ): Promise<StoredEvent[]> {
    const rows: EventRow[] = await (tx ?? this.dataSource).query(
      `SELECT ${EVENT_COLUMNS} FROM events
        WHERE (transaction_id, position) > ($1::xid8, $2::bigint)
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
          ${types ? 'AND type = ANY($4::text[])' : ''}
        ORDER BY transaction_id, position
        LIMIT $3`,
      types ? [cursor.transactionId, cursor.position, limit, types] : [cursor.transactionId, cursor.position, limit],
    );
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

  private async appendToStream(
    tx: EntityManager,
    append: StreamAppend,
    events: readonly NewEvent[],
    metadata: EventMetadata,
    recordedAt: Date,
  ): Promise<AppendResult> {
    if (events.length === 0) {
      // Every event was stored before: an idempotent retry, not a race.
      return { streamId: append.streamId, nextExpectedVersion: await this.version(tx, append.streamId), events: [] };
    }
    const { expectedVersion } = append;
    const after = typeof expectedVersion === 'number' && expectedVersion !== 0 ? expectedVersion : null;
    const rows: EventRow[] = await tx
      .query(
        `INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
         SELECT e.id, $1, b.version + e.n::int, e.type, e.schema_version, e.data, $6::jsonb, $7::timestamptz
           FROM (SELECT ${versionToFollow(expectedVersion)} AS version) b,
                unnest($2::uuid[], $3::text[], $4::int[], $5::jsonb[]) WITH ORDINALITY AS e(id, type, schema_version, data, n)
          ${after === null ? '' : 'WHERE EXISTS (SELECT FROM events WHERE stream_id = $1 AND stream_version = $8)'}
         RETURNING ${EVENT_COLUMNS}`,
        [
          append.streamId,
          events.map((e) => e.eventId ?? randomUUID()),
          events.map((e) => e.type),
          events.map((e) => e.schemaVersion ?? 1),
          events.map((e) => JSON.stringify(e.data ?? {})),
          JSON.stringify(metadata),
          recordedAt.toISOString(),
          ...(after === null ? [] : [after]),
        ],
      )
      .catch(lostRaceAsConflict(append.streamId, expectedVersion));
    // Nothing inserted: the version to append after does not exist (yet).
    if (rows.length === 0) throw new ConcurrencyError(append.streamId, String(expectedVersion));
    const stored = rows.map((r) => toStoredEvent(r, this.upcasters)).sort((a, b) => a.streamVersion - b.streamVersion);
    return { streamId: append.streamId, nextExpectedVersion: stored.at(-1)!.streamVersion, events: stored };
  }

  private async version(tx: EntityManager, streamId: string): Promise<number> {
    const [row] = await tx.query(`SELECT ${LATEST_VERSION}::int AS version`, [streamId]);
    return row.version as number;
  }
}

/** A stream's latest version (0 before its first event), as SQL with the stream id as $1. */
const LATEST_VERSION = `(SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = $1)`;

/**
 * The version the new events follow, as SQL. The gate itself is the events' unique (stream,
 * version) key: a version another writer has taken fails the insert (docs/adr/0004). An expected
 * version must also exist (the insert's WHERE EXISTS), so a version from the future writes
 * nothing; 'any' reads the latest version under its stream lock (taken in `append`), in the
 * insert itself, whose snapshot is newer than the lock.
 */
function versionToFollow(expected: StreamAppend['expectedVersion']): string {
  if (expected === 'any') return LATEST_VERSION;
  if (expected === 'no_stream' || expected === 0) return '0';
  return '$8::int';
}
