import { EVENT_COLUMNS } from './event-rows.js';
import type { PlannedStatement } from './inline-projections.js';
import { LOCKS } from './locks.js';

/**
 * The texts of the statements that append events, built once per shape (the same few shapes recur
 * on every write). Private to the event store: which one a write uses never changes what a
 * projection may do (docs/adr/0005-one-write-path.md).
 *
 * Parameters, every shape but the single-stream one:
 *   $1  the streams: a JSON array of {"id", "after"}; `after` is the version appended after, null
 *       for 'any' (read in the statement, so only where the stream's lock is already held)
 *   $2  the events: a JSON array of {"o", "id", "s", "n", "type", "schema_version", "data"}: order,
 *       event id, stream id, 1-based index within its stream, and the rest as stored
 *   $3  metadata (jsonb), $4 recorded_at (timestamptz)
 * The events and streams travel as JSON (their data is JSON already): pg builds array literals in
 * JavaScript, which costs more than the rest of the parameters together (bench/README.md).
 */
export class AppendStatements {
  private readonly texts = new Map<string, string>();

  /**
   * One stream, one statement, outside any transaction: the projections lock (tried), the gate,
   * the events and the projection writes as data-modifying CTEs. $1 stream, $2 version appended
   * after, $3 events [{"id", "n", "type", "schema_version", "data"}], $4 metadata, $5 recorded_at.
   * Rows: `locked`, then per event its `position` and `transaction_id` (none: a lost race).
   */
  oneStream(newStream: boolean, statements: readonly PlannedStatement[]): string {
    return this.cached(`1\0${newStream}\0${statements.map((s) => s.text).join('\0')}`, () => {
      // The gate is the events' unique (stream, version) key: a version already taken fails the
      // whole statement (a unique violation, turned into a ConcurrencyError), and appending after
      // version n needs event n to exist, so a version from the future writes nothing.
      const after = newStream
        ? ''
        : ` AND EXISTS (SELECT FROM events WHERE stream_id = $1::text AND stream_version = $2::int)`;
      return `WITH a AS (SELECT pg_try_advisory_xact_lock_shared(${LOCKS.projections}) AS locked),
            ev AS (INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
                   SELECT e.id, $1::text, $2::int + e.n::int, e.type, e.schema_version, e.data, $4::jsonb, $5::timestamptz
                     FROM a, jsonb_to_recordset($3::jsonb) AS e(id uuid, n int, type text, schema_version int, data jsonb)
                    WHERE a.locked${after}
                   RETURNING position, transaction_id::text AS transaction_id, stream_version)
            ${writes(statements, 5)}
       SELECT a.locked, ev.position, ev.transaction_id FROM a LEFT JOIN ev ON true ORDER BY ev.stream_version`;
    });
  }

  /**
   * Several streams, one statement, outside any transaction: as `oneStream`, for every stream at
   * once. Rows: `locked`, `stale` (a stream whose version to append after does not exist: nothing
   * was written), then per event its `event_id`, `position` and `transaction_id`.
   */
  manyStreams(statements: readonly PlannedStatement[]): string {
    return this.cached(
      `n\0${statements.map((s) => s.text).join('\0')}`,
      () =>
        `WITH a AS (SELECT pg_try_advisory_xact_lock_shared(${LOCKS.projections}) AS locked),
            ${insert({ guard: 'a', returning: 'event_id, position, transaction_id::text AS transaction_id' })}
            ${writes(statements, 4)}
       SELECT a.locked, g.stale, ev.event_id, ev.position, ev.transaction_id FROM a CROSS JOIN g LEFT JOIN ev ON true`,
    );
  }

  /**
   * Every stream of an append inside the caller's transaction (which holds the projections lock and
   * the 'any' streams' locks already): one insert for all of them. Rows: `stale`, then the events
   * as stored (EVENT_COLUMNS).
   */
  inTransaction(): string {
    return this.cached(
      'tx',
      () => `WITH ${insert({ returning: EVENT_COLUMNS })} SELECT g.stale, ev.* FROM g LEFT JOIN ev ON true`,
    );
  }

