import { parseCalendarDate } from '#app/platform';
import { WEEKDAYS, type Weekday } from './weekly-timeslots.js';

/**
 * Calendar dates (`YYYY-MM-DD`) counted as whole days: no time zone and no clock is involved, so
 * this is date arithmetic, not offset arithmetic (instants go through the platform's time module).
 * Day numbers count from 1970-01-01 (a Thursday). These are general and could move to
 * libs/platform/src/time once its index exports them.
 */
const DAY_MS = 86_400_000;

/** Days since 1970-01-01; a RangeError for anything but a calendar date. */
export function dayNumber(date: string): number {
  const parts = parseCalendarDate(date);
  if (!parts) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${date}`);
  const day = new Date(0);
  day.setUTCFullYear(parts.year, parts.month - 1, parts.day); // Date.UTC would read years 0–99 as 1900–1999
  return Math.round(day.getTime() / DAY_MS);
}

/** The calendar date of a day number. */
export const dateOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** `date` plus `days` (negative: earlier). */
export const addDays = (date: string, days: number): string => dateOfDay(dayNumber(date) + days);

/** The weekday of a day number (1970-01-01 was a Thursday). */
export const weekdayOfDay = (day: number): Weekday => WEEKDAYS[(((day + 3) % 7) + 7) % 7]!;

export const weekdayOf = (date: string): Weekday => weekdayOfDay(dayNumber(date));

/** Whether `text` is a calendar date, for the rules' refusals. */
export const isCalendarDate = (text: unknown): text is string =>
  typeof text === 'string' && parseCalendarDate(text) !== null;
