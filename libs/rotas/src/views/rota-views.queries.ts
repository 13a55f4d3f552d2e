import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Caller, type OrganisationFacts, Teams, type UserBase, UserBases } from '#app/identity';
import { type Sql, sql, type Tenant, tenantScope, tenantSql, groupBy } from '#app/platform';
import { byText } from '../domain/by-text.js';
import { addDays } from '../domain/calendar-dates.js';
import { timeslotsOn } from '../domain/rota-calendar.js';
import {
  type RepeatingShiftObject,
  repeatingShiftObjectOf,
  type RepeatingShiftRow,
} from '../booking/repeating-shift.queries.js';
import { SeriesQueries } from '../booking/series.queries.js';
import { rotaForBooking, ROTA_RULE_COLUMNS, type RotaRuleRow } from '../booking/rota-row.js';
import { type CallerReach, isManager } from '../rotas.policy.js';
import {
  type DayView,
  dayView,
  MAX_ROTAS,
  rotaDayOf,
  type ViewContext,
  type ViewRota,
  type ViewShift,
} from './day-view.js';
import { overShiftCap, periodView, type PeriodView } from './period-view.js';

/** The filters both views take: rotas of these teams, these rotas (those the caller cannot see are simply left out). */
export interface ViewFilters {
  readonly teams?: readonly number[];
  readonly rotas?: readonly number[];
}

export interface PeriodRequest extends ViewFilters {
  readonly from: string;
  readonly to: string;
  readonly detailed: boolean;
  readonly userFlags: boolean;
}

export interface DayRequest extends ViewFilters {
  readonly date: string;
  readonly userFlags: boolean;
  /** Only rotas with a shift of these users that day, and only their shifts (the controller checked rota_v2). */
  readonly users?: readonly number[];
}

type RotaRow = RotaRuleRow & { colour: string };

/**
 * A shift as the shifts statement sends it: [id, rota_id, user_id, series_id, date, start ms, end ms,
 * start_wall, end_wall, stand-in: null or [requested_at ms, requested_by, note]].
 */
type ShiftTuple = [
  number,
  number,
  number,
  number | null,
  string,
  number,
  number,
  string,
  string,
  [number, number, string | null] | null,
];

const shiftOf = ([
  id,
  rotaId,
  userId,
  seriesId,
  date,
  start,
  end,
  startWall,
  endWall,
  standIn,
]: ShiftTuple): ViewShift => ({
  id,
  rotaId,
  userId,
  seriesId,
  date,
  start,
  end,
  startWall,
  endWall,
  standIn: standIn && { at: standIn[0], by: standIn[1], note: standIn[2] },
});

/** What the shift records embed, read once for all of them. */
interface Details {
  readonly users: ReadonlyMap<number, UserBase>;
  readonly series: ReadonlyMap<number, RepeatingShiftObject>;
  readonly callerProfiles: readonly number[];
}

const NO_DETAILS: Details = { users: new Map(), series: new Map(), callerProfiles: [] };

/**
 * The read model of the rota views (docs/rota-domain.md#statuses-and-views; docs/api-guide.md "Views: the read
 * model"). A view is a fixed number of statements, whatever its rotas, days or shifts:
 * 1. the matching rotas, in one statement on `rotas` (team, not archived, active in the range, the
 *    filters; the day view's `users` filter as an EXISTS on the shifts' (rota_id, date) index),
 *    then their Team objects in one (identity's, also the sort key);
 * 2. the booked shifts of the range across every returned rota, in one statement on the partial
 *    index rota_shifts_rota_date (rota_id, date, starts_at) WHERE booked, instants as epoch ms;
 * 3. whether a returned rota has a series still generating (SeriesQueries.pendingRotas), beside 2;
 * 4. for answers that list shifts: their users (UserBases, one statement and the caller's managed
 *    users), their series (one statement) and, only when the caller has their own shifts on a
 *    role-restricted rota they do not manage, the caller's role profiles.
 * The rest is pure (day-view.ts, period-view.ts).
 */
