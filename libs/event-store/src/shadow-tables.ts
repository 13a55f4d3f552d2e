import type { QueryRunner } from 'typeorm';
import { CHANGES_CHANNEL } from '#app/platform';

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const shadowOf = (table: string) => `${table}__rebuild`;

/** An empty copy of `table` (columns, defaults, constraints, indexes) that replay fills. */
export async function createShadow(q: QueryRunner, table: string): Promise<void> {
  await q.query(`DROP TABLE IF EXISTS ${quote(shadowOf(table))}`);
  await q.query(`CREATE TABLE ${quote(shadowOf(table))} (LIKE ${quote(table)} INCLUDING ALL)`);
}

/**
 * Puts the shadow in the table's place inside the caller's transaction. The indexes and
 * constraints take back their original names, so later migrations can still name them; the
 * table's triggers (LIKE does not copy them: the shadow fills without firing them) move over,
 * and every process's caches of the table hear that all of it changed when this commits.
 */
export async function swapShadow(q: QueryRunner, table: string): Promise<void> {
  const old = `${table}__old`;
  const originalNames = await indexNames(q, table);
  // Read while the name is the original's: each definition then names the table as it will be after the swap.
  const triggers: { def: string }[] = await q.query(
    `SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal ORDER BY tgname`,
    [quote(table)],
  );
  await q.query(`ALTER TABLE ${quote(table)} RENAME TO ${quote(old)}`);
  await q.query(`ALTER TABLE ${quote(shadowOf(table))} RENAME TO ${quote(table)}`);
  const rebuiltNames = await indexNames(q, table);
  await q.query(`DROP TABLE ${quote(old)}`);
  for (const [shape, name] of rebuiltNames) {
    const original = originalNames.get(shape);
    if (original && original !== name) await q.query(`ALTER INDEX ${quote(name)} RENAME TO ${quote(original)}`);
  }
  for (const { def } of triggers) await q.query(def);
  await q.query(`SELECT pg_notify('${CHANGES_CHANNEL}', $1)`, [`${table}:*`]);
}

/** Index definition with its own name and table name taken out → index name. */
async function indexNames(q: QueryRunner, table: string): Promise<Map<string, string>> {
  const rows: { name: string; def: string }[] = await q.query(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = $1::regclass ORDER BY c.relname`,
    [quote(table)],
  );
  return new Map(rows.map((r) => [r.def.replace(/INDEX \S+ ON \S+/, 'INDEX ON'), r.name]));
}
