import type { WriteQuery } from '#app/event-store';
import { type Tenant, tenantScope, tenantSql } from '#app/platform';

/** What a swap write learns from its locks: the row's expiry and whether each rota (by id) is self-managed. */
export interface SwapLocks {
  readonly recordedExpired: boolean;
  readonly selfManage: ReadonlyMap<number, boolean>;
}

/**
 * The locks a swap write takes first in its facts (docs/rota-domain.md#swaps, "one winner"): the
 * swap's row (FOR UPDATE: a hold's expiry of it waits), the two shifts' rows and their rotas' rows
 * (FOR SHARE: a cancel, move, hand-over or rota change of them waits for this write, or this write
 * waits for it and reads what it wrote). `appendsToShifts`: the accept, whose appends to the
 * shifts' streams already order it against any change of them; it leaves their rows unlocked, since
 * a change's one statement appends before it updates its row and the two would deadlock.
 */
export async function lockSwap(
  db: WriteQuery,
  tenant: Tenant,
  swapId: number | null,
  shiftIds: readonly number[],
  appendsToShifts = false,
): Promise<SwapLocks> {
  let recordedExpired = false;
  if (swapId !== null) {
    const q = tenantSql(
      tenant,
    )`SELECT status FROM rota_shift_swaps WHERE ${tenantScope()} AND id = ${swapId} FOR UPDATE`;
    const [row] = await db.query<{ status: string }>(q.text, q.values);
    recordedExpired = row?.status === 'expired';
  }
  const shifts = tenantSql(tenant)`SELECT id FROM rota_shifts WHERE ${tenantScope()}
    AND id = ANY(${[...shiftIds]}::bigint[]) ORDER BY id FOR SHARE`;
  if (!appendsToShifts) await db.query(shifts.text, shifts.values);
  const rotas = tenantSql(tenant)`SELECT r.id, r.self_manage FROM rotas r WHERE ${tenantScope('r')}
    AND r.id IN (SELECT s.rota_id FROM rota_shifts s WHERE ${tenantScope('s')} AND s.id = ANY(${[...shiftIds]}::bigint[]))
    ORDER BY r.id FOR SHARE OF r`;
  const rows = await db.query<{ id: string; self_manage: boolean }>(rotas.text, rotas.values);
  return { recordedExpired, selfManage: new Map(rows.map((r) => [Number(r.id), r.self_manage])) };
}
