import { instantToWallClock, wallClockToInstant } from '#app/platform';
import { dateOfDay, dayNumber } from './calendar-dates.js';
import {
  isActiveOn,
  isClosedOn,
  remembered,
  type RotaCalendar,
  type TimeslotOccurrence,
  timeslotsOn,
} from './rota-calendar.js';
import { MINUTES_PER_DAY, type Staffing } from './weekly-timeslots.js';

/**
 * The coverage maths of the rota views (docs/rota-domain.md#statuses-and-views): hour entries cut from a
 * timeslot occurrence, the fewest volunteers on duty within each, `required`, the status, and the
 * lowest status up to a timeslot, a rota-day and a date across rotas. Pure: the views hand in the
 * booked shifts. Cancelled shifts never count anywhere, so callers leave them out; nothing here can
 * tell a cancelled shift from a booked one.
 *
 * Speed matters (a period view is 25 rotas × 92 days × a few timeslots and up to 10,000 shifts):
 * on a day without an offset change no luxon is asked (see hourEntries), and a day's shifts are
 * sorted once for all its timeslots (see dayCoverage).
 */

const MINUTE_MS = 60_000;

export type CoverageStatus = -2 | -1 | 0 | 1 | 2;
export type CoverageStatusText = 'below-minimum' | 'below-ideal' | 'ideal' | 'full' | 'over-maximum';

/** The status texts by number, as the views show them next to the number. */
export const STATUS: Readonly<Record<CoverageStatus, CoverageStatusText>> = Object.freeze({
  [-2]: 'below-minimum',
  [-1]: 'below-ideal',
  0: 'ideal',
  1: 'full',
  2: 'over-maximum',
});

/** An instant interval `[start, end)` in epoch milliseconds. */
export interface Interval {
  readonly start: number;
  readonly end: number;
}

/** One hour entry of a timeslot occurrence: instants and the wall clocks (`YYYY-MM-DD HH:MM:SS`, rota zone) they show. */
export interface HourCut extends Interval {
  readonly startWall: string;
  readonly endWall: string;
}

/** The Hour (timeslot status) entry (docs/rota-domain.md#hour-entries). */
export interface HourEntry {
  readonly start_time: string;
  readonly end_time: string;
  readonly required: number;
  readonly shift_count: number;
  readonly status: CoverageStatus;
  readonly status_text: CoverageStatusText;
  readonly min: number;
  readonly ideal: number;
  readonly max: number;
}

export interface TimeslotCoverage {
  readonly occurrence: TimeslotOccurrence;
  readonly hours: readonly HourEntry[];
  /** The lowest status of its hours (0 when it has none). */
  readonly pattern_status: CoverageStatus;
  /** The day view's `pattern_status` is a string (docs/rota-domain.md#statuses): this is that text. */
  readonly pattern_status_text: CoverageStatusText;
}

export interface DayCoverage {
  readonly closed: boolean;
  readonly status: CoverageStatus;
  readonly below_minimum: boolean;
  /** Every hour entry of the day's timeslots, by start instant (timeslots may overlap). */
  readonly hours: readonly HourEntry[];
  readonly timeslots: readonly TimeslotCoverage[];
}

export interface DateStatus {
  readonly status: CoverageStatus;
  readonly closed: boolean;
  readonly below_minimum: boolean;
}

/**
 * docs/rota-domain.md#statuses: −2 below the minimum, −1 below the ideal, 0 from the ideal up to (not reaching) the
 * maximum, 1 at the maximum, 2 over it. Checked in that order, so a timeslot whose numbers are all
 * 0 is full with nobody on duty.
 */
export function statusOf(count: number, staffing: Staffing): CoverageStatus {
  if (count < staffing.min) return -2;
  if (count < staffing.ideal) return -1;
  if (count < staffing.max) return 0;
  return count === staffing.max ? 1 : 2;
}

export const statusText = (status: CoverageStatus): CoverageStatusText => STATUS[status];

/** Volunteers still needed to reach the minimum. */
export const requiredFor = (count: number, staffing: Staffing): number => Math.max(0, staffing.min - count);