  /**
   * `inTransaction` for one stream, in the simpler shape it had before (sent unnamed, so planned on
   * every call: the general shape's CTEs took Postgres about 0.7 ms more to plan). $1 stream,
   * $2 events [{"id", "n", "type", "schema_version", "data"}], $3 metadata, $4 recorded_at, and
   * $5 the version appended after unless `follows` is 'new' (0) or 'any' (read here). Rows: the
   * events as stored (EVENT_COLUMNS); none: the version to append after does not exist.
   */
  inTransactionOne(follows: 'new' | 'any' | 'version'): string {
    return this.cached(`tx1\0${follows}`, () => {
      const base =
        follows === 'new'
          ? '0'
          : follows === 'any'
            ? '(SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = $1::text)'
            : '$5::int';
      return `INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
              SELECT e.id, $1::text, ${base} + e.n, e.type, e.schema_version, e.data, $3::jsonb, $4::timestamptz
                FROM jsonb_to_recordset($2::jsonb) AS e(id uuid, n int, type text, schema_version int, data jsonb)
               ${follows === 'version' ? 'WHERE EXISTS (SELECT FROM events WHERE stream_id = $1::text AND stream_version = $5::int)' : ''}
              RETURNING ${EVENT_COLUMNS}`;
    });
  }

  private cached(shape: string, build: () => string): string {
    let text = this.texts.get(shape);
    if (text === undefined) this.texts.set(shape, (text = build()));
    return text;
  }
}

/**
 * The CTEs `s` (each stream and the version its events follow), `g` (the gate's missing
 * predecessor, if any) and `ev` (the insert). Appending after version n ≠ 0 needs event n to exist,
 * so a version from the future (or a negative one) writes nothing and names the stream in `g.stale`;
 * a version another writer took first fails the whole statement on the unique (stream, version)
 * key (docs/adr/0004). 'any' (`after` null) follows the stream's latest version, read by this
 * statement, whose snapshot is newer than the stream lock its transaction took before it. The
 * events are inserted in the order given (streams in id order), so two writers of the same pair of
 * streams meet on the first and cannot deadlock.
 */
function insert({ guard, returning }: { guard?: string; returning: string }): string {
  return `s AS (SELECT s.id, s.after,
                       coalesce(s.after, (SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = s.id)) AS base
                  FROM jsonb_to_recordset($1::jsonb) AS s(id text, after int)),
            g AS (SELECT min(s.id) AS stale FROM s
                   WHERE s.after <> 0 AND NOT EXISTS (SELECT FROM events WHERE stream_id = s.id AND stream_version = s.after)),
            ev AS (INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
                   SELECT e.id, e.s, s.base + e.n, e.type, e.schema_version, e.data, $3::jsonb, $4::timestamptz
                     FROM ${guard ? `${guard}, ` : ''}g,
                          jsonb_to_recordset($2::jsonb)
                            AS e(o int, id uuid, s text, n int, type text, schema_version int, data jsonb)
                          JOIN s ON s.id = e.s
                    WHERE ${guard ? `${guard}.locked AND ` : ''}g.stale IS NULL
                    ORDER BY e.o
                   RETURNING ${returning})`;
}

/** The projections' planned statements as CTEs, their parameters numbered after the append's first `offset`. */
function writes(statements: readonly PlannedStatement[], offset: number): string {
  return statements
    .map((s, i) => {
      const at = offset;
      offset += s.params.length;
      // OpsWriter numbers its parameters from $1; projection tables and columns are plain names, so
      // `$n` is only ever a parameter (a `$` in a name would fail loudly, not silently).
      return `, w${i} AS (${s.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + at}`)})`;
    })
    .join('\n');
}
