import { Injectable, Optional } from '@nestjs/common';
import { type EventRow, toStoredEvent } from './event-rows.js';
import type { LogCursor, StoredEvent } from './event.types.js';
import { PersonalDataKeys } from './personal-data/personal-data-keys.js';
import { EventUpcasters } from './upcasters.js';

/** A connection to read with: a pooled one, or a reactor's own session. */
export type WalkQuery = { query(text: string, params?: unknown[]): Promise<unknown[]> };

/**
 * A reactor's walk of the log: after its checkpoint (read in the same statement), the next `limit`
 * events of its types in (transaction_id, position) order, below the oldest transaction still
 * running (gap safety, docs/adr/0002). Each type is walked one index entry at a time, a recursive
 * step of `ORDER BY … LIMIT 1` on events_type_tx_position: a step's plan is an ordered index probe
 * whatever the statistics say. The lateral `ORDER BY … LIMIT n` it replaces was planned, on a log
 * without statistics (autovacuum off, or a young table), as a bitmap scan and a sort of every event
 * of the type after the cursor (bench/HISTORY.md, 2026-11-28 and 2026-11-29). A type stops at its
 * `limit`-th event, so a reactor far behind reads at most `limit` entries a type.
 */
const WALK = `WITH RECURSIVE
  c AS (SELECT coalesce((SELECT transaction_id FROM checkpoints WHERE name = $1), '0'::xid8) AS tx,
               coalesce((SELECT position FROM checkpoints WHERE name = $1), 0) AS pos,
               pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
  walk AS (
    SELECT wanted.type, f.transaction_id, f.position, 1 AS n
      FROM c CROSS JOIN unnest($2::text[]) AS wanted(type)
      CROSS JOIN LATERAL (SELECT transaction_id, position FROM events
         WHERE events.type = wanted.type AND (transaction_id, position) > (c.tx, c.pos) AND transaction_id < c.xmin
         ORDER BY transaction_id, position LIMIT 1) f
    UNION ALL
    SELECT w.type, nx.transaction_id, nx.position, w.n + 1 FROM walk w CROSS JOIN c
      CROSS JOIN LATERAL (SELECT transaction_id, position FROM events
         WHERE events.type = w.type AND (transaction_id, position) > (w.transaction_id, w.position)
           AND transaction_id < c.xmin
         ORDER BY transaction_id, position LIMIT 1) nx
     WHERE w.n < $3
  )
SELECT e.position, e.transaction_id::text AS transaction_id, e.event_id, e.stream_id, e.stream_version, e.type,
       e.schema_version, e.data, e.metadata, e.recorded_at, c.tx::text AS cursor_tx, c.pos AS cursor_pos
  FROM (SELECT transaction_id, position FROM walk ORDER BY transaction_id, position LIMIT $3) k
  JOIN events e ON e.position = k.position
  CROSS JOIN c
 ORDER BY k.transaction_id, k.position`;

/** An event row (event-rows.ts's columns) with the checkpoint it was read after. */
type WalkRow = EventRow & { cursor_tx: string; cursor_pos: string };

@Injectable()
export class LogWalk {
  constructor(
    private readonly upcasters: EventUpcasters,
    // Absent only where a test builds it by hand: nothing is sealed then.
    @Optional() private readonly personal?: PersonalDataKeys,
  ) {}

  /**
   * The next `limit` events of `types` after the checkpoint `name` (the log's start without one),
   * upcast and opened, with the cursor they follow; no events: `cursor` is null. One statement.
   */
  async after(
    db: WalkQuery,
    name: string,
    types: readonly string[],
    limit: number,
  ): Promise<{ cursor: LogCursor | null; events: StoredEvent[] }> {
    const rows = (await db.query(WALK, [name, [...new Set(types)], limit])) as WalkRow[];
    if (rows.length === 0) return { cursor: null, events: [] };
    const cursor = { transactionId: rows[0]!.cursor_tx, position: Number(rows[0]!.cursor_pos) };
    if (this.personal) await this.personal.open(rows, (text, params) => db.query(text, params));
    return { cursor, events: rows.map((r) => toStoredEvent(r, this.upcasters)) };
  }
}
