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

/** `date` plus `months` whole calendar months (negative: earlier), the day clamped to the shorter month: 2026-03-31 − 1 = 2026-02-28. */
export function addCalendarMonths(date: string, months: number): string {
  if (!Number.isInteger(months)) throw new RangeError(`Not a whole number of months: ${months}`);
  const result = dateOf(date).plus({ months }).toISODate();
  if (!result || !parseCalendarDate(result)) throw new RangeError(`${date} + ${months} months leaves the years 0001–9999`);
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
   * cut points such as hour entries.
   */
  readonly gap?: 'refuse' | 'forward';
}

/**
 * The instant of a wall-clock `date` `time` (`HH:MM`) in `zone`. A time the zone skips is refused
 * (see WallClockOptions.gap); a time it repeats is the earlier instant. Malformed input or an unknown
 * zone is a RangeError: callers check formats first.
 */
export function wallClockToInstant(date: string, time: string, zone: string, options: WallClockOptions = {}): Date {
  const day = parseCalendarDate(date);
  const clock = TIME.exec(time);
  if (!day || !clock) throw new RangeError(`Not a wall-clock date and time (YYYY-MM-DD, HH:MM): ${date} ${time}`);
  checkZone(zone);
  const wanted = { ...day, hour: Number(clock[1]), minute: Number(clock[2]) };
  const local = DateTime.fromObject(wanted, { zone });
  if (!local.isValid) throw new RangeError(`${date} ${time} in ${zone}: ${local.invalidReason ?? 'invalid'}`);
  // Luxon moves a time in the gap forward without a word: it exists only if it reads back unchanged.
  const { year, month, day: d, hour, minute } = local;
  if (year !== wanted.year || month !== wanted.month || d !== wanted.day || hour !== wanted.hour || minute !== wanted.minute) {
    if (options.gap === 'forward') return local.toJSDate();
    throw new NonexistentWallClockError(date, time, zone);
  }
  // In the repeated hour there are two candidates (one per offset): take the earlier.
  const earliest = Math.min(...local.getPossibleOffsets().map((candidate) => candidate.toMillis()));
  return new Date(earliest);
}

/** The wall clock (`{ date, time: 'HH:MM' }`) an instant shows in `zone`; seconds are dropped (rota times are whole minutes). */
export function instantToWallClock(instant: Date, zone: string): WallClock {
  checkZone(zone);
  const local = DateTime.fromJSDate(instant, { zone });
  const date = local.toISODate();
  if (!date) throw new RangeError(`Cannot read ${String(instant)} in ${zone}: ${local.invalidReason ?? 'invalid'}`);
  return { date, time: local.toFormat('HH:mm') };
}
