import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ForbiddenError, NotFoundError, type Tenant, tenantScope, tenantSql } from '#app/platform';
import { SERIES_WEEKDAYS, type SeriesWeekday } from '../domain/series-dates.js';
import type { CallerReach } from '../rotas.policy.js';

/** A series as the commands that change it read it. */
export interface SeriesRow {
  id: number;
  userId: number;
  rotaId: number;
  teamId: number;
  frequency: number;
  weekdays: SeriesWeekday[];
  startDate: string;
  endDate: string | null;
}

/** The Repeating shift object of the day view (docs/rota-domain.md#record-shapes): times as `YYYY-MM-DD HH:MM:SS`. */
export type RepeatingShiftObject = {
  id: number;
  user_id: number;
  rota_id: number;
  hierarchy_id: number;
  period: 'week';
  frequency: number;
  start_date: string;
  end_date: string | null;
} & Record<SeriesWeekday, 0 | 1>;

/** `GET /api/rota/repeating-shifts/{id}` (an addition): the object, and how far generation went. */
export type RepeatingShiftView = RepeatingShiftObject & {
  generated_until: string;
  skipped: { date: string; reason: string }[];
};

/** The columns of rota_repeating_shifts the views read (part 3's day view can build the object from the same row). */
export type RepeatingShiftRow = {
  id: string;
  user_id: string;
  rota_id: string;
  team_id: string;
  frequency: number;
  weekdays: SeriesWeekday[];
  start_date: string;
  end_date: string | null;
  start_time: string;
  generated_until: string;
};

const rowOf = (r: RepeatingShiftRow): SeriesRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  rotaId: Number(r.rota_id),
  teamId: Number(r.team_id),
  frequency: r.frequency,
  weekdays: r.weekdays,
  startDate: r.start_date,
  endDate: r.end_date,
});

/**
 * The Repeating shift object (docs/rota-domain.md#record-shapes) of a series row: `start_date` is the first
 * shift's local start; `end_date` the end of the series' last day (inclusive), `23:59:59`, or null when
 * open-ended. The weekdays stored hold the first shift's when none was chosen, so that one reads 1.
 */
export const repeatingShiftObjectOf = (r: RepeatingShiftRow): RepeatingShiftObject =>
  ({
    id: Number(r.id),
    user_id: Number(r.user_id),
    rota_id: Number(r.rota_id),
    hierarchy_id: Number(r.team_id),
    period: 'week',
    frequency: r.frequency,
    start_date: `${r.start_date} ${r.start_time}:00`,
    end_date: r.end_date === null ? null : `${r.end_date} 23:59:59`,
    ...Object.fromEntries(SERIES_WEEKDAYS.map((d) => [d, r.weekdays.includes(d) ? 1 : 0])),
  }) as RepeatingShiftObject;

/** Reads of repeating shifts (series), tenant-scoped: another organisation's or an unknown id is a 404, one on a rota the caller does not see a 403. */
@Injectable()
export class RepeatingShiftQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** A series of the organisation, cancelled and ended ones included, or null. */
  async row(tenant: Tenant, id: number): Promise<SeriesRow | null> {
    const row = await this.read(tenant, id);
    return row ? rowOf(row) : null;
  }

  /** A series whose rota the caller sees (404 / 403 as above). */
  async seen(tenant: Tenant, reach: CallerReach, id: number): Promise<SeriesRow> {
    return this.check(reach, await this.row(tenant, id));
  }

  async view(tenant: Tenant, reach: CallerReach, id: number): Promise<RepeatingShiftView> {
    const row = await this.read(tenant, id);
    this.check(reach, row && rowOf(row));
    const q = tenantSql(
      tenant,
    )`SELECT date::text AS date, reason FROM rota_series_skips WHERE ${tenantScope()} AND series_id = ${id} ORDER BY date`;
    const skipped: { date: string; reason: string }[] = await this.dataSource.query(q.text, q.values);
    return {
      ...repeatingShiftObjectOf(row!),
      generated_until: row!.generated_until,
      skipped: skipped.map(({ date, reason }) => ({ date, reason })),
    };
  }

  /** The series' row as its object is built from (`repeatingShiftObjectOf`), or null: for RotaRecords. */
  rowForView(tenant: Tenant, id: number): Promise<RepeatingShiftRow | null> {
    return this.read(tenant, id);
  }

  private check(reach: CallerReach, row: SeriesRow | null): SeriesRow {
    if (!row) throw new NotFoundError('Repeating shift');
    if (!reach.seen.has(row.teamId)) throw new ForbiddenError('You cannot see this repeating shift’s rota.');
    return row;
  }

  private async read(tenant: Tenant, id: number): Promise<RepeatingShiftRow | null> {
    const q = tenantSql(
      tenant,
    )`SELECT id, user_id, rota_id, team_id, frequency, weekdays, start_date::text AS start_date, end_date::text AS end_date, start_time,
        generated_until::text AS generated_until
       FROM rota_repeating_shifts WHERE ${tenantScope()} AND id = ${id}`;
    const [row]: RepeatingShiftRow[] = await this.dataSource.query(q.text, q.values);
    return row ?? null;
  }
}
