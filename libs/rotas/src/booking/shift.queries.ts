import type { WriteQuery } from '#app/event-store';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Caller, type TeamObject, Teams, type UserBase, UserBases } from '#app/identity';
import {
  ForbiddenError,
  NotFoundError,
  offsetOf,
  type PageRequest,
  type Sql,
  sql,
  type Tenant,
  tenantScope,
  tenantSql,
} from '#app/platform';
import { SERIES_WEEKDAYS, type SeriesWeekday } from '../domain/series-dates.js';
import type { AttendanceStatus, RepeatingShiftEvent, ShiftEvent } from '../rotas.events.js';
import type { CallerReach } from '../rotas.policy.js';

/** The Shift record's `recurrence_pattern` (docs/rota-domain.md#the-recurrence-pattern). */
export type RecurrencePatternView = {
  id: number;
  recurrence_period: 'week';
  recurrence_frequency: number;
  end_date: string | null;
} & Record<SeriesWeekday, 0 | 1>;

/** The Shift record's `attendance` (docs/rota-domain.md#attendance): the worked times as wall clocks in the zone. */
export interface AttendanceView {
  status: AttendanceStatus;
  start_datetime: string;
  end_datetime: string;
  minutes: number;
  note: string | null;
  recorded_by: UserBase;
  recorded_at: string;
}

/** The Shift record's `stand_in` (docs/rota-domain.md#stand-ins-and-take-overs): an open request. */
export interface StandInView {
  requested_at: string;
  requested_by: UserBase;
  note: string | null;
}

/** The Shift record plus `rota_id` (docs/rota-domain.md#the-shift-record-and-list). */
export interface ShiftView {
  id: number;
  user: UserBase;
  date: string;
  start_time: string;
  start_datetime: string;
  end_time: string;
  end_datetime: string;
  team: TeamObject;
  recurrence_pattern: RecurrencePatternView | null;
  rota_id: number;
  /** Null until recorded. */
  attendance: AttendanceView | null;
  /** Null unless the shift is looking for a stand-in. */
  stand_in: StandInView | null;
}

/** A booked shift's row, as the commands that change it read it. */
export interface ShiftRow {
  id: number;
  rotaId: number;
  teamId: number;
  userId: number;
  seriesId: number | null;
  date: string;
  start: string;
  end: string;
  startWall: string;
  endWall: string;
}

export interface ShiftListFilters {
  readonly teams?: readonly number[];
  readonly rotas?: readonly number[];
  readonly users?: readonly number[];
  readonly startDate: string;
  readonly endDate: string;
  /** true: only shifts looking for a stand-in; false: only those not. */
  readonly standIn?: boolean;
}

type Row = {
  id: string;
  rota_id: string;
  team_id: string;
  user_id: string;
  series_id: string | null;
  date: string;
  starts_at: Date;
  ends_at: Date;
  start_wall: string;
  end_wall: string;
};
/** What only the answers read: the attendance columns. */
type ViewRow = Row & {
  attendance_status: AttendanceStatus | null;
  attendance_start_wall: string | null;
  attendance_end_wall: string | null;
  attendance_minutes: number | null;
  attendance_note: string | null;
  attendance_recorded_by: string | null;
  attendance_recorded_at: Date | null;
  stand_in_requested_at: Date | null;
  stand_in_requested_by: string | null;
  stand_in_note: string | null;
};
type SeriesRow = { id: string; frequency: number; weekdays: SeriesWeekday[]; end_date: string | null };

const COLUMNS = sql.raw(
  `s.id, s.rota_id, s.team_id, s.user_id, s.series_id, s.date::text AS date, s.starts_at, s.ends_at, s.start_wall, s.end_wall`,
);

const VIEW_COLUMNS = sql.raw(
  `s.attendance_status, s.attendance_start_wall, s.attendance_end_wall, s.attendance_minutes, s.attendance_note, s.attendance_recorded_by, s.attendance_recorded_at,
   s.stand_in_requested_at, s.stand_in_requested_by, s.stand_in_note`,
);

