import { instantToWallClock, NonexistentWallClockError, wallClockToInstant } from '#app/platform';
import { dateOfDay, dayNumber, weekdayOf, weekdayOfDay } from './calendar-dates.js';
import { type Timeline, type TimeslotVersion, versionOn } from './timeslot-timeline.js';
import { clockMinutes, MINUTES_PER_DAY, type RotaTimeslot, wallMinutes, type Weekday } from './weekly-timeslots.js';

/** What the calendar needs of a rota. */
export interface RotaCalendar {
  readonly start_date: string;
  readonly end_date: string | null;
  readonly archived: boolean;
  /** Dates closed by the bulk `close` action (and not reopened). */
  readonly closed_dates: ReadonlySet<string>;
  readonly timeline: Timeline;
}

/**
 * One timeslot on one date: it starts on `date` (local, in the rota zone) and may end on a later
 * one. `start` and `end` are instants in epoch milliseconds, the half-open interval [start, end).
 */
export interface TimeslotOccurrence {
  readonly timeslot_id: number;
  readonly date: string;
  readonly start: number;
  readonly end: number;
  /** `YYYY-MM-DD HH:MM`, the wall clock the instants show in the zone. */
  readonly start_wall: string;
  readonly end_wall: string;
  /** Ends on a later date than it starts. */
  readonly overnight: boolean;
  readonly min: number;
  readonly ideal: number;
  readonly max: number;
}

/** docs/rota-domain.md#active-and-closed-days: active from start to end inclusive, unless archived. */
export function isActiveOn(rota: RotaCalendar, date: string): boolean {
  return !rota.archived && rota.start_date <= date && (rota.end_date === null || date <= rota.end_date);
}

/**
 * docs/rota-domain.md#active-and-closed-days: active, but closed by `close` or with no timeslot that day. A timeslot
 * belongs to the date it starts on, so a day reached only by the previous night's timeslot is
 * closed. (A timeslot lying wholly in a spring-forward gap still counts: the day is not closed,
 * though timeslotsOn has nothing for it; see timeslotsOn.)
 */
export function isClosedOn(rota: RotaCalendar, date: string): boolean {
  if (!isActiveOn(rota, date)) return false;
  return rota.closed_dates.has(date) || slotsStarting(versionOn(rota.timeline, date), weekdayOf(date)).length === 0;
}

/** The timeslot occurrences that start on a local date, by start; none when inactive or closed. */
export function timeslotsOn(rota: RotaCalendar, date: string, zone: string): TimeslotOccurrence[] {
  return timeslotsBetween(rota, date, date, zone);
}

/**
 * The occurrences starting on each date of [fromDate, toDate], by date then start. One pass over
 * the dates (clamped to the rota's own range) and the versions, a table lookup per weekday: the
 * cost is the number of occurrences, whatever their length.
 */
export function timeslotsBetween(
  rota: RotaCalendar,
  fromDate: string,
  toDate: string,
  zone: string,
): TimeslotOccurrence[] {
  if (rota.archived) return [];
  const first = Math.max(dayNumber(fromDate), dayNumber(rota.start_date));
  const last = rota.end_date === null ? dayNumber(toDate) : Math.min(dayNumber(toDate), dayNumber(rota.end_date));
  const occurrences: TimeslotOccurrence[] = [];
  for (let day = first; day <= last; day++) {
    const date = dateOf(day);
    if (rota.closed_dates.has(date)) continue;
    for (const placed of slotsStarting(versionOn(rota.timeline, date), weekdayOfDay(day))) {
      const occurrence = occurrenceOf(placed, day, date, zone);
      if (occurrence) occurrences.push(occurrence);
    }
  }
  return occurrences;
}

/**
 * `compute`, remembered per argument; bounded (cleared when `limit` are kept). For the few hundred
 * dates a view meets for every rota and occurrence.
 */
export function remembered<K, V>(compute: (key: K) => V, limit = 10_000): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = compute(key);
      if (kept.size >= limit) kept.clear();
      kept.set(key, value);
    }
    return value;
  };
}

/** The calendar date of a day number, kept (dateOfDay builds a Date and an ISO string each time). */
const dateOf = remembered(dateOfDay);

/** A timeslot with what every occurrence of it needs: its start minute and how many dates later it ends. */
interface Placed {
  readonly slot: RotaTimeslot;
  readonly startMinutes: number;
  readonly endDays: number;
}

const byWeekday = new WeakMap<TimeslotVersion, ReadonlyMap<Weekday, readonly Placed[]>>();

/** A version's timeslots starting on a weekday, by start time (tabled once per version). */
function slotsStarting(version: TimeslotVersion | null, weekday: Weekday): readonly Placed[] {
  if (!version) return [];
  let table = byWeekday.get(version);
  if (!table) {
    const grouped = new Map<Weekday, Placed[]>();
    for (const slot of version.timeslots) {
      const startMinutes = clockMinutes(slot.start_time)!;
      const placed = { slot, startMinutes, endDays: Math.floor((startMinutes + wallMinutes(slot)) / MINUTES_PER_DAY) };
      grouped.set(slot.weekday_start, [...(grouped.get(slot.weekday_start) ?? []), placed]);
    }
    for (const slots of grouped.values()) slots.sort((a, b) => a.startMinutes - b.startMinutes);
    table = grouped;
    byWeekday.set(version, table);
  }
  return table.get(weekday) ?? [];
}

/**
 * A timeslot on the date of day number `day`. Its end is `wallMinutes` of wall clock after its
 * start (so an overnight or multi-day timeslot ends on a later date) and real time follows the
 * zone: 00:00–04:00 on London's spring day lasts 3 hours, on its autumn day 5.
 * Wall clock to instant: an ambiguous time is the earlier instant (as for inputs); a time that does
 * not exist (in the spring gap) moves forward to the first minute that exists, the end of the gap,
 * for starts and ends alike (docs/rota-domain.md#clock-changes, computed times): a timeslot
 * keeps the part of it that exists. One lying wholly in the gap has none and is left out.
 */
function occurrenceOf({ slot, endDays }: Placed, day: number, date: string, zone: string): TimeslotOccurrence | null {
  const endDate = endDays === 0 ? date : dateOf(day + endDays);
  const start = resolve(date, slot.start_time, zone);
  const end = resolve(endDate, slot.end_time, zone);
  if (end.at <= start.at) return null;
  return {
    timeslot_id: slot.id,
    date,
    start: start.at,
    end: end.at,
    start_wall: start.wall,
    end_wall: end.wall,
    overnight: end.wall.slice(0, 10) > date,
    min: slot.min,
    ideal: slot.ideal,
    max: slot.max,
  };
}

/** The instant of a wall clock (see occurrenceOf) and the wall clock it shows, which differs only for a moved time. */
function resolve(date: string, time: string, zone: string): { at: number; wall: string } {
  try {
    return { at: wallClockToInstant(date, time, zone).getTime(), wall: `${date} ${time}` };
  } catch (err) {
    if (!(err instanceof NonexistentWallClockError)) throw err;
    const moved = wallClockToInstant(date, time, zone, { gap: 'first-after' });
    const shown = instantToWallClock(moved, zone);
    return { at: moved.getTime(), wall: `${shown.date} ${shown.time}` };
  }
}
