import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { PreparedStatements } from '#app/platform';
import { ConcurrencyError } from './errors.js';
import { EVENT_COLUMNS, type EventRow, toStoredEvent } from './event-rows.js';
import type {
  AppendResult,
  EventMetadata,
  LogCursor,
  NewEvent,
  StoredEvent,
  StreamAppend,
} from './event.types.js';
import { InlineProjections } from './inline-projections.js';
import { LOCKS } from './locks.js';
import { pendingEvent } from './pending-event.js';
import { EventUpcasters } from './upcasters.js';

@Injectable()
export class EventStore {
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
   * projections there, so a client reads its own write. Streams are gated in id order so two
   * commands touching the same pair of streams cannot deadlock.
   */
  async append(tx: EntityManager, appends: readonly StreamAppend[], metadata: EventMetadata = {}): Promise<AppendResult[]> {
    if (!tx.queryRunner?.isTransactionActive) throw new Error('EventStore.append needs a transaction');
    await tx.query(`SELECT pg_advisory_xact_lock_shared(${LOCKS.projections})`);
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
    const { streamId, streamType, expectedVersion, events } = append;
    const oneStatement = events.length > 0 && expectedVersion !== 'any' && events.every((e) => !e.eventId);
    const viaTransaction = () => this.transaction(async (tx) => (await this.append(tx, [append], metadata))[0]!);
    if (!oneStatement) return viaTransaction();
    const from = expectedVersion === 'no_stream' ? 0 : expectedVersion;
    const recordedAt = new Date();
    const data = events.map((e) => JSON.stringify(e.data ?? {}));
    const meta = JSON.stringify(metadata);
    const pending = events.map((e, i) =>
      pendingEvent({ eventId: randomUUID(), streamId, streamVersion: from + i + 1, type: e.type, schemaVersion: e.schemaVersion ?? 1, recordedAt }, data[i]!, meta),
    );
    const params: unknown[] = [
      streamId, streamType, from === 0 ? null : from, events.length,
      pending.map((e) => e.eventId), pending.map((e) => e.streamVersion), pending.map((e) => e.type), pending.map((e) => e.schemaVersion),
      data, meta, recordedAt.toISOString(),
    ];
    const planned = await this.projections.plan(pending, 'EXISTS (SELECT FROM ev)', (text, p) => this.dataSource.query(text, p));
    if (!planned) return viaTransaction();
    const writes = planned.statements.map((s, i) => {
      const offset = params.length;
      params.push(...s.params);
      // OpsWriter numbers its parameters from $1 and quotes every identifier, so `$n` is only ever a parameter.
      return `, w${i} AS (${s.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`;
    });
    const gate = from === 0
      ? `INSERT INTO streams (stream_id, stream_type, version) SELECT a.stream_id, a.stream_type, a.count FROM a WHERE a.locked ON CONFLICT (stream_id) DO NOTHING RETURNING version`
      : `UPDATE streams SET version = version + a.count, updated_at = now() FROM a WHERE a.locked AND streams.stream_id = a.stream_id AND streams.version = a.expected RETURNING streams.version`;
    const rows = await this.prepared.query<{ locked: boolean; position: string | null; transaction_id: string | null }>(
      // `a`: the append's scalars, typed once, and whether the projections lock was free. The
      // statement holds its tables from the start, so waiting for the lock here could deadlock with
      // a replay that holds it and wants a table for its swap; a taken lock writes nothing, and the
      // transaction path waits for it before touching any table.
      `WITH a AS (SELECT pg_try_advisory_xact_lock_shared(${LOCKS.projections}) AS locked, $1::text AS stream_id, $2::text AS stream_type, $3::int AS expected, $4::int AS count),
            gate AS (${gate}),
            ev AS (INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
                   SELECT e.id, $1::text, e.version, e.type, e.schema_version, e.data, $10::jsonb, $11::timestamptz
                     FROM unnest($5::uuid[], $6::int[], $7::text[], $8::int[], $9::jsonb[]) AS e(id, version, type, schema_version, data), gate
                   RETURNING position, transaction_id::text AS transaction_id, stream_version)
            ${writes.join('\n')}
       SELECT a.locked, ev.position, ev.transaction_id FROM a LEFT JOIN ev ON true ORDER BY ev.stream_version`,
      params,
    );
    if (!rows[0]!.locked) return viaTransaction();
    if (rows[0]!.position === null) throw new ConcurrencyError(streamId, String(expectedVersion));
    this.projections.announce(planned.ops);
    return {
      streamId,
      nextExpectedVersion: from + events.length,
      events: pending.map((e, i) => ({ ...e, position: Number(rows[i]!.position), transactionId: rows[i]!.transaction_id! })),
    };
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
      const [row] = await tx.query(`SELECT version FROM streams WHERE stream_id = $1`, [append.streamId]);
      return { streamId: append.streamId, nextExpectedVersion: row?.version ?? 0, events: [] };
    }
    const version = await this.moveStream(tx, append, events.length);
    const first = version - events.length + 1;
    const rows: EventRow[] = await tx.query(
      `INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
       SELECT e.id, $1, e.version, e.type, e.schema_version, e.data, $7::jsonb, $8::timestamptz
         FROM unnest($2::uuid[], $3::int[], $4::text[], $5::int[], $6::jsonb[])
              AS e(id, version, type, schema_version, data)
       RETURNING ${EVENT_COLUMNS}`,
      [
        append.streamId,
        events.map((e) => e.eventId ?? randomUUID()),
        events.map((_, i) => first + i),
        events.map((e) => e.type),
        events.map((e) => e.schemaVersion ?? 1),
        events.map((e) => JSON.stringify(e.data ?? {})),
        JSON.stringify(metadata),
        recordedAt.toISOString(),
      ],
    );
    return {
      streamId: append.streamId,
      nextExpectedVersion: version,
      events: rows.map((r) => toStoredEvent(r, this.upcasters)),
    };
  }

  /** The concurrency gate: the stream row moves only from the expected version. */
  private async moveStream(tx: EntityManager, append: StreamAppend, count: number): Promise<number> {
    const { streamId, streamType, expectedVersion } = append;
    let rows: { version: number }[];
    if (expectedVersion === 'any') {
      rows = await tx.query(
        `INSERT INTO streams (stream_id, stream_type, version) VALUES ($1, $2, $3)
         ON CONFLICT (stream_id) DO UPDATE SET version = streams.version + $3, updated_at = now()
         RETURNING version`,
        [streamId, streamType, count],
      );
    } else if (expectedVersion === 'no_stream' || expectedVersion === 0) {
      rows = await tx.query(
        `INSERT INTO streams (stream_id, stream_type, version) VALUES ($1, $2, $3)
         ON CONFLICT (stream_id) DO NOTHING RETURNING version`,
        [streamId, streamType, count],
      );
    } else {
      const result = await tx.query(
        `UPDATE streams SET version = version + $3, updated_at = now()
          WHERE stream_id = $1 AND version = $2 RETURNING version`,
        [streamId, expectedVersion, count],
      );
      rows = Array.isArray(result[0]) ? result[0] : result;
    }
    if (rows.length === 0) throw new ConcurrencyError(streamId, String(expectedVersion));
    return rows[0]!.version;
  }
}
