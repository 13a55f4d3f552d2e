import {
  addCalendarMonths,
  LAST_CALENDAR_DATE,
  NonexistentWallClockError,
  wallClockToInstant,
  withinCalendar,
} from '#app/platform';
import { addDays, dateOfDay, dayNumber, isCalendarDate, weekdayOf, weekdayOfDay } from './calendar-dates.js';
import { type Refusal, refusal, requiredMessage } from './refusals.js';
import { WEEKDAYS } from './weekly-timeslots.js';

/**
 * The date maths of repeating shifts (docs/rota-domain.md#repeating-shifts and
 * #clock-changes): which local dates a series has, how far ahead it is booked, and the instants of one
 * occurrence. Pure: "today" is passed in, never read, and never an anchor for the week count.
 */

/** The recurrence pattern's weekday keys, Monday first (same order as weekly-timeslots' WEEKDAYS). */
export const SERIES_WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
/** A weekday as recurrence patterns name it (`mon` … `sun`); timeslots use the long names. */
export type SeriesWeekday = (typeof SERIES_WEEKDAYS)[number];

export const MAX_FREQUENCY = 52;
/** docs/rota-domain.md#generation: occurrences are booked up to six calendar months ahead. */
export const HORIZON_MONTHS = 6;

export interface SeriesRule {
  /** `YYYY-MM-DD`, the first shift's local date. */
  readonly firstDate: string;
  /** Every n weeks, 1–52, counted from the Monday of firstDate's week. */
  readonly frequency: number;
  /** Non-empty: callers store the first shift's weekday when none was chosen (weekdaysOf). */
  readonly weekdays: readonly SeriesWeekday[];
  /** Inclusive; null: open-ended. */
  readonly endDate: string | null;
}

/** The series weekday of a date. */
export const seriesWeekdayOf = (date: string): SeriesWeekday => SERIES_WEEKDAYS[WEEKDAYS.indexOf(weekdayOf(date))]!;

/**
 * Every occurrence date d of the series with `after` < d ≤ `until` (both `YYYY-MM-DD`), in order:
 * firstDate ≤ d ≤ endDate, d on a selected weekday, in a selected week. Weeks are counted in whole
 * weeks from the Monday of firstDate's week (week k is selected when k % frequency === 0), whatever
 * `after` is, so a fortnightly series stays fortnightly however the generator slices the range.
 * Only selected weeks are visited: the work is proportional to the dates returned (plus one week).
 */
export function seriesDatesBetween(rule: SeriesRule, after: string, until: string): string[] {
  const { frequency, weekdays } = rule;
  if (!Number.isInteger(frequency) || frequency < 1 || frequency > MAX_FREQUENCY)
    throw new RangeError(`Not a series frequency (1–${MAX_FREQUENCY}): ${frequency}`);
  if (weekdays.length === 0)
    throw new RangeError("A series needs at least one weekday (the first shift's when none was chosen).");
  const first = dayNumber(rule.firstDate);
  const low = Math.max(dayNumber(after) + 1, first);
  const high = rule.endDate === null ? dayNumber(until) : Math.min(dayNumber(until), dayNumber(rule.endDate));
  if (low > high) return [];
  const offsets = [...new Set(weekdays.map((day) => SERIES_WEEKDAYS.indexOf(day)))].sort((a, b) => a - b);
  if (offsets.includes(-1)) throw new RangeError(`Not a series weekday (mon … sun): ${weekdays.join(', ')}`);
  const anchor = first - WEEKDAYS.indexOf(weekdayOfDay(first)); // the Monday of the first shift's week
  // The first selected week that can hold `low`: low's week, rounded up to a multiple of frequency.
  const lowWeek = Math.floor((low - anchor) / 7);
  const dates: string[] = [];
  for (let week = Math.ceil(lowWeek / frequency) * frequency; anchor + 7 * week <= high; week += frequency) {
    for (const offset of offsets) {
      const day = anchor + 7 * week + offset;
      if (day >= low && day <= high) dates.push(dateOfDay(day));
    }
  }
  return dates;
}

/**
 * The last date a series is booked up to: six calendar months after the first shift's date
 * (clamped at a month's end: 2027-08-31 → 2028-02-29), or six months after `today` once the daily
 * extension has overtaken that, whichever is later; `endDate` when it is sooner.
 */