const rowOf = (r: Row): ShiftRow => ({
  id: Number(r.id),
  rotaId: Number(r.rota_id),
  teamId: Number(r.team_id),
  userId: Number(r.user_id),
  seriesId: r.series_id === null ? null : Number(r.series_id),
  date: r.date,
  start: r.starts_at.toISOString(),
  end: r.ends_at.toISOString(),
  startWall: r.start_wall,
  endWall: r.end_wall,
});

/** The recurrence_pattern of a series row, weekdays as 0/1 (docs/rota-domain.md#the-recurrence-pattern). */
export const recurrencePatternOf = (s: SeriesRow): RecurrencePatternView =>
  ({
    id: Number(s.id),
    recurrence_period: 'week',
    recurrence_frequency: s.frequency,
    end_date: s.end_date,
    ...Object.fromEntries(SERIES_WEEKDAYS.map((d) => [d, s.weekdays.includes(d) ? 1 : 0])),
  }) as RecurrencePatternView;

type Booked = Extract<ShiftEvent, { type: 'rotas.ShiftBooked' }>['data'];
type Started = Extract<RepeatingShiftEvent, { type: 'rotas.RepeatingShiftStarted' }>['data'];

/**
 * The Shift records of a booking built from its decided events, without reading the shifts back
 * (issue 33): exact, since a shift just booked has no attendance yet, its times are the event's
 * walls, and its series (if any) is the one the same write started. Only the user's UserBase and
 * the team's Team object come from identity's tables (`users`, `teams`): the caller reads those.
 */
export function bookedShiftViews(
  events: readonly (ShiftEvent | RepeatingShiftEvent)[],
  users: ReadonlyMap<number, UserBase>,
  teams: ReadonlyMap<number, TeamObject>,
): ShiftView[] {
  const series = new Map<number, Started>();
  const booked: Booked[] = [];
  for (const e of events) {
    if (e.type === 'rotas.RepeatingShiftStarted') series.set(e.data.id, e.data);
    else if (e.type === 'rotas.ShiftBooked') booked.push(e.data);
  }
  return booked.map((b) => {
    const s = b.seriesId === null ? undefined : series.get(b.seriesId);
    return {
      id: b.id,
      user: users.get(b.userId)!,
      date: b.date,
      start_time: b.startWall.slice(11),
      start_datetime: b.startWall,
      end_time: b.endWall.slice(11),
      end_datetime: b.endWall,
      team: teams.get(b.teamId)!,
      recurrence_pattern: s
        ? recurrencePatternOf({ id: String(s.id), frequency: s.frequency, weekdays: s.weekdays, end_date: s.endDate })
        : null,
      rota_id: b.rotaId,
      attendance: null,
      stand_in: null,
    };
  });
}

/**
 * Reads of shifts for the API, tenant-scoped. A cancelled shift is a 404 on every route
 * (docs/rota-domain.md#cancelling);
 * one on a rota the caller does not see, a 403. Users, teams and series are read once per answer.
 */