/** The most volunteers any of the entries still needs to reach its minimum (a cover alert's count). */
export const mostRequired = (hours: readonly Pick<HourEntry, 'required'>[]): number =>
  hours.reduce((most, h) => Math.max(most, h.required), 0);

/** The lowest of the statuses; none (a timeslot or day without hours) is 0, as for a closed day. */
export function lowestStatus(statuses: readonly number[]): CoverageStatus {
  if (statuses.length === 0) return 0;
  let lowest = statuses[0]!;
  for (const status of statuses) if (status < lowest) lowest = status;
  return lowest as CoverageStatus;
}

/** Day numbers of the dates met, kept: the views meet the same few hundred dates thousands of times a request. */
const dayOf = remembered(dayNumber);

/** `00` … `23`, a cut's hour as shown. */
const HOURS = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));

/**
 * Minutes since midnight of a wall clock `YYYY-MM-DD HH:MM` as rota-calendar writes it (a fixed
 * shape, so read by position: this runs for every occurrence of a period view).
 */
const clockOf = (wall: string): number => Number(wall.slice(11, 13)) * 60 + Number(wall.slice(14, 16));

/**
 * docs/rota-domain.md#hour-entries: the occurrence cut at whole wall-clock hours counted from its start
 * (09:30, 10:30, …), the last entry ending at its end. Each cut point is a wall clock resolved in
 * the zone: one the clocks skip moves forward by the gap (what the platform's `gap: 'forward'` is
 * for: entries stay an hour of real time where they can), an ambiguous one is the earlier instant.
 * Entries of no length are dropped and a cut that would run backwards is skipped, so the entries
 * tile [start, end) exactly: on London's spring day 00:00–04:00 gives 3 hours, on its autumn day 5.
 *
 * "Its start" is the occurrence's start as it exists: a timeslot starting in the spring gap starts
 * at the gap's end (rota-calendar), and its hours are counted from there.
 *
 * When the occurrence's real length equals its wall-clock length the zone's offset is the same at
 * both ends, and no zone changes its offset twice within the week a timeslot can span: then every
 * cut is exactly k hours after the start and needs no zone lookup at all. Only occurrences that
 * cross a change ask the platform (and luxon, for the wall clock a moved cut shows).
 */
export function hourEntries(occurrence: TimeslotOccurrence, zone: string): HourCut[] {
  const { start, end, start_wall: startWall, end_wall: endWall } = occurrence;
  if (!(end > start)) return [];
  const shape = shapeOf(occurrence);
  if (shape.steady) {
    // The cuts of a steady occurrence are its shape's, shifted to its start: the wall clocks are
    // made once per shape (the rotas of a view share their dates and times) and the entries share them.
    const walls = steadyWalls(startWall, endWall, shape);
    return walls.offsets.map((offset, i) => ({
      start: start + offset,
      end: i + 1 < walls.offsets.length ? start + walls.offsets[i + 1]! : end,
      startWall: walls.shown[i]!,
      endWall: walls.shown[i + 1]!,
    }));
  }
  const { startDay, endDay, from, wallLength } = shape;
  const [startDate, endDate] = [startWall.slice(0, 10), endWall.slice(0, 10)];
  // Cuts are whole hours after the start, so they all show the start's minutes.
  const minutesShown = startWall.slice(13);
  const entries: HourCut[] = [];
  let entryStart = start;
  let entryWall = `${startWall}:00`;
  for (let minutes = 60; minutes < wallLength; minutes += 60) {
    const wall = from + minutes;
    const day = Math.floor(wall / MINUTES_PER_DAY);
    // Only a timeslot longer than a day has a cut on a date between its own two.
    const date = day === startDay ? startDate : day === endDay ? endDate : dateOfDay(day);
    const time = `${HOURS[Math.floor((wall - day * MINUTES_PER_DAY) / 60)]!}${minutesShown}`;
    const at = wallClockToInstant(date, time, zone, { gap: 'forward' }).getTime();
    if (at <= entryStart || at >= end) continue;
    const moved = instantToWallClock(new Date(at), zone);
    const shown = `${moved.date} ${moved.time}:00`;
    entries.push({ start: entryStart, end: at, startWall: entryWall, endWall: shown });
    [entryStart, entryWall] = [at, shown];
  }
  entries.push({ start: entryStart, end, startWall: entryWall, endWall: `${endWall}:00` });
  return entries;
}