export function seriesHorizon(firstDate: string, today: string, endDate: string | null): string {
  const fromFirst = monthsAheadOrLast(firstDate);
  const fromToday = monthsAheadOrLast(today);
  const horizon = fromToday > fromFirst ? fromToday : fromFirst;
  return endDate !== null && endDate < horizon ? endDate : horizon;
}

/** HORIZON_MONTHS after `date`, or the calendar's last day when that is past it (seriesPastCalendar refuses such a series). */
function monthsAheadOrLast(date: string): string {
  try {
    return addCalendarMonths(date, HORIZON_MONTHS);
  } catch {
    return LAST_CALENDAR_DATE;
  }
}

/**
 * docs/rota-domain.md#times-in-requests: a series whose booked part would run past the calendar's last
 * day is refused, naming `end_date`. Its last date is `end_date`, or (open-ended) six months after the
 * first shift; an occurrence there, at the first shift's times, must end by LAST_CALENDAR_DATE in UTC
 * and in the zone. For a pattern validateRecurrence accepted; `first` is the first shift's wall clocks.
 */
export function seriesPastCalendar(
  pattern: RecurrenceInput,
  first: { readonly startWall: string; readonly endWall: string },
  zone: string,
  prefix = 'recurrence_pattern.',
): Refusal[] {
  const [firstDate, startTime] = first.startWall.split(' ') as [string, string];
  const [endDate, endTime] = first.endWall.split(' ') as [string, string];
  const given = typeof pattern.end_date === 'string' ? pattern.end_date : null;
  const last = given ?? monthsAheadOrLast(firstDate);
  const lastEnd = dayNumber(last) + dayNumber(endDate) - dayNumber(firstDate);
  // Open-ended and clamped: six months ahead is already past the last day.
  const booked = given !== null || last < LAST_CALENDAR_DATE;
  if (
    booked &&
    lastEnd <= dayNumber(LAST_CALENDAR_DATE) &&
    endsWithin(last, startTime, endTime, lastEnd - dayNumber(last), zone)
  )
    return [];
  const field = `${prefix}end_date`;
  return [
    refusal(
      field,
      given === null
        ? `The ${field} field must be given: an open-ended series from ${firstDate} would be booked past ${LAST_CALENDAR_DATE}.`
        : `The ${field} field must leave the series' last shift ending on or before ${LAST_CALENDAR_DATE}, ` +
            "in UTC and in the organisation's time zone.",
    ),
  ];
}

function endsWithin(date: string, startTime: string, endTime: string, dayOffset: number, zone: string): boolean {
  try {
    const times = occurrenceTimes(date, startTime, endTime, dayOffset, zone);
    return 'end' in times ? withinCalendar(times.end, zone) : true;
  } catch {
    return false;
  }
}

export type OccurrenceTimes = { readonly start: Date; readonly end: Date } | { readonly nonexistent: 'start' | 'end' };

/**
 * The instants of the occurrence on `date`: it starts at wall clock `date` `startTime` and ends at
 * (`date` + `dayOffset` days) `endTime` in `zone`, so wall-clock times hold across clock changes and
 * the real length follows them (22:00–06:00 lasts 7 h on the spring night, 9 h on the autumn one).
 * A time in the spring gap does not exist: `{ nonexistent }` names which end (the generator skips
 * that date with a reason); an ambiguous autumn time is the earlier instant (wallClockToInstant).
 * A malformed input, an unknown zone or an end not after the start is a RangeError (the first shift
 * was valid, so its series' occurrences are too).
 */
export function occurrenceTimes(
  date: string,
  startTime: string,
  endTime: string,
  dayOffset: number,
  zone: string,
): OccurrenceTimes {
  if (!Number.isInteger(dayOffset) || dayOffset < 0)
    throw new RangeError(`Not a day offset (a whole number of days, 0 or more): ${dayOffset}`);
  const start = existing(date, startTime, zone);
  if (!start) return { nonexistent: 'start' };
  const endDate = addDays(date, dayOffset);
  const end = existing(endDate, endTime, zone);
  if (!end) return { nonexistent: 'end' };
  if (end <= start)
    throw new RangeError(
      `An occurrence ending at ${endDate} ${endTime} does not end after its start, ${date} ${startTime}.`,
    );
  return { start, end };
}

