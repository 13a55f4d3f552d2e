import type { TeamObject, UserBase } from '#app/identity';
import { ForbiddenError } from '#app/platform';
import {
  type BookedSpan,
  type BookingFacts,
  type BookingRota,
  bookingRefusal,
  cancelRefusal,
  checkBookingAccess,
} from '../domain/booking-rules.js';
import {
  type CoverageStatus,
  type CoverageStatusText,
  type DayCoverage,
  dayCoverage,
  type HourEntry,
} from '../domain/coverage.js';
import type { TimeslotOccurrence } from '../domain/rota-calendar.js';
import { type TimeslotVersion, versionOn } from '../domain/timeslot-timeline.js';
import type { RotaTimeslot } from '../domain/weekly-timeslots.js';
import type { RepeatingShiftObject } from '../booking/repeating-shift.queries.js';
import type { StandInView } from '../booking/shift.queries.js';
import { type CallerReach, isManager, type RotaPermissions, rotaPermissions } from '../rotas.policy.js';
import type { PatternTimeslotView } from '../shift-pattern/shift-pattern.queries.js';

/**
 * The day view's records, assembled from what the read model read (rota-views.queries.ts): no
 * I/O, no clock (`now` comes in). The period view's detailed answer builds the same records per
 * date, through dayRota. docs/rota-domain.md#day-view and #statuses.
 *
 * Speed: a detailed month is up to 10,000 shifts, so nothing here asks luxon per shift: times come
 * as stored (epoch ms and the wall clocks `YYYY-MM-DD HH:MM` the shift table keeps), and only a
 * volunteer's own shifts go through the booking rules (a handful).
 */

/** The most rotas a view returns, `max_rotas` (docs/rota-domain.md#which-rotas-a-view-shows). */
export const MAX_ROTAS = 25;

/** A rota as the views read it: what the booking rules read, and what the record shows. */
export interface ViewRota extends BookingRota {
  readonly name: string;
  readonly colour: string;
  readonly team: TeamObject;
}

/** An open stand-in request as the views read it: when (epoch ms), by whom, the note. */
export interface ViewStandIn {
  readonly at: number;
  readonly by: number;
  readonly note: string | null;
}

/** A booked shift as the views read it: its span (epoch ms), series, stored wall clocks and stand-in request. */
export interface ViewShift extends BookedSpan {
  readonly seriesId: number | null;
  /** `YYYY-MM-DD HH:MM` in the rota zone, as stored. */
  readonly startWall: string;
  readonly endWall: string;
  /** Absent or null: not looking for a stand-in. */
  readonly standIn?: ViewStandIn | null;
}

/** The Pattern timeslot entry (docs/rota-domain.md#record-shapes), as the shift pattern routes show it. */
export type PatternEntry = PatternTimeslotView;

/** The day view's pattern entry: `pattern_status` is the status text (docs/rota-domain.md#statuses). */
export interface DayPatternEntry extends PatternEntry {
  pattern_status: CoverageStatusText;
}

export interface ShiftPermissions {
  can_edit_shift: boolean;
  can_cancel_shift: boolean;
  can_edit_repeating_shift: boolean;
}

/** The Day-view shift as `own_shifts` holds it, no permissions (docs/rota-domain.md#day-view). */
export interface OwnDayShift {
  id: number;
  user: UserBase;
  date: string;
  overnight_shift: boolean;
  start_time: string;
  end_time: string;
  timezone: string;
  repeating_shift: RepeatingShiftObject | null;
  stand_in: StandInView | null;
}

/** The Day-view shift as `shifts` holds it: with the caller's permissions (docs/rota-domain.md#day-view). */
export interface DayShift extends OwnDayShift {
  permissions: ShiftPermissions;
}

/** The Day-view rota, plus `status`: the lowest status of its hours (docs/rota-domain.md#day-view). */
export interface DayViewRota {
  id: number;
  name: string;
  team: TeamObject;
  require_full_timeslot: boolean;
  closed: boolean;
  below_minimum: boolean;
  status: CoverageStatus;
  own_shift: boolean;
  own_shifts: OwnDayShift[];
  total_users: number;
  shift_patterns: DayPatternEntry[];
  hours: HourEntry[];
  shifts: DayShift[];
  colour: string;
  self_manage: boolean;
  allow_same_day_add: boolean;
  allow_same_day_cancel: boolean;
  allow_same_day_edit: boolean;
  permissions: RotaPermissions;
}

/** `GET /api/rota/day/{date}`. */
export interface DayView {
  start_time: string | null;
  end_time: string | null;
  truncated: boolean;
  max_rotas: number;
  rotas: DayViewRota[];
}

