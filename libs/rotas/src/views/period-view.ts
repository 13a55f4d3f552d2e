import { groupBy } from '#app/platform';
import { dateOfDay, dayNumber } from '../domain/calendar-dates.js';
import { type CoverageStatus, dateAcrossRotas, dayStatus, type HourEntry } from '../domain/coverage.js';
import { isActiveOn, timeslotsBetween } from '../domain/rota-calendar.js';
import { combinedPermissions, type RotaPermissions, rotaPermissions } from '../rotas.policy.js';
import {
  dayRota,
  type DayViewRota,
  MAX_ROTAS,
  type PatternEntry,
  patternEntryOf,
  type RotaRange,
  rotaDayOf,
  type ViewContext,
  type ViewRota,
  type ViewShift,
} from './day-view.js';

/**
 * The period view (`GET /api/rota/period`), assembled from what the read model read: one Date entry
 * a day, its status the lowest of the open rota-days, closed when every rota is closed or inactive
 * (docs/rota-domain.md#period-view); the detailed answer adds each date's Day-view rota records and
 * lists their hours and timeslots with a `rota_id`.
 *
 * Speed: each rota's occurrences are computed once for the whole range (timeslotsBetween) and its
 * shifts grouped by date once; a date then looks both up. The basic answer asks only each
 * rota-day's status (dayStatus: no hour entries, no wall clocks).
 */

/** The most shifts a detailed answer holds; past it the shift arrays are empty and truncated is true. */
export const MAX_DETAILED_SHIFTS = 10_000;

/** An Hour entry of a Date entry (detailed): whose rota it is. */
export type RotaHourEntry = HourEntry & { rota_id: number };

/** A Pattern timeslot entry of a Date entry (detailed): whose rota it is. */
export type RotaPatternEntry = PatternEntry & { rota_id: number };

/** The Date entry (docs/rota-domain.md#period-view); `rotas` only in the detailed answer. */
export interface DateEntry {
  date: string;
  below_minimum: boolean;
  status: CoverageStatus;
  closed: boolean;
  own_shift: boolean;
  hours: RotaHourEntry[];
  shift_patterns: RotaPatternEntry[];
  rotas?: DayViewRota[];
}

export interface PeriodView {
  start_date: string;
  end_date: string;
  data_ready: boolean;
  truncated: boolean;
  max_rotas: number;
  permissions: RotaPermissions;
  dates: DateEntry[];
}

export interface PeriodInput {
  /** The range, both ends inclusive. */
  readonly from: string;
  readonly to: string;
  readonly detailed: boolean;
  /** The returned rotas, in the answer's order (the read model matched, ordered and cut them at MAX_ROTAS). */
  readonly rotas: readonly ViewRota[];
  /** Their booked shifts from the day before `from` to `to` (overnight ones run into `from`), by rota, date, start, id. */
  readonly shifts: readonly ViewShift[];
  /** More rotas matched than were returned, or the shifts were left out. */
  readonly truncated: boolean;
  readonly dataReady: boolean;
}

/** A detailed answer would hold more than MAX_DETAILED_SHIFTS shifts (those of the day before the range only count towards coverage). */
export function overShiftCap(shifts: readonly ViewShift[], from: string): boolean {
  let count = 0;
  for (const shift of shifts) if (shift.date >= from && ++count > MAX_DETAILED_SHIFTS) return true;
  return false;
}

/** The period view. `ctx.withShifts` false (past the cap) leaves every shift array empty; coverage still counts every shift. */
export function periodView(input: PeriodInput, ctx: ViewContext): PeriodView {
  const { from, to, rotas, detailed } = input;
  const byRota = groupBy(input.shifts, (s) => s.rotaId);
  const ranges: RotaRange[] = rotas.map((rota) => ({
    shifts: groupBy(byRota.get(rota.id) ?? [], (s) => s.date),
    occurrences: groupBy(timeslotsBetween(rota.calendar, from, to, ctx.zone), (o) => o.date),
  }));
  const me = ctx.reach.userId;
  const dates: DateEntry[] = [];
  let previous = dateOfDay(dayNumber(from) - 1);
  for (let day = dayNumber(from); day <= dayNumber(to); day++) {
    const date = dateOfDay(day);
    const entry: DateEntry = {
      date,
      below_minimum: false,
      status: 0,
      closed: true,
      own_shift: false,
      hours: [],
      shift_patterns: [],
    };
    if (detailed) entry.rotas = [];
    const days: { active: boolean; closed: boolean; status: number }[] = [];
    rotas.forEach((rota, i) => {
      if (!isActiveOn(rota.calendar, date)) {
        days.push({ active: false, closed: true, status: 0 });
        return;
      }
      const rotaDay = rotaDayOf(rota, ranges[i]!, date, previous);
      if (ctx.userFlags && !entry.own_shift) entry.own_shift = rotaDay.shifts.some((s) => s.userId === me);
      if (!detailed) {
        days.push({ active: true, ...dayStatus(rota.calendar, date, ctx.zone, rotaDay.duty, rotaDay.occurrences) });
        return;
      }
      const { view, coverage } = dayRota(rotaDay, ctx);
      days.push({ active: true, closed: coverage.closed, status: coverage.status });
      entry.rotas!.push(view);
      for (const hour of coverage.hours) entry.hours.push({ ...hour, rota_id: rota.id });
      for (const t of coverage.timeslots)
        entry.shift_patterns.push({ ...patternEntryOf(rota, t.occurrence), rota_id: rota.id });
    });
    Object.assign(entry, dateAcrossRotas(days));
    dates.push(entry);
    previous = date;
  }
  return {
    start_date: from,
    end_date: to,
    data_ready: input.dataReady,
    truncated: input.truncated,
    max_rotas: MAX_ROTAS,
    permissions: combinedPermissions(rotas.map((rota) => rotaPermissions(ctx.reach, rota))),
    dates,
  };
}