function existing(date: string, time: string, zone: string): Date | null {
  try {
    return wallClockToInstant(date, time, zone);
  } catch (error) {
    if (error instanceof NonexistentWallClockError) return null;
    throw error;
  }
}

/** The recurrence_pattern body as sent: every field unchecked. */
export type RecurrenceInput = {
  readonly [key in 'recurrence_period' | 'recurrence_frequency' | 'end_date' | SeriesWeekday]?: unknown;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isFlag = (value: unknown): boolean => value === 0 || value === 1 || typeof value === 'boolean';
const isSet = (value: unknown): boolean => value === 1 || value === true;

/**
 * The recurrence pattern's weekdays; none set: the first shift's weekday
 * (docs/rota-domain.md#the-recurrence-pattern). Flags are
 * 1/true (set) or anything else (not set): check them with validateRecurrence first.
 */
export function weekdaysOf(pattern: RecurrenceInput, firstDate: string): SeriesWeekday[] {
  const chosen = SERIES_WEEKDAYS.filter((day) => isSet(pattern[day]));
  return chosen.length ? chosen : [seriesWeekdayOf(firstDate)];
}

/**
 * The refusals of a recurrence pattern for a series whose first shift is on `firstDate` (a valid
 * date: the shift's own checks come first), keyed `recurrence_pattern.recurrence_period` and so on:
 * period `week`, frequency an integer 1–52, each weekday flag 0/1 or a boolean (absent or null: 0),
 * end_date null or a date not before the first shift, and the first shift on a selected weekday
 * when any is selected (keyed `recurrence_pattern`).
 */
export function validateRecurrence(pattern: unknown, firstDate: string, prefix = 'recurrence_pattern.'): Refusal[] {
  const whole = prefix.replace(/\.$/, '');
  if (!isObject(pattern)) return [refusal(whole, `The ${whole} field must be an object or null.`)];
  const refusals: Refusal[] = [];
  const field = (name: string) => `${prefix}${name}`;

  const period = pattern.recurrence_period;
  if (period === undefined || period === null)
    refusals.push(refusal(field('recurrence_period'), requiredMessage(field('recurrence_period'))));
  else if (period !== 'week')
    refusals.push(
      refusal(
        field('recurrence_period'),
        `The ${field('recurrence_period')} field must be week (shifts repeat every n weeks).`,
      ),
    );

  const frequency = pattern.recurrence_frequency;
  if (frequency === undefined || frequency === null)
    refusals.push(refusal(field('recurrence_frequency'), requiredMessage(field('recurrence_frequency'))));
  else if (!Number.isInteger(frequency) || (frequency as number) < 1 || (frequency as number) > MAX_FREQUENCY) {
    refusals.push(
      refusal(
        field('recurrence_frequency'),
        `The ${field('recurrence_frequency')} field must be a whole number from 1 to ${MAX_FREQUENCY}.`,
      ),
    );
  }

  const badFlags = SERIES_WEEKDAYS.filter(
    (day) => pattern[day] !== undefined && pattern[day] !== null && !isFlag(pattern[day]),
  );
  for (const day of badFlags) refusals.push(refusal(field(day), `The ${field(day)} field must be 0 or 1.`));

  const end = pattern.end_date;
  if (end !== undefined && end !== null) {
    if (!isCalendarDate(end))
      refusals.push(refusal(field('end_date'), `The ${field('end_date')} field must be a date (YYYY-MM-DD) or null.`));
    else if (isCalendarDate(firstDate) && end < firstDate)
      refusals.push(
        refusal(
          field('end_date'),
          `The ${field('end_date')} field must be a date on or after the first shift's date, ${firstDate}.`,
        ),
      );
  }

  if (!badFlags.length && isCalendarDate(firstDate)) {
    const chosen = SERIES_WEEKDAYS.filter((day) => isSet(pattern[day]));
    const day = seriesWeekdayOf(firstDate);
    if (chosen.length && !chosen.includes(day)) {
      const name = weekdayOf(firstDate);
      refusals.push(
        refusal(
          whole,
          `The first shift is on a ${name[0]!.toUpperCase()}${name.slice(1)} (${firstDate}), ` +
            `a weekday the ${whole} does not select: select ${day} too, or move the shift.`,
        ),
      );
    }
  }
  return refusals;
}
