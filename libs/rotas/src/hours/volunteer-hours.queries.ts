import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Caller, Teams, UserBases } from '#app/identity';
import { type Sql, sql, type Tenant, tenantScope, tenantSql } from '#app/platform';
import { byText } from '../domain/by-text.js';

export type HoursGrouping = 'user' | 'team' | 'rota';

/** What the report counts: shifts of these teams (already the caller's managed ones) in [from, to], started by `now`. */
export interface HoursRequest {
  readonly from: string;
  readonly to: string;
  readonly now: Date;
  readonly teams: readonly number[];
  readonly rotas?: readonly number[];
  readonly users?: readonly number[];
  readonly groupBy: HoursGrouping;
}

/** One row of the report (docs/rota-domain.md#volunteer-hours); a type, so the CSV writer takes it as a record. */
export type HoursRow = {
  id: number;
  name: string;
  shifts: number;
  attended: number;
  no_show: number;
  unrecorded: number;
  booked_minutes: number;
  attended_minutes: number;
};

/** The grouping key's column: a fixed map, never input. */
const KEY: Record<HoursGrouping, Sql> = {
  user: sql.raw('h.user_id'),
  team: sql.raw('h.team_id'),
  rota: sql.raw('h.rota_id'),
};

type Figures = Omit<HoursRow, 'name'>;
type FiguresRow = Record<keyof Figures, string | number>;

/**
 * The volunteer hours report over its read model, rota_volunteer_hours (one row per booked shift):
 * one aggregate statement (GROUP BY the key, counts by attendance, sums of minutes) on the
 * (organisation_id, date, starts_at) index, then the groups' names in one batched read. Groups with
 * no counted shift have no row, so they are left out without a test.
 */
@Injectable()
export class VolunteerHoursQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserBases,
    private readonly teams: Teams,
  ) {}

  async report(caller: Caller, request: HoursRequest): Promise<HoursRow[]> {
    if (request.teams.length === 0) return [];
    const figures = await this.figures(caller, request);
    const names = await this.names(
      caller,
      request.groupBy,
      figures.map((f) => f.id),
    );
    return figures
      .map(({ id, ...figures }) => ({ id, name: names.get(id) ?? '', ...figures }))
      .sort((a, b) => byText(a.name, b.name) || a.id - b.id);
  }

  private async figures(tenant: Tenant, request: HoursRequest): Promise<Figures[]> {
    const q = hoursStatement(tenant, request);
    const rows: FiguresRow[] = await this.dataSource.query(q.text, q.values);
    return rows.map((r) => ({
      id: Number(r.id),
      shifts: Number(r.shifts),
      attended: Number(r.attended),
      no_show: Number(r.no_show),
      unrecorded: Number(r.unrecorded),
      booked_minutes: Number(r.booked_minutes),
      attended_minutes: Number(r.attended_minutes),
    }));
  }

  /** Display names (identity's), team names (identity's Teams) or rota names, for all the groups at once. */
  private async names(caller: Caller, groupBy: HoursGrouping, ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    if (groupBy === 'user') return this.users.displayNames(caller, ids);
    if (groupBy === 'team') {
      const teams = await this.teams.objects(caller, ids);
      return new Map([...teams].map(([id, team]) => [id, team.name]));
    }
    const q = tenantSql(
      caller,
    )`SELECT r.id, r.name FROM rotas r WHERE ${tenantScope('r')} AND r.id = ANY(${ids}::bigint[])`;
    const rows: { id: string; name: string }[] = await this.dataSource.query(q.text, q.values);
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  }
}

/** The report's one statement (the bench times it as it is). */
export function hoursStatement(tenant: Tenant, request: HoursRequest) {
  const key = KEY[request.groupBy];
  const filters: Sql[] = [];
  if (request.rotas) filters.push(sql`AND h.rota_id = ANY(${request.rotas}::bigint[])`);
  if (request.users) filters.push(sql`AND h.user_id = ANY(${request.users}::bigint[])`);
  return tenantSql(tenant)`SELECT ${key} AS id, count(*) AS shifts,
      count(*) FILTER (WHERE h.attendance_status = 'attended') AS attended,
      count(*) FILTER (WHERE h.attendance_status = 'no_show') AS no_show,
      count(*) FILTER (WHERE h.attendance_status IS NULL) AS unrecorded,
      sum(h.booked_minutes) AS booked_minutes,
      coalesce(sum(h.attended_minutes) FILTER (WHERE h.attendance_status = 'attended'), 0) AS attended_minutes
     FROM rota_volunteer_hours h
    WHERE ${tenantScope('h')} AND h.date BETWEEN ${request.from}::date AND ${request.to}::date
      AND h.starts_at <= ${request.now.toISOString()}::timestamptz AND h.team_id = ANY(${request.teams}::bigint[])
      ${sql.join(filters, ' ')}
    GROUP BY ${key}`;
}
