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

/** Neighbouring gates of the one lock order that are locked alike: one CTE each. */
interface Run {
  readonly advance: boolean;
  readonly ids: string[];
}

/** All of a write's gates in one order (`sort`'s), cut into runs of one lock mode. */
function runsOf(gates: SortedGates): Run[] {
  const all = [
    ...gates.advance.map((id) => ({ id, advance: true })),
    ...gates.hold.map((id) => ({ id, advance: false })),
  ];
  all.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const runs: Run[] = [];
  for (const { id, advance } of all) {
    const last = runs[runs.length - 1];
    if (last?.advance === advance) last.ids.push(id);
    else runs.push({ advance, ids: [id] });
  }
  return runs;
}

/**
 * The first statement of a locked write (docs/adr/0011-declarative-writes.md): the projections lock
 * shared (a replay's swap waits for the write), each `advance` gate's row locked exclusively (and its
 * version moved on, a count of the writes it passed) and each `hold` gate's row shared. The locks
 * last until the write commits, so writers that share a gate queue behind each other instead of
 * losing a race. Every writer locks the gates in one order whatever their modes (advancing x and
 * holding y against advancing y and holding x would otherwise deadlock). A held gate that has no row
 * yet gets one first (once per gate, ever).
 */
export async function lockGates(query: WriteQuery['query'], gates: SortedGates): Promise<void> {
  const runs = runsOf(gates);
  const [row] = await query<Record<string, number>>(
    lockStatement(runs),
    runs.map((r) => r.ids),
  );
  const held = runs.reduce((n, r, i) => n + (r.advance ? 0 : row![`n${i}`]!), 0);
  if (held < gates.hold.length) {
    await query(CREATE_GATES, [gates.hold]);
    await query(HOLD_GATES, [gates.hold]);
  }
}

/**
 * One CTE per run, each waiting for the one before to have locked all its rows (its count), so the
 * locks are taken in the runs' order; inside a run, in the order of its array (`ORDINALITY`, not a
 * collation). FOR SHARE inside a CTE locks the rows the CTE returns, and the count reads them all.
 */
function lockStatement(runs: readonly Run[]): string {
  const ctes = [`l AS (SELECT pg_advisory_xact_lock_shared(${LOCKS.projections})::text AS locked)`];
  runs.forEach((run, i) => {
    const after = `(SELECT count(*) FROM ${i === 0 ? 'l' : `g${i - 1}`}) >= 0`;
    const ids = `unnest($${i + 1}::text[]) WITH ORDINALITY AS t(id, n)`;
    ctes.push(
      run.advance
        ? `g${i} AS (INSERT INTO stream_gates AS g (id, version) SELECT t.id, 1 FROM ${ids} WHERE ${after} ORDER BY t.n
    ON CONFLICT (id) DO UPDATE SET version = g.version + 1 RETURNING g.id)`
        : `g${i} AS (SELECT g.id FROM ${ids} JOIN stream_gates g ON g.id = t.id WHERE ${after} ORDER BY t.n FOR SHARE OF g)`,
    );
  });
  const counts = runs.map((_, i) => `(SELECT count(*) FROM g${i})::int AS n${i}`);
  return `WITH ${ctes.join(',\n  ')}\n  SELECT ${[`(SELECT count(*) FROM ${runs.length > 0 ? `g${runs.length - 1}` : 'l'})::int AS done`, ...counts].join(', ')}`;
}

const CREATE_GATES = `INSERT INTO stream_gates (id, version) SELECT t.id, 0 FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n) ORDER BY t.n ON CONFLICT (id) DO NOTHING`;
const HOLD_GATES = `SELECT g.id FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n) JOIN stream_gates g ON g.id = t.id ORDER BY t.n FOR SHARE OF g`;