@Injectable()
export class ShiftQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserBases,
    private readonly teams: Teams,
  ) {}

  /** A booked shift the caller sees (404 / 403 as above). */
  async seen(caller: Caller, reach: CallerReach, id: number): Promise<ShiftRow> {
    const row = await this.booked(caller, id);
    if (!row) throw new NotFoundError('Shift');
    if (!reach.seen.has(row.teamId)) throw new ForbiddenError('You cannot see this shift’s rota.');
    return row;
  }

  /** A booked shift of the organisation, or null. */
  async booked(tenant: Tenant, id: number): Promise<ShiftRow | null> {
    const [row] = await this.rows(tenant, sql`s.id = ${id} AND s.status = 'booked'`);
    return row ? rowOf(row) : null;
  }

  /** Booked shifts of a series from a date on (a recurring edit, a cancelled series). */
  /** A series' booked occurrences from `fromDate` on; `db` is a write's transaction when a write reads them as facts. */
  async ofSeries(
    tenant: Tenant,
    seriesId: number,
    fromDate: string,
    db: WriteQuery = this.dataSource,
  ): Promise<ShiftRow[]> {
    return (
      await this.rows(
        tenant,
        sql`s.series_id = ${seriesId} AND s.status = 'booked' AND s.date >= ${fromDate}::date ORDER BY s.starts_at, s.id`,
        db,
      )
    ).map(rowOf);
  }

  async views(caller: Caller, ids: readonly number[]): Promise<ShiftView[]> {
    const q = tenantSql(
      caller,
    )`SELECT ${COLUMNS}, ${VIEW_COLUMNS} FROM rota_shifts s WHERE ${tenantScope('s')} AND s.id = ANY(${ids}::bigint[])`;
    const rows: ViewRow[] = await this.dataSource.query(q.text, q.values);
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    return this.toViews(
      caller,
      ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
    );
  }

  /**
   * The Shift records of a booking from its decided events (bookedShiftViews): identity's UserBases
   * and Team objects read in parallel, the shifts not read back.
   */
  async viewsOfBooked(caller: Caller, events: readonly (ShiftEvent | RepeatingShiftEvent)[]): Promise<ShiftView[]> {
    const booked = events.flatMap((e) => (e.type === 'rotas.ShiftBooked' ? [e.data] : []));
    const [users, teams] = await Promise.all([
      this.users.of(caller, [...new Set(booked.map((b) => b.userId))], 'add-user-shifts'),
      this.teams.objects(caller, [...new Set(booked.map((b) => b.teamId))]),
    ]);
    return bookedShiftViews(events, users, teams);
  }

  /**
   * Every shift ever booked for the user, cancelled ones included, by start then id, with when each
   * was cancelled (null while booked): a personal-data export.
   */
  async everBookedFor(tenant: Tenant, userId: number): Promise<{ id: number; cancelled_at: string | null }[]> {
    const q = tenantSql(tenant)`SELECT s.id, s.cancelled_at FROM rota_shifts s
      WHERE ${tenantScope('s')} AND s.user_id = ${userId} ORDER BY s.starts_at, s.id`;
    const rows: { id: string; cancelled_at: Date | null }[] = await this.dataSource.query(q.text, q.values);
    return rows.map((r) => ({ id: Number(r.id), cancelled_at: r.cancelled_at?.toISOString() ?? null }));
  }

  /** `GET /api/rota/shifts`: booked shifts on rotas of teams the caller sees, by start then id. */
  async list(
    caller: Caller,
    reach: CallerReach,
    filters: ShiftListFilters,
    page: PageRequest,
  ): Promise<{ items: ShiftView[]; total: number }> {
    let teams = [...reach.seen];
    if (filters.teams) teams = teams.filter((t) => filters.teams!.includes(t));
    const where = sql`s.status = 'booked' AND s.team_id = ANY(${teams}::bigint[]) AND s.date BETWEEN ${filters.startDate}::date AND ${filters.endDate}::date
      ${filters.rotas ? sql`AND s.rota_id = ANY(${filters.rotas}::bigint[])` : sql``}
      ${filters.users ? sql`AND s.user_id = ANY(${filters.users}::bigint[])` : sql``}
      ${filters.standIn === undefined ? sql`` : filters.standIn ? sql`AND s.stand_in_requested_at IS NOT NULL` : sql`AND s.stand_in_requested_at IS NULL`}`;
    const q = tenantSql(
      caller,
    )`SELECT ${COLUMNS}, ${VIEW_COLUMNS}, count(*) OVER () AS total FROM rota_shifts s WHERE ${tenantScope('s')} AND ${where}
      ORDER BY s.starts_at, s.id LIMIT ${page.perPage} OFFSET ${offsetOf(page)}`;
    const rows: (ViewRow & { total: string })[] = await this.dataSource.query(q.text, q.values);
    const total =
      rows.length > 0
        ? Number(rows[0]!.total)
        : rows.length === 0 && page.page > 1
          ? await this.count(caller, where)
          : 0;
    return { items: await this.toViews(caller, rows), total };
  }

  private async count(tenant: Tenant, where: Sql): Promise<number> {
    const q = tenantSql(tenant)`SELECT count(*) AS n FROM rota_shifts s WHERE ${tenantScope('s')} AND ${where}`;
    const [row]: { n: string }[] = await this.dataSource.query(q.text, q.values);
    return Number(row!.n);
  }

  private async rows(tenant: Tenant, where: Sql, db: WriteQuery = this.dataSource): Promise<Row[]> {
    const q = tenantSql(tenant)`SELECT ${COLUMNS} FROM rota_shifts s WHERE ${tenantScope('s')} AND ${where}`;
    return db.query<Row>(q.text, q.values);
  }

  private async toViews(caller: Caller, rows: readonly ViewRow[]): Promise<ShiftView[]> {
    if (rows.length === 0) return [];
    const seriesIds = [...new Set(rows.flatMap((r) => (r.series_id === null ? [] : [Number(r.series_id)])))];
    // The shifts' users, those who recorded their attendance and those who asked for a stand-in, in one batch.
    const userIds = rows.flatMap((r) => [
      Number(r.user_id),
      ...(r.attendance_recorded_by === null ? [] : [Number(r.attendance_recorded_by)]),
      ...(r.stand_in_requested_by === null ? [] : [Number(r.stand_in_requested_by)]),
    ]);
    const [users, teams, series] = await Promise.all([
      this.users.of(caller, [...new Set(userIds)], 'add-user-shifts'),
      this.teams.objects(caller, [...new Set(rows.map((r) => Number(r.team_id)))]),
      this.series(caller, seriesIds),
    ]);
    return rows.map((r) => ({
      id: Number(r.id),
      user: users.get(Number(r.user_id))!,
      date: r.date,
      start_time: r.start_wall.slice(11),
      start_datetime: r.start_wall,
      end_time: r.end_wall.slice(11),
      end_datetime: r.end_wall,
      team: teams.get(Number(r.team_id))!,
      recurrence_pattern: r.series_id === null ? null : (series.get(Number(r.series_id)) ?? null),
      rota_id: Number(r.rota_id),
      attendance: attendanceOf(r, users),
      stand_in: standInOf(r, users),
    }));
  }

  private async series(tenant: Tenant, ids: readonly number[]): Promise<Map<number, RecurrencePatternView>> {
    if (ids.length === 0) return new Map();
    const q = tenantSql(
      tenant,
    )`SELECT id, frequency, weekdays, end_date::text AS end_date FROM rota_repeating_shifts WHERE ${tenantScope()} AND id = ANY(${ids}::bigint[])`;
    const rows: SeriesRow[] = await this.dataSource.query(q.text, q.values);
    return new Map(rows.map((s) => [Number(s.id), recurrencePatternOf(s)]));
  }
}

function attendanceOf(r: ViewRow, users: ReadonlyMap<number, UserBase>): AttendanceView | null {
  if (r.attendance_status === null) return null;
  return {
    status: r.attendance_status,
    start_datetime: r.attendance_start_wall!,
    end_datetime: r.attendance_end_wall!,
    minutes: r.attendance_minutes!,
    note: r.attendance_note,
    recorded_by: users.get(Number(r.attendance_recorded_by))!,
    recorded_at: r.attendance_recorded_at!.toISOString(),
  };
}

function standInOf(r: ViewRow, users: ReadonlyMap<number, UserBase>): StandInView | null {
  if (r.stand_in_requested_at === null) return null;
  return {
    requested_at: r.stand_in_requested_at.toISOString(),
    requested_by: users.get(Number(r.stand_in_requested_by))!,
    note: r.stand_in_note,
  };
}