/**
 * An occurrence's wall-clock frame: its start in minutes since 1970-01-01 on the wall clock, its
 * wall-clock length, and whether real time runs as the wall clock does (the offset is the same at
 * both ends, and no zone changes its offset twice within the week a timeslot can span).
 */
interface Shape {
  readonly startDay: number;
  readonly endDay: number;
  readonly from: number;
  readonly wallLength: number;
  readonly steady: boolean;
}

function shapeOf({ start, end, start_wall: startWall, end_wall: endWall }: TimeslotOccurrence): Shape {
  const [startDay, endDay] = [dayOf(startWall.slice(0, 10)), dayOf(endWall.slice(0, 10))];
  const from = startDay * MINUTES_PER_DAY + clockOf(startWall);
  const wallLength = endDay * MINUTES_PER_DAY + clockOf(endWall) - from;
  return { startDay, endDay, from, wallLength, steady: end - start === wallLength * MINUTE_MS };
}

/** A steady occurrence's cuts: each entry's start after the occurrence's (ms), and the wall clocks shown, one more than the entries. */
interface SteadyWalls {
  readonly offsets: readonly number[];
  readonly shown: readonly string[];
}

/**
 * The cuts of steady occurrences by their wall clocks (`start_wall + end_wall`): every cut is
 * exactly k hours after the start, so they depend on nothing else. Bounded, cleared when full.
 */
const steadyCuts = new Map<string, SteadyWalls>();
function steadyWalls(startWall: string, endWall: string, { startDay, endDay, from, wallLength }: Shape): SteadyWalls {
  const key = startWall + endWall;
  let walls = steadyCuts.get(key);
  if (walls) return walls;
  const [startDate, endDate] = [startWall.slice(0, 10), endWall.slice(0, 10)];
  const minutesShown = startWall.slice(13);
  const offsets = [0];
  const shown = [`${startWall}:00`];
  for (let minutes = 60; minutes < wallLength; minutes += 60) {
    const wall = from + minutes;
    const day = Math.floor(wall / MINUTES_PER_DAY);
    const date = day === startDay ? startDate : day === endDay ? endDate : dateOfDay(day);
    offsets.push(minutes * MINUTE_MS);
    shown.push(`${date} ${HOURS[Math.floor((wall - day * MINUTES_PER_DAY) / 60)]!}${minutesShown}:00`);
  }
  shown.push(`${endWall}:00`);
  walls = { offsets, shown };
  if (steadyCuts.size >= 10_000) steadyCuts.clear();
  steadyCuts.set(key, walls);
  return walls;
}

/**
 * The instants of an occurrence's hour entries without their wall clocks (the status-only path):
 * those of hourEntries, which a steady occurrence needs no zone and no string for.
 */
function cutIntervals(occurrence: TimeslotOccurrence, zone: string): readonly Interval[] {
  const { start, end } = occurrence;
  if (!(end > start)) return [];
  const shape = shapeOf(occurrence);
  if (!shape.steady) return hourEntries(occurrence, zone);
  const cuts: Interval[] = [];
  let entryStart = start;
  for (let minutes = 60; minutes < shape.wallLength; minutes += 60) {
    const at = start + minutes * MINUTE_MS;
    cuts.push({ start: entryStart, end: at });
    entryStart = at;
  }
  cuts.push({ start: entryStart, end });
  return cuts;
}

/**
 * A set of shifts as two sorted arrays of instants, starts and ends: the number on duty at t is
 * the starts at or before t less the ends at or before t (half-open intervals), so a sweep over
 * both answers every entry of a day in one pass.
 */
interface Duty {
  readonly starts: Float64Array;
  readonly ends: Float64Array;
}

