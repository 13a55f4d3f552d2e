import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Tenant, tenantScope, tenantSql } from '#app/platform';

/**
 * System reads of series (rota_repeating_shifts): what the daily extension works through, and the
 * "generation pending" flag the views' data_ready needs (docs/rota-domain.md#data-readiness).
 */
@Injectable()
export class SeriesQueries {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The organisations that have a series not yet booked to its end: open-ended (end_date null:
   * neither given an end nor ended), or ending after its `until` (an end more than six months
   * ahead; an ended series has `until` brought down to its end). The extension's one read across
   * organisations; every other read is for one organisation.
   */
  async organisationsWithOpenSeries(): Promise<number[]> {
    const rows: { organisation_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT organisation_id FROM rota_repeating_shifts WHERE end_date IS NULL OR until < end_date ORDER BY organisation_id`,
    );
    return rows.map((r) => Number(r.organisation_id));
  }

  /**
   * The series of the organisation not booked to their end (as above) whose `until` is before
   * `horizon` (the horizon as of the organisation's today: six months on), by id. A series' own horizon is never earlier than
   * that once it started (its `until` starts at or after six months from its first date), so this is
   * exactly the set the extension moves on; decideExtension checks each again on its stream.
   */
  async toExtend(tenant: Tenant, horizon: string): Promise<number[]> {
    const q = tenantSql(tenant)`SELECT id FROM rota_repeating_shifts s
      WHERE ${tenantScope('s')} AND (s.end_date IS NULL OR s.until < s.end_date) AND s.until < ${horizon}::date ORDER BY s.id`;
    const rows: { id: string }[] = await this.dataSource.query(q.text, q.values);
    return rows.map((r) => Number(r.id));
  }

  /**
   * Of `rotaIds`, the rotas with a series whose generation is pending (generated_until < until;
   * the projection caps until at the series' end): views of them answer data_ready false. One read
   * on the partial index rota_repeating_shifts_pending, whatever the number of series.
   */
  async pendingRotas(tenant: Tenant, rotaIds: readonly number[]): Promise<Set<number>> {
    if (rotaIds.length === 0) return new Set();
    const q = tenantSql(tenant)`SELECT DISTINCT s.rota_id FROM rota_repeating_shifts s
      WHERE ${tenantScope('s')} AND s.rota_id = ANY(${[...new Set(rotaIds)]}::bigint[]) AND s.generated_until < s.until`;
    const rows: { rota_id: string }[] = await this.dataSource.query(q.text, q.values);
    return new Set(rows.map((r) => Number(r.rota_id)));
  }
}
