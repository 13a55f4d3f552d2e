import { Injectable } from '@nestjs/common';
import { EventStore, type WriteQuery } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { type Tenant, tenantScope, tenantSql } from '#app/platform';
import type { MisfitRows } from './misfits.js';
import { movesCalendars, type RotaChange, rotaChangeWrite, rotaEditWrite } from './rota-change.write.js';

/** Writes a rota change (rota-change.write.ts): planned with its cancellations when it can move calendars. */
@Injectable()
export class RotaChanges {
  constructor(private readonly store: EventStore) {}

  async write(caller: Caller, change: RotaChange): Promise<void> {
    const metadata = metadataOf(caller);
    if (!movesCalendars(change)) await this.store.write({ ...rotaEditWrite(change), metadata });
    else
      await this.store.write({
        ...rotaChangeWrite(change, (db, rotaIds, now) => misfitRows(db, caller, rotaIds, now)),
        metadata,
      });
  }
}

/** One statement: the rotas' booked shifts that have not started, and their series that have not ended. */
async function misfitRows(
  db: WriteQuery,
  tenant: Tenant,
  rotaIds: readonly number[],
  now: number,
): Promise<MisfitRows> {
  const q = tenantSql(tenant)`SELECT
      (SELECT coalesce(json_agg(s), '[]') FROM (
        SELECT s.id, s.rota_id AS "rotaId", s.date::text AS date,
          floor(extract(epoch FROM s.starts_at) * 1000)::bigint AS start, floor(extract(epoch FROM s.ends_at) * 1000)::bigint AS "end"
        FROM rota_shifts s WHERE ${tenantScope('s')} AND s.status = 'booked' AND s.rota_id = ANY(${rotaIds}::bigint[])
          AND s.starts_at > ${new Date(now).toISOString()}::timestamptz) s) AS shifts,
      (SELECT coalesce(json_agg(r), '[]') FROM (
        SELECT r.id, r.rota_id AS "rotaId", r.end_date::text AS "endDate" FROM rota_repeating_shifts r
        WHERE ${tenantScope('r')} AND r.rota_id = ANY(${rotaIds}::bigint[]) AND r.ended_reason IS NULL) r) AS series`;
  // Ids and instants (bigint) come back as JSON numbers.
  const [row] = await db.query<MisfitRows>(q.text, q.values);
  return row!;
}