function dutyOf(shifts: readonly Interval[]): Duty {
  const kept = shifts.filter((s) => s.end > s.start);
  const starts = new Float64Array(kept.length);
  const ends = new Float64Array(kept.length);
  kept.forEach((s, i) => {
    starts[i] = s.start;
    ends[i] = s.end;
  });
  return { starts: starts.sort(), ends: ends.sort() };
}

/**
 * The fewest on duty at any moment of each interval; `intervals` in start order and not
 * overlapping (the entries of one occurrence), so the sweep never goes back. The count only
 * changes where a shift starts or ends: it is read at the interval's start and after each change
 * inside it, all changes at one instant applied together (a shift ending at 09:30 and one starting
 * at 09:30 leave nobody's moment uncovered).
 */
function fewestEach(intervals: readonly Interval[], { starts, ends }: Duty): number[] {
  const counts: number[] = [];
  let [s, e] = [0, 0];
  for (const { start, end } of intervals) {
    while (s < starts.length && starts[s]! <= start) s++;
    while (e < ends.length && ends[e]! <= start) e++;
    let fewest = s - e;
    for (;;) {
      const next = Math.min(starts[s] ?? Infinity, ends[e] ?? Infinity);
      if (next >= end || fewest === 0) break;
      while (s < starts.length && starts[s] === next) s++;
      while (e < ends.length && ends[e] === next) e++;
      fewest = Math.min(fewest, s - e);
    }
    counts.push(fewest);
  }
  return counts;
}

/**
 * `shift_count` (docs/rota-domain.md#hour-entries): the fewest volunteers on duty at any moment of
 * `[entry.start, entry.end)`.
 */
export function fewestOnDuty(entry: Interval, shifts: readonly Interval[]): number {
  return fewestEach([entry], dutyOf(shifts))[0]!;
}

function hoursWith(occurrence: TimeslotOccurrence, duty: Duty, zone: string): { cuts: HourCut[]; hours: HourEntry[] } {
  const cuts = hourEntries(occurrence, zone);
  const counts = fewestEach(cuts, duty);
  const hours = cuts.map((cut, i): HourEntry => {
    const count = counts[i]!;
    const status = statusOf(count, occurrence);
    return {
      start_time: cut.startWall,
      end_time: cut.endWall,
      required: requiredFor(count, occurrence),
      shift_count: count,
      status,
      status_text: STATUS[status],
      min: occurrence.min,
      ideal: occurrence.ideal,
      max: occurrence.max,
    };
  });
  return { cuts, hours };
}

/**
 * The Hour entries (docs/rota-domain.md#hour-entries) of one occurrence. `shifts`: the rota's booked shifts
 * (any timeslot, any that overlap the occurrence; others are harmless), never cancelled ones.
 */
export function hourStatuses(occurrence: TimeslotOccurrence, shifts: readonly Interval[], zone: string): HourEntry[] {
  return hoursWith(occurrence, dutyOf(shifts), zone).hours;
}

const CLOSED: DayCoverage = Object.freeze({ closed: true, status: 0, below_minimum: false, hours: [], timeslots: [] });

/**
 * A rota-day's occurrences (`given`, or timeslotsOn's), or what it is without any: 'closed'
 * (inactive, closed, or no timeslot that day) or 'open', the day whose only timeslot lies wholly in
 * a spring gap: open with no hours (rota-calendar), which isClosedOn tells apart.
 */
function occurrencesOf(
  rota: RotaCalendar,
  date: string,
  zone: string,
  given?: readonly TimeslotOccurrence[],
): readonly TimeslotOccurrence[] | 'closed' | 'open' {
  if (!isActiveOn(rota, date)) return 'closed';
  const occurrences = given ?? timeslotsOn(rota, date, zone);
  if (occurrences.length > 0) return occurrences;
  return isClosedOn(rota, date) ? 'closed' : 'open';
}