/** What every record of one answer shares: the caller, the zone, the clock and the batched reads. */
export interface ViewContext {
  readonly zone: string;
  /** Epoch ms: "may do it now" (rule 8) is judged at this instant. */
  readonly now: number;
  readonly reach: CallerReach;
  /** The caller's role profiles (rule 5 when they edit their own shift on a restricted rota); empty when not read. */
  readonly callerProfiles: readonly number[];
  /** `user_flags`: own_shift is filled only when true. */
  readonly userFlags: boolean;
  readonly users: ReadonlyMap<number, UserBase>;
  readonly series: ReadonlyMap<number, RepeatingShiftObject>;
  /** false: the shift arrays stay empty (a detailed period view past its shift cap). */
  readonly withShifts: boolean;
  /** The day view's `users` filter: only their shifts are listed (coverage still counts everyone's). */
  readonly onlyUsers?: ReadonlySet<number>;
}

/** One rota on one date: that date's occurrences and shifts, and every shift that may be on duty then. */
export interface RotaDay {
  readonly rota: ViewRota;
  readonly date: string;
  readonly occurrences: readonly TimeslotOccurrence[];
  /** The shifts starting on `date`, by start then id. */
  readonly shifts: readonly ViewShift[];
  /**
   * What coverage counts: `shifts` and the previous date's shifts that run into this one
   * (overnight), less those looking for a stand-in (docs/rota-domain.md#stand-ins-and-take-overs).
   */
  readonly duty: readonly ViewShift[];
}

/** A rota's shifts by date, and its occurrences by date: grouped once for the whole range. */
export interface RotaRange {
  readonly shifts: ReadonlyMap<string, readonly ViewShift[]>;
  readonly occurrences: ReadonlyMap<string, readonly TimeslotOccurrence[]>;
}

const NONE: readonly never[] = Object.freeze([]);

/**
 * docs/rota-domain.md#overnight: it ends on a later date than it starts (the stored wall clocks say so
 * without a zone lookup).
 */
const overnight = (shift: Pick<ViewShift, 'date' | 'endWall'>) => shift.endWall.slice(0, 10) > shift.date;

/** The rota-day of `date` (`previous` is the date before it) out of the rota's grouped range. */
export function rotaDayOf(rota: ViewRota, range: RotaRange, date: string, previous: string): RotaDay {
  const shifts = range.shifts.get(date) ?? NONE;
  const before = (range.shifts.get(previous) ?? NONE).filter(overnight);
  const duty = before.length ? [...before, ...shifts] : shifts;
  return {
    rota,
    date,
    occurrences: range.occurrences.get(date) ?? NONE,
    shifts,
    duty: duty.some((s) => s.standIn) ? duty.filter((s) => !s.standIn) : duty,
  };
}

/** A timeslot version's timeslots by id, tabled once per version (a version is shared by every date it covers). */
const slotTables = new WeakMap<TimeslotVersion, ReadonlyMap<number, RotaTimeslot>>();
function timeslotOf(rota: ViewRota, date: string, id: number): RotaTimeslot | undefined {
  const version = versionOn(rota.calendar.timeline, date);
  if (!version) return undefined;
  let table = slotTables.get(version);
  if (!table) slotTables.set(version, (table = new Map(version.timeslots.map((t) => [t.id, t]))));
  return table.get(id);
}

/**
 * The Pattern timeslot entry (docs/rota-domain.md#record-shapes) of an occurrence: the timeslot as the rota's
 * version defines it (`HH:MM:SS`).
 */
export function patternEntryOf(rota: ViewRota, occurrence: TimeslotOccurrence): PatternEntry {
  const t = timeslotOf(rota, occurrence.date, occurrence.timeslot_id);
  if (!t)
    throw new Error(`Timeslot ${occurrence.timeslot_id} is not in rota ${rota.id}'s version of ${occurrence.date}`);
  return {
    id: t.id,
    weekday_start: t.weekday_start,
    start_time: `${t.start_time}:00`,
    weekday_end: t.weekday_end,
    end_time: `${t.end_time}:00`,
    min: t.min,
    ideal: t.ideal,
    max: t.max,
  };
}

/** The caller may act on the shift at all (the 403s before any rule): a manager, or a volunteer on their own shift of a self-managed rota. */
function mayAct(facts: Pick<BookingFacts, 'action' | 'rota' | 'user' | 'caller'>): boolean {
  try {
    checkBookingAccess(facts);
    return true;
  } catch (error) {
    if (error instanceof ForbiddenError) return false;
    throw error;
  }
}

const ALL: ShiftPermissions = Object.freeze({
  can_edit_shift: true,
  can_cancel_shift: true,
  can_edit_repeating_shift: true,
});
const NOTHING: ShiftPermissions = Object.freeze({
  can_edit_shift: false,
  can_cancel_shift: false,
  can_edit_repeating_shift: false,
});

/**
 * What the caller may do to one shift now (docs/rota-domain.md#day-view: rules 7 and 8 included). A manager
 * may edit and cancel any shift of the rota, and edit its series when it has one. Anyone else only
 * their own, on a self-managed rota, and then as the routes would judge it at `now`: an edit of
 * the shift's current times through rules 1–8 (rule 7 counts the rota-day's other shifts; rule 8
 * with allow_same_day_edit), a cancel through rule 8 with allow_same_day_cancel. Editing the series
 * (edit_mode recurring) is the same check, and needs a series.
 */
