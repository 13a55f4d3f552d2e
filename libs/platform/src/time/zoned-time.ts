import { DateTime, IANAZone } from 'luxon';

/**
 * Dates, wall-clock times and time zones, all through luxon: no offset arithmetic by hand.
 *
 * - A date is `YYYY-MM-DD` (proleptic Gregorian, years 0001–9999), a time `HH:MM`, a zone an IANA
 *   name (`Europe/London`, or `UTC`).
 * - A wall-clock time in the spring-forward gap does not exist: `wallClockToInstant` refuses it with
 *   a NonexistentWallClockError (callers answer 422 naming their field, see `forField`).
 * - A wall-clock time in the autumn repeat is ambiguous: it means the EARLIER instant. Luxon on its own
 *   picks the offset the zone has at the moment the process first asked about it (its guess), so its
 *   choice depends on the season the server started in; here both candidates are asked for
 *   (`getPossibleOffsets`) and the earlier one taken.
 * - Zones are IANA names (isValidZone); anything else is a RangeError, never the server's own zone.
 */

export interface CalendarDateParts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

export interface WallClock {
  /** `YYYY-MM-DD` */
  readonly date: string;
  /** `HH:MM` */
  readonly time: string;
}

/** A wall-clock time that the zone skips on that date (the clocks go forward over it). */
export class NonexistentWallClockError extends Error {
  constructor(
    readonly date: string,
    readonly time: string,
    readonly zone: string,
  ) {
    super(`${date} ${time} does not exist in ${zone}: the clocks go forward over it.`);
    this.name = new.target.name;
  }

