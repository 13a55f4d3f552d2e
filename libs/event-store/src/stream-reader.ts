import type { DataSource, EntityManager } from 'typeorm';
import { groupBy, type PreparedStatements } from '#app/platform';
import { EVENT_COLUMNS, type EventRow, toStoredEvent } from './event-rows.js';
import type { Evolve, LogCursor, StoredEvent, StreamRead } from './event.types.js';
import type { KeyQuery, PersonalDataKeys } from './personal-data/personal-data-keys.js';
import type { EventUpcasters } from './upcasters.js';

/** What readFolded gives for one stream: its state and the version to append at. */
export interface Folded {
  readonly state: unknown;
  readonly version: number;
}

/** The store's reads of the log, sealed personal fields opened (docs/privacy.md, "Sealed fields in the log"). */
export class StreamReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly upcasters: EventUpcasters,
    private readonly prepared: PreparedStatements,
    private readonly personal?: PersonalDataKeys,
  ) {}

  /** `rows` with their sealed personal fields opened. */
  opened<R extends EventRow>(rows: R[], query: KeyQuery = this.keyQuery): Promise<R[]> | R[] {
    return this.personal ? this.personal.open(rows, query) : rows;
  }

  private readonly keyQuery: KeyQuery = (text, params) => this.dataSource.query(text, params);

  /** The named query a single-stream read runs (outside a transaction: prepared once per connection). */
  readonly query = (text: string, params: unknown[]): Promise<EventRow[]> =>
    this.prepared.query<EventRow>(text, params);

  /**
   * Each stream's state and the version to append at, read in one query (a single stream by the
   * named READ_STREAM) and folded with its `evolve`; a stream with `expect` is not read (null, 0).
   */
  async readFolded(
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

  /** One stream read (by the named READ_STREAM) and folded: the first query of every `handle`. */
  async foldOne<S, E>(streamId: string, evolve: Evolve<S, E>): Promise<{ state: S | null; version: number }> {
    return this.fold(evolve, await this.opened(await this.query(READ_STREAM, [streamId])));
  }

  /** A stream's rows folded with `evolve`, and the version to append at. */
  fold<S, E>(evolve: Evolve<S, E>, rows: readonly EventRow[]): { state: S | null; version: number } {
    let state: S | null = null;
    for (const row of rows) state = evolve(state, toStoredEvent(row, this.upcasters) as unknown as E);
    return { state, version: rows.length > 0 ? rows[rows.length - 1]!.stream_version : 0 };
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
    await this.opened(rows);
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
}

/** A stream's events in order (named: the first query of every `handle`). */
const READ_STREAM = `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_version`;
/** Several streams' events, each stream's in order. */
const READ_STREAMS = `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, stream_version`;