export function shiftPermissions(day: RotaDay, shift: ViewShift, ctx: ViewContext): ShiftPermissions {
  const { rota } = day;
  const hasSeries = shift.seriesId !== null;
  if (isManager(ctx.reach, rota.teamId)) return hasSeries ? ALL : { ...ALL, can_edit_repeating_shift: false };
  if (shift.userId !== ctx.reach.userId) return NOTHING;
  const seesRota = ctx.reach.seen.has(rota.teamId);
  const user = {
    id: shift.userId,
    inOrganisation: true,
    seesRota,
    onHold: ctx.reach.onHold,
    roleProfileIds: ctx.callerProfiles,
  };
  const caller = { userId: ctx.reach.userId, seesRota, manager: false };
  if (!mayAct({ action: 'edit', rota, user, caller })) return NOTHING;
  const edit =
    bookingRefusal({
      action: 'edit',
      rota,
      user,
      caller,
      shift,
      current: shift,
      userShifts: [],
      rotaDayShifts: day.shifts.filter((s) => s.id !== shift.id),
      // As the update route decides: the flags override only for managers, so a volunteer on hold is still refused.
      ignoreOnHold: true,
      confirmRoleRestriction: true,
      now: ctx.now,
    }) === null;
  const cancel = cancelRefusal({ action: 'cancel', rota, user, caller, shift, now: ctx.now }) === null;
  return { can_edit_shift: edit, can_cancel_shift: cancel, can_edit_repeating_shift: edit && hasSeries };
}

function ownShiftOf(shift: ViewShift, ctx: ViewContext): OwnDayShift {
  return {
    id: shift.id,
    user: ctx.users.get(shift.userId)!,
    date: shift.date,
    overnight_shift: overnight(shift),
    start_time: shift.startWall,
    end_time: shift.endWall,
    timezone: ctx.zone,
    repeating_shift: shift.seriesId === null ? null : (ctx.series.get(shift.seriesId) ?? null),
    stand_in: shift.standIn
      ? {
          requested_at: new Date(shift.standIn.at).toISOString(),
          requested_by: ctx.users.get(shift.standIn.by)!,
          note: shift.standIn.note,
        }
      : null,
  };
}

/** A Day-view rota record and the coverage it shows. */
export interface DayRotaResult {
  readonly view: DayViewRota;
  readonly coverage: DayCoverage;
}

/** The Day-view rota record of one rota-day (docs/rota-domain.md#day-view). */
export function dayRota(day: RotaDay, ctx: ViewContext): DayRotaResult {
  const { rota, date } = day;
  const coverage = dayCoverage(rota.calendar, date, ctx.zone, day.duty, day.occurrences);
  const me = ctx.reach.userId;
  const users = new Set<number>();
  let mine = false;
  for (const shift of day.shifts) {
    users.add(shift.userId);
    if (shift.userId === me) mine = true;
  }
  const own_shifts: OwnDayShift[] = [];
  const shifts: DayShift[] = [];
  if (ctx.withShifts) {
    for (const shift of day.shifts) {
      if (ctx.onlyUsers && !ctx.onlyUsers.has(shift.userId)) continue;
      const own = ownShiftOf(shift, ctx);
      if (shift.userId === me) own_shifts.push(own);
      shifts.push({ ...own, permissions: shiftPermissions(day, shift, ctx) });
    }
  }
  const view: DayViewRota = {
    id: rota.id,
    name: rota.name,
    team: rota.team,
    require_full_timeslot: rota.requireFullTimeslot,
    closed: coverage.closed,
    below_minimum: coverage.below_minimum,
    status: coverage.status,
    own_shift: ctx.userFlags && mine,
    own_shifts,
    total_users: users.size,
    shift_patterns: coverage.timeslots.map((t) => ({
      ...patternEntryOf(rota, t.occurrence),
      pattern_status: t.pattern_status_text,
    })),
    hours: [...coverage.hours],
    shifts,
    colour: rota.colour,
    self_manage: rota.selfManage,
    allow_same_day_add: rota.allowSameDayAdd,
    allow_same_day_cancel: rota.allowSameDayCancel,
    allow_same_day_edit: rota.allowSameDayEdit,
    permissions: rotaPermissions(ctx.reach, rota),
  };
  return { view, coverage };
}

/** `HH:MM` of an instant in UTC (the day view's start_time / end_time). */
const utcClock = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/**
 * `GET /api/rota/day/{date}`: the rota-days of the returned rotas (the read model matched, ordered
 * and truncated them), and the earliest timeslot start and latest timeslot end among them, `HH:MM`
 * in UTC (null when no rota has a timeslot that day).
 */
export function dayView(days: readonly RotaDay[], ctx: ViewContext, truncated: boolean): DayView {
  let [first, last] = [Infinity, -Infinity];
  for (const day of days) {
    for (const o of day.occurrences) {
      if (o.start < first) first = o.start;
      if (o.end > last) last = o.end;
    }
  }
  return {
    start_time: first === Infinity ? null : utcClock(first),
    end_time: last === -Infinity ? null : utcClock(last),
    truncated,
    max_rotas: MAX_ROTAS,
    rotas: days.map((day) => dayRota(day, ctx).view),
  };
}