  /** The 422 field message for the field that held the time. */
  messageFor(field: string): string {
    return `The ${field} field is a time that does not exist in ${this.zone} on ${this.date} (the clocks go forward over it).`;
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

const knownZones = new Set<string>();

/**
 * An IANA zone name luxon (ICU) knows: `Area/Location` or `UTC`. Abbreviations (`EST`) and luxon's
 * own specifiers (`local`, `system`, `UTC+3`) are refused. Known names are remembered (there are a
 * few hundred), since asking ICU builds a formatter.
 */
export function isValidZone(zone: unknown): zone is string {
  if (typeof zone !== 'string') return false;
  if (knownZones.has(zone)) return true;
  if (!(zone === 'UTC' || zone.includes('/')) || !IANAZone.isValidZone(zone)) return false;
  knownZones.add(zone);
  return true;
}

function checkZone(zone: string): void {
  if (!isValidZone(zone)) throw new RangeError(`Not an IANA time zone: ${zone}`);
}

/**
 * A strict `YYYY-MM-DD` that exists in the calendar (2024-02-29 but not 2025-02-29, 2026-02-30,
 * 2026-13-01 or 0000-00-00; year 0 is refused too, PostgreSQL has none), else null.
 */
export function parseCalendarDate(text: string): CalendarDateParts | null {
  const match = DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || !DateTime.utc(year, month, day).isValid) return null;
  return { year, month, day };
}

function dateOf(date: string): DateTime {
  const parts = parseCalendarDate(date);
  if (!parts) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${date}`);
  return DateTime.utc(parts.year, parts.month, parts.day);
}

/** The first date the calendar here has (docs/rota-domain.md#times-in-requests): the dates above start at year 1. */
export const FIRST_CALENDAR_DATE = '0001-01-01';
/** The last date the calendar here has (docs/rota-domain.md#times-in-requests): PostgreSQL and ISO 8601 dates stop at it. */
export const LAST_CALENDAR_DATE = '9999-12-31';
const BEFORE_CALENDAR = new Date('0001-01-01T00:00:00Z').getTime();
const PAST_CALENDAR = Date.UTC(10_000, 0, 1);

/** Whether an instant falls within FIRST_CALENDAR_DATE–LAST_CALENDAR_DATE both in UTC and in `zone`. */
export function withinCalendar(instant: Date, zone: string): boolean {
  const ms = instant.getTime();
  if (!Number.isFinite(ms) || ms < BEFORE_CALENDAR || ms >= PAST_CALENDAR) return false;
  checkZone(zone);
  const { year } = DateTime.fromMillis(ms, { zone });
  return year >= 1 && year <= 9999;
}

/** `date` plus `months` whole calendar months (negative: earlier), the day clamped to the shorter month: 2026-03-31 − 1 = 2026-02-28. */
export function addCalendarMonths(date: string, months: number): string {
  if (!Number.isInteger(months)) throw new RangeError(`Not a whole number of months: ${months}`);
  const result = dateOf(date).plus({ months }).toISODate();
  if (!result || !parseCalendarDate(result))
    throw new RangeError(`${date} + ${months} months leaves the years 0001–9999`);
  return result;
}

/** `date` minus `months` whole calendar months, the day clamped (31 March − 1 month = 28/29 February). */
export function monthsBefore(date: string, months: number): string {
  return addCalendarMonths(date, -months);
}

const todays = new Map<string, { minute: number; date: string }>();

/**
 * Today's date (`YYYY-MM-DD`) in a zone. The answer is kept for the current UTC minute (formatting
 * showed up in a benchmark): every zone's offset is a whole number of minutes, so a zone's day only
 * ever begins on a UTC minute boundary. An unknown zone is a RangeError.
 */
export function todayIn(zone: string, now: Date = new Date()): string {
  const ms = now.getTime();
  const minute = Math.floor(ms / 60_000);
  const known = todays.get(zone);
  if (known?.minute === minute) return known.date;
  checkZone(zone);
  const local = DateTime.fromMillis(ms, { zone });
  const date = local.toISODate();
  if (!date) throw new RangeError(`Cannot tell today in ${zone}: ${local.invalidReason ?? 'invalid'}`);
  todays.set(zone, { minute, date });
  return date;
}

export interface WallClockOptions {
  /**
   * A time in the spring-forward gap: `refuse` (the default, inputs) throws NonexistentWallClockError;
   * `forward` takes the instant that wall time would have been had the clocks not changed yet, i.e. the
   * time moved forward by the gap (01:30 on London's spring day is 02:30 BST = 01:30Z), for computed
   * cut points such as hour entries; `first-after` takes the first minute that exists after the gap,
   * the instant the clocks jump (every skipped time of London's spring day is 02:00 BST = 01:00Z), so
   * a computed span that starts or ends in the gap keeps its existing part and loses only the skipped one.
   */
  readonly gap?: 'refuse' | 'forward' | 'first-after';
}

/**
 * The instant of a wall-clock `date` `time` (`HH:MM`) in `zone`. A time the zone skips is refused
 * (see WallClockOptions.gap); a time it repeats is the earlier instant. Malformed input or an unknown
 * zone is a RangeError: callers check formats first.
 *
 * Asking luxon costs some 60 µs a call (its ambiguity check above all), and the rota views convert
 * thousands of timeslot times a request; so a date on which the zone's offset stays put is answered
 * from that offset, kept per zone and date (steadyOffset), and only the days of a change ask luxon.
 */
export function wallClockToInstant(date: string, time: string, zone: string, options: WallClockOptions = {}): Date {
  const clock = TIME.exec(time);
  if (!clock) throw new RangeError(`Not a wall-clock date and time (YYYY-MM-DD, HH:MM): ${date} ${time}`);
  const steady = steadyDayOf(date, zone);
  const minutes = Number(clock[1]) * 60 + Number(clock[2]);
  if (steady.offset !== null) return new Date(steady.midnight + (minutes - steady.offset) * 60_000);
  return askLuxon(steady.day, date, time, zone, options);
}

function askLuxon(day: CalendarDateParts, date: string, time: string, zone: string, options: WallClockOptions): Date {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const wanted = { ...day, hour, minute };
  const local = DateTime.fromObject(wanted, { zone });
  if (!local.isValid) throw new RangeError(`${date} ${time} in ${zone}: ${local.invalidReason ?? 'invalid'}`);
  // Luxon moves a time in the gap forward without a word: it exists only if it reads back unchanged.
  if (wallKey(local) !== wallKey(wanted)) {
    if (options.gap === 'forward') return local.toJSDate();
    if (options.gap === 'first-after') return firstInstantShowing(wanted, local.toMillis(), zone);
    throw new NonexistentWallClockError(date, time, zone);
  }
  // In the repeated hour there are two candidates (one per offset): take the earlier.
  const earliest = Math.min(...local.getPossibleOffsets().map((candidate) => candidate.toMillis()));
  return new Date(earliest);
}

type WallParts = CalendarDateParts & { readonly hour: number; readonly minute: number };

/** A number that orders wall clocks as the calendar does (no instant: a key to compare). */
const wallKey = (w: WallParts) => (((w.year * 100 + w.month) * 100 + w.day) * 100 + w.hour) * 100 + w.minute;

/**
 * The first instant whose wall clock reads `wanted` or later, for a `wanted` time in a gap: the end of
 * the gap. `after` (luxon's answer, which reads the time moved forward by the gap) shows a later wall
 * clock; two days before it the wall clock was earlier, and between the two the wall clock only moves
 * forward, so a search by halves to the minute finds the jump.
 */
function firstInstantShowing(wanted: WallParts, after: number, zone: string): Date {
  let [before, at] = [after - 48 * 3_600_000, after];
  while (at - before > 60_000) {
    const middle = before + Math.floor((at - before) / 120_000) * 60_000;
    if (wallKey(DateTime.fromMillis(middle, { zone })) >= wallKey(wanted)) at = middle;
    else before = middle;
  }
  return new Date(at);
}

interface SteadyDay {
  readonly day: CalendarDateParts;
  /** The UTC instant of the date's midnight read as UTC (the date's wall clock as if the zone were UTC). */
  readonly midnight: number;
  /** The zone's offset in minutes over the whole date, or null when it changes near it (ask luxon). */
  readonly offset: number | null;
}

const steadyDays = new Map<string, SteadyDay>();
const STEADY_DAYS_KEPT = 50_000;
const HOUR_MS = 3_600_000;

/**
 * Whether `zone` keeps one offset over every instant that can show a wall clock of `date`. Offsets
 * run from −12 h to +14 h, so those instants lie between the date's midnight read as UTC less 14 h
 * and its end read as UTC plus 12 h. The offset is sampled at both ends of that window (an hour wider)
 * and in its middle: a zone that changed and changed back between two samples (a day apart) would be
 * missed, and none does in the tz database. Remembered per zone and date (bounded, cleared when full).
 */
function steadyDayOf(date: string, zone: string): SteadyDay {
  const key = `${zone} ${date}`;
  const known = steadyDays.get(key);
  if (known) return known;
  const day = parseCalendarDate(date);
  if (!day) throw new RangeError(`Not a wall-clock date and time (YYYY-MM-DD, HH:MM): ${date}`);
  checkZone(zone);
  const midnight = DateTime.utc(day.year, day.month, day.day).toMillis();
  const iana = IANAZone.create(zone);
  const samples = [midnight - 15 * HOUR_MS, midnight + 12 * HOUR_MS, midnight + 37 * HOUR_MS].map((at) =>
    iana.offset(at),
  );
  const offset = samples.every((o) => o === samples[0] && Number.isInteger(o)) ? samples[0]! : null;
  if (steadyDays.size >= STEADY_DAYS_KEPT) steadyDays.clear();
  const steady = { day, midnight, offset };
  steadyDays.set(key, steady);
  return steady;
}

/**
 * The wall clock (`{ date, time: 'HH:MM' }`) an instant shows in `zone`; seconds are dropped (rota
 * times are whole minutes). As in wallClockToInstant, an instant on a date whose offset stays put
 * (steadyDayOf of its UTC date, whose window holds every instant of that UTC date) is read from that
 * offset; only the days of a change ask luxon (some 30 µs a call, several per shift in a series).
 */
export function instantToWallClock(instant: Date, zone: string): WallClock {
  const ms = instant.getTime();
  const utc = Number.isFinite(ms) ? instant.toISOString() : '';
  if (utc.length === 24) {
    const steady = steadyDayOf(utc.slice(0, 10), zone);
    if (steady.offset !== null) {
      const local = new Date(ms + steady.offset * 60_000).toISOString();
      if (local.length === 24) return { date: local.slice(0, 10), time: local.slice(11, 16) };
    }
  }
  checkZone(zone);
  const local = DateTime.fromJSDate(instant, { zone });
  const date = local.toISODate();
  if (!date) throw new RangeError(`Cannot read ${String(instant)} in ${zone}: ${local.invalidReason ?? 'invalid'}`);
  return { date, time: local.toFormat('HH:mm') };
}