@Injectable()
export class RotaViewQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly teams: Teams,
    private readonly users: UserBases,
    private readonly pending: SeriesQueries,
  ) {}

  /** `GET /api/rota/period` for a parsed request. */
  async period(
    caller: Caller,
    reach: CallerReach,
    facts: OrganisationFacts,
    request: PeriodRequest,
  ): Promise<PeriodView> {
    const { rotas, truncated } = await this.matching(caller, reach, request, request.from, request.to, facts.timezone);
    const ids = rotas.map((r) => r.id);
    const [shifts, pending] = await Promise.all([
      this.shifts(caller, ids, addDays(request.from, -1), request.to),
      this.pending.pendingRotas(caller, ids),
    ]);
    const over = request.detailed && overShiftCap(shifts, request.from);
    const details = request.detailed && !over ? await this.details(caller, reach, rotas, shifts) : NO_DETAILS;
    const ctx: ViewContext = {
      zone: facts.timezone,
      now: Date.now(),
      reach,
      userFlags: request.userFlags,
      withShifts: request.detailed && !over,
      ...details,
    };
    return periodView(
      {
        from: request.from,
        to: request.to,
        detailed: request.detailed,
        rotas,
        shifts,
        truncated: truncated || over,
        dataReady: pending.size === 0,
      },
      ctx,
    );
  }

  /** `GET /api/rota/day/{date}` for a parsed request. */
  async day(caller: Caller, reach: CallerReach, facts: OrganisationFacts, request: DayRequest): Promise<DayView> {
    const { date } = request;
    const zone = facts.timezone;
    const { rotas, truncated } = await this.matching(caller, reach, request, date, date, zone);
    const previous = addDays(date, -1);
    const shifts = await this.shifts(
      caller,
      rotas.map((r) => r.id),
      previous,
      date,
    );
    const onlyUsers = request.users ? new Set(request.users) : undefined;
    const details = await this.details(
      caller,
      reach,
      rotas,
      shifts.filter((s) => s.date === date && (!onlyUsers || onlyUsers.has(s.userId))),
    );
    const ctx: ViewContext = {
      zone,
      now: Date.now(),
      reach,
      userFlags: request.userFlags,
      withShifts: true,
      onlyUsers,
      ...details,
    };
    const byRota = groupBy(shifts, (s) => s.rotaId);
    const days = rotas.map((rota) => {
      const range = {
        shifts: groupBy(byRota.get(rota.id) ?? [], (s) => s.date),
        occurrences: new Map([[date, timeslotsOn(rota.calendar, date, zone)]]),
      };
      return rotaDayOf(rota, range, date, previous);
    });
    return dayView(days, ctx, truncated);
  }

  /**
   * The rotas matching a view over [from, to]: of teams the caller sees (and the `teams` filter),
   * the `rotas` filter, not archived, active on a day of the range; ordered by team name, rota
   * name, id; the first MAX_ROTAS, `truncated` when more matched.
   */
  private async matching(
    caller: Caller,
    reach: CallerReach,
    request: ViewFilters & { users?: readonly number[] },
    from: string,
    to: string,
    zone: string,
  ): Promise<{ rotas: ViewRota[]; truncated: boolean }> {
    const teams = [...reach.seen].filter((t) => !request.teams || request.teams.includes(t));
    if (teams.length === 0) return { rotas: [], truncated: false };
    const filters: Sql[] = [];
    if (request.rotas) filters.push(sql`AND r.id = ANY(${request.rotas}::bigint[])`);
    if (request.users) {
      filters.push(sql`AND EXISTS (SELECT 1 FROM rota_shifts s WHERE s.rota_id = r.id AND s.status = 'booked' AND s.date = ${from}::date
        AND s.user_id = ANY(${request.users}::bigint[]))`);
    }
    const q = tenantSql(caller)`SELECT ${ROTA_RULE_COLUMNS}, r.colour FROM rotas r
      WHERE ${tenantScope('r')} AND r.team_id = ANY(${teams}::bigint[]) AND NOT r.archived
        AND r.start_date <= ${to}::date AND (r.end_date IS NULL OR r.end_date >= ${from}::date) ${sql.join(filters, ' ')}`;
    const rows: RotaRow[] = await this.dataSource.query(q.text, q.values);
    const objects = await this.teams.objects(caller, [...new Set(rows.map((r) => Number(r.team_id)))]);
    const rotas = rows.flatMap((r): ViewRota[] => {
      const team = objects.get(Number(r.team_id));
      if (!team) return [];
      return [{ ...rotaForBooking(r, zone), colour: r.colour, team }];
    });
    rotas.sort((a, b) => byText(a.team.name, b.team.name) || byText(a.name, b.name) || a.id - b.id);
    return { rotas: rotas.slice(0, MAX_ROTAS), truncated: rotas.length > MAX_ROTAS };
  }

  /**
   * The booked shifts of the rotas starting on [from, to], by rota, date, start, id: one statement
   * for the whole view. The rows come as one JSON array of arrays (ids are far below 2^53, instants
   * epoch ms): JSON.parse builds them several times faster than the driver builds 10,000 row
   * objects from text columns (a month of 25 busy rotas: about 35 ms against 55).
   */
  private async shifts(tenant: Tenant, rotaIds: readonly number[], from: string, to: string): Promise<ViewShift[]> {
    if (rotaIds.length === 0) return [];
    const q = tenantSql(
      tenant,
    )`SELECT coalesce(json_agg(json_build_array(s.id, s.rota_id, s.user_id, s.series_id, s.date,
          (extract(epoch FROM s.starts_at) * 1000)::float8, (extract(epoch FROM s.ends_at) * 1000)::float8, s.start_wall, s.end_wall,
          CASE WHEN s.stand_in_requested_at IS NOT NULL THEN json_build_array((extract(epoch FROM s.stand_in_requested_at) * 1000)::float8,
            s.stand_in_requested_by, s.stand_in_note) END)
        ORDER BY s.rota_id, s.date, s.starts_at, s.id), '[]') AS shifts
       FROM rota_shifts s
      WHERE ${tenantScope('s')} AND s.status = 'booked' AND s.rota_id = ANY(${rotaIds}::bigint[]) AND s.date BETWEEN ${from}::date AND ${to}::date`;
    const [row]: { shifts: ShiftTuple[] }[] = await this.dataSource.query(q.text, q.values);
    return row!.shifts.map(shiftOf);
  }

  /** What the shift records embed: users, series and (when a rule needs them) the caller's role profiles, each read once. */
  private async details(
    caller: Caller,
    reach: CallerReach,
    rotas: readonly ViewRota[],
    shifts: readonly ViewShift[],
  ): Promise<Details> {
    if (shifts.length === 0) return NO_DETAILS;
    // Rule 5 binds the caller's own edits only on a restricted rota they do not manage.
    const restricted = new Set(rotas.filter((r) => r.restrictedByRole && !isManager(reach, r.teamId)).map((r) => r.id));
    const needsProfiles = shifts.some((s) => s.userId === caller.userId && restricted.has(s.rotaId));
    const seriesIds = [...new Set(shifts.flatMap((s) => (s.seriesId === null ? [] : [s.seriesId])))];
    const [users, series, bookers] = await Promise.all([
      this.users.of(
        caller,
        [...new Set(shifts.flatMap((s) => (s.standIn ? [s.userId, s.standIn.by] : [s.userId])))],
        'add-user-shifts',
      ),
      this.series(caller, seriesIds),
      needsProfiles ? this.teams.bookersOf(caller, [caller.userId]) : undefined,
    ]);
    return { users, series, callerProfiles: [...(bookers?.get(caller.userId)?.roleProfileIds ?? [])] };
  }

  private async series(tenant: Tenant, ids: readonly number[]): Promise<Map<number, RepeatingShiftObject>> {
    if (ids.length === 0) return new Map();
    const q = tenantSql(
      tenant,
    )`SELECT id, user_id, rota_id, team_id, frequency, weekdays, start_date::text AS start_date, end_date::text AS end_date, start_time,
        generated_until::text AS generated_until
       FROM rota_repeating_shifts WHERE ${tenantScope()} AND id = ANY(${ids}::bigint[])`;
    const rows: RepeatingShiftRow[] = await this.dataSource.query(q.text, q.values);
    return new Map(rows.map((r) => [Number(r.id), repeatingShiftObjectOf(r)]));
  }
}
