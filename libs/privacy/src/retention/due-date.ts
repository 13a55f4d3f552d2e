import { DateTime } from 'luxon';
import { addCalendarMonths, instantToWallClock, parseCalendarDate } from '#app/platform';

/*
 * When a user falls due for anonymisation (docs/privacy.md#retention). Pure: no clock, no I/O.
 * Dates are `YYYY-MM-DD` in the organisation's zone; instants are Dates.
 */

/** Days before `due_on` the warning goes out. */
export const WARNING_DAYS = 14;

/**
 * `anonymise_users_after` as a number of months: `"0"` (or anything that is not a positive whole
 * number) is never.
 */
export function retentionMonths(setting: unknown): number {
  const n = typeof setting === 'number' ? setting : Number(String(setting ?? '').trim());
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** The local date of an instant in the organisation's zone. */
export function localDate(instant: Date, zone: string): string {
  return instantToWallClock(instant, zone).date;
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate()!;
}

/**
 * The day after the last activity's local date plus `months` calendar months, the day clamped to
 * the shorter month (luxon's `plus({ months })`: 31 January + 1 month = 28/29 February, so due on
 * 1 March).
 */
export function dueOn(lastActivity: Date, zone: string, months: number): string {
  return addDays(addCalendarMonths(localDate(lastActivity, zone), months), 1);
}

/** The start of the day after `date` in `zone`: a shift ending at or after it has not ended on `date`. */
export function endOfDay(date: string, zone: string): Date {
  return DateTime.fromISO(addDays(date, 1), { zone }).startOf('day').toJSDate();
}

/** The activity the read model keeps for one user (docs/privacy.md#retention: "last activity"). */
export interface UserActivity {
  readonly userId: number;
  readonly registeredAt: Date | null;
  readonly lastLoginAt: Date | null;
  readonly lastFinanceChangeAt: Date | null;
  /**
   * The end of their last booked, not cancelled shift. One at or after the end of the sweep's day
   * has not ended then: the user is spared.
   */
  readonly lastShiftEndAt: Date | null;
}

/** The latest of the user's activities (null: none known). */
export function lastActivity(a: UserActivity): Date | null {
  const times = [a.registeredAt, a.lastLoginAt, a.lastFinanceChangeAt, a.lastShiftEndAt]
    .filter((t): t is Date => t !== null)
    .map((t) => t.getTime());
  return times.length ? new Date(Math.max(...times)) : null;
}

/** What a sweep on `asOf` does with one user. */
export type RetentionStep =
  | { readonly kind: 'none' }
  /** A shift of theirs has not ended by the end of `asOf`. */
  | { readonly kind: 'spared' }
  | { readonly kind: 'warn'; readonly lastActivity: string; readonly dueOn: string }
  | { readonly kind: 'anonymise'; readonly lastActivity: string; readonly dueOn: string };

/**
 * A sweep on `asOf` (the organisation's date): anonymise when `due_on` is on or before it; warn when
 * `due_on` is within the next WARNING_DAYS days; nothing otherwise, or when `months` is 0 (never).
 */
export function retentionStep(activity: UserActivity, asOf: string, zone: string, months: number): RetentionStep {
  if (months <= 0 || !parseCalendarDate(asOf)) return { kind: 'none' };
  const latestEnd = activity.lastShiftEndAt;
  if (latestEnd && latestEnd.getTime() >= endOfDay(asOf, zone).getTime()) return { kind: 'spared' };
  const last = lastActivity(activity);
  if (!last) return { kind: 'none' };
  const due = dueOn(last, zone, months);
  const facts = { lastActivity: localDate(last, zone), dueOn: due };
  if (due <= asOf) return { kind: 'anonymise', ...facts };
  if (addDays(due, -WARNING_DAYS) <= asOf) return { kind: 'warn', ...facts };
  return { kind: 'none' };
}