/**
 * One rota on one local date: its timeslot occurrences with their hours and `pattern_status`, the
 * day's hours and its status (the lowest of its hours). A closed or inactive rota-day is closed,
 * with no hours and status 0. `shifts`: the rota's booked shifts overlapping that day's
 * occurrences (an overnight one reaches into the next date), cancelled ones left out.
 *
 * `given`, when given, are that date's occurrences as timeslotsOn gives them: the period
 * view takes a rota's whole range from timeslotsBetween once instead of asking date by date.
 */
export function dayCoverage(
  rota: RotaCalendar,
  date: string,
  zone: string,
  shifts: readonly Interval[],
  given?: readonly TimeslotOccurrence[],
): DayCoverage {
  const occurrences = occurrencesOf(rota, date, zone, given);
  if (occurrences === 'closed') return CLOSED;
  if (occurrences === 'open') return { ...CLOSED, closed: false };
  const duty = dutyOf(shifts);
  const timeslots: TimeslotCoverage[] = [];
  const hours: HourEntry[] = [];
  const starts: number[] = [];
  // Timeslots that do not overlap (the usual day) give their hours in start order as they come.
  let inOrder = true;
  let lastEnd = -Infinity;
  for (const occurrence of occurrences) {
    const own = hoursWith(occurrence, duty, zone);
    if (occurrence.start < lastEnd) inOrder = false;
    lastEnd = Math.max(lastEnd, occurrence.end);
    own.cuts.forEach((cut, i) => {
      starts.push(cut.start);
      hours.push(own.hours[i]!);
    });
    const pattern_status = lowestStatus(own.hours.map((h) => h.status));
    timeslots.push({ occurrence, hours: own.hours, pattern_status, pattern_status_text: STATUS[pattern_status] });
  }
  const status = lowestStatus(timeslots.map((t) => t.pattern_status));
  return {
    closed: false,
    status,
    below_minimum: status === -2,
    hours: inOrder ? hours : byStart(hours, starts),
    timeslots,
  };
}

const CLOSED_STATUS: DateStatus = Object.freeze({ closed: true, status: 0, below_minimum: false });
const OPEN_WITHOUT_HOURS: DateStatus = Object.freeze({ closed: false, status: 0, below_minimum: false });

/**
 * What dayCoverage says of a rota-day's status (closed, status, below_minimum) without its hour
 * entries or timeslot records: the basic period view shows no hours, so it needs no wall clock.
 * Each occurrence's status is the lowest of its entries' (0 when it has none), the day's the
 * lowest of its occurrences', as dayCoverage computes them.
 */
export function dayStatus(
  rota: RotaCalendar,
  date: string,
  zone: string,
  shifts: readonly Interval[],
  given?: readonly TimeslotOccurrence[],
): DateStatus {
  const occurrences = occurrencesOf(rota, date, zone, given);
  if (occurrences === 'closed') return CLOSED_STATUS;
  if (occurrences === 'open') return OPEN_WITHOUT_HOURS;
  const duty = dutyOf(shifts);
  let status = Infinity;
  for (const occurrence of occurrences) {
    const cuts = cutIntervals(occurrence, zone);
    let own = cuts.length === 0 ? 0 : Infinity;
    for (const count of fewestEach(cuts, duty)) own = Math.min(own, statusOf(count, occurrence));
    status = Math.min(status, own);
  }
  return { closed: false, status: status as CoverageStatus, below_minimum: status === -2 };
}

/** The hours in the order of their start instants; stable, so at one instant the earlier timeslot's hour comes first. */
function byStart(hours: readonly HourEntry[], starts: readonly number[]): HourEntry[] {
  const order = hours.map((_, i) => i).sort((a, b) => starts[a]! - starts[b]!);
  return order.map((i) => hours[i]!);
}

/**
 * A date across rotas (the period view's Date entry): the lowest status of its open rota-days, and
 * closed when every rota is closed or inactive that date (with no rotas at all, too: nothing is open).
 */
export function dateAcrossRotas(
  days: readonly { readonly closed: boolean; readonly status: number; readonly active: boolean }[],
): DateStatus {
  const status = lowestStatus(days.filter((day) => day.active && !day.closed).map((day) => day.status));
  const closed = days.every((day) => !day.active || day.closed);
  return { status, closed, below_minimum: status === -2 };
}
