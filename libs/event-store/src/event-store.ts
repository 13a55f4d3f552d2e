import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
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
import { EventUpcasters } from './upcasters.js';

@Injectable()
export class EventStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly upcasters: EventUpcasters,
    private readonly projections: InlineProjections,
  ) {}

  /** Runs `work` in one transaction: everything it appends and projects commits or rolls back together. */
  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
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
    const results: AppendResult[] = [];
    for (const append of [...appends].sort((a, b) => a.streamId.localeCompare(b.streamId))) {
      const fresh = append.events.filter((e) => !e.eventId || !stored.has(e.eventId));
      results.push(await this.appendToStream(tx, append, fresh, metadata));
    }
    const events = results.flatMap((r) => r.events).sort((a, b) => a.position - b.position);
    await this.projections.apply(tx, events);
    return appends.map((a) => results.find((r) => r.streamId === a.streamId)!);
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
  ): Promise<AppendResult> {
    if (events.length === 0) {
      // Every event was stored before: an idempotent retry, not a race.
      const [row] = await tx.query(`SELECT version FROM streams WHERE stream_id = $1`, [append.streamId]);
      return { streamId: append.streamId, nextExpectedVersion: row?.version ?? 0, events: [] };
    }
    const version = await this.moveStream(tx, append, events.length);
    const first = version - events.length + 1;
    const rows: EventRow[] = await tx.query(
      `INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata)
       SELECT e.id, $1, e.version, e.type, e.schema_version, e.data, $7::jsonb
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
