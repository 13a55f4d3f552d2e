import type { EntityManager } from 'typeorm';

/** Ids come from a sequence before the event is written, so replay reproduces them. */
export async function nextId(tx: EntityManager, kind: 'type' | 'rate' | 'expense' | 'claim'): Promise<number> {
  const [row] = await tx.query(`SELECT nextval('expenses_${kind}_ids') AS id`);
  return Number(row.id);
}
