import type { Gates, WriteQuery } from './event.types.js';
import { LOCKS } from './locks.js';

/** A write's gates, each once and sorted, so every writer locks them in one order. */
export interface SortedGates {
  readonly advance: readonly string[];
  readonly hold: readonly string[];
}

export function sortedGates(gates: Gates | undefined): SortedGates {
  const advance = [...new Set(gates?.advance ?? [])].sort();
  const hold = [...new Set(gates?.hold ?? [])].filter((g) => !advance.includes(g)).sort();
  return { advance, hold };
}

/**
 * The first statement of a locked write (docs/adr/0011-declarative-writes.md): the projections lock
 * shared (a replay's swap waits for the write), each `advance` gate's row locked exclusively (and its
 * version moved on, a count of the writes it passed) and each `hold` gate's row shared. The locks
 * last until the write commits, so writers that share a gate queue behind each other instead of
 * losing a race. A held gate that has no row yet gets one first (once per gate, ever).
 */
export async function lockGates(query: WriteQuery['query'], gates: SortedGates): Promise<void> {
  const [row] = await query<{ held: number }>(LOCK_GATES, [gates.advance, gates.hold]);
  if (row!.held < gates.hold.length) {
    await query(CREATE_GATES, [gates.hold]);
    await query(HOLD_GATES, [gates.hold]);
  }
}

const LOCK_GATES = `WITH advanced AS (
    INSERT INTO stream_gates AS g (id, version) SELECT id, 1 FROM unnest($1::text[]) AS t(id) ORDER BY id
    ON CONFLICT (id) DO UPDATE SET version = g.version + 1 RETURNING g.id),
  held AS (SELECT id FROM stream_gates WHERE id = ANY($2::text[]) ORDER BY id FOR SHARE)
  SELECT pg_advisory_xact_lock_shared(${LOCKS.projections})::text AS locked,
    (SELECT count(*) FROM advanced)::int AS advanced, (SELECT count(*) FROM held)::int AS held`;
const CREATE_GATES = `INSERT INTO stream_gates (id, version) SELECT id, 0 FROM unnest($1::text[]) AS t(id) ORDER BY id ON CONFLICT (id) DO NOTHING`;
const HOLD_GATES = `SELECT id FROM stream_gates WHERE id = ANY($1::text[]) ORDER BY id FOR SHARE`;
