import { type Refusal, refusal } from './refusals.js';

/**
 * The weekly timeslot: what a shift pattern holds and what a rota's timeslot version holds (with
 * ids). Times are wall-clock minutes in the rota's zone; the week is counted in minutes from Monday
 * 00:00, so a timeslot is an arc of that 7-day circle and the wrap-around (Sunday into Monday) is
 * plain modular arithmetic on wall-clock minutes (never on instants: that is rota-calendar's job).
 */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const MINUTES_PER_DAY = 24 * 60;
export const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;
/** docs/rota-domain.md#shift-patterns: a pattern (and a written timeslot set) holds at most 200 timeslots. */
export const MAX_TIMESLOTS = 200;

export interface Staffing {
  readonly min: number;
  readonly ideal: number;
  readonly max: number;
}

export interface WeeklyTimeslot extends Staffing {
  readonly weekday_start: Weekday;
  /** `HH:MM` */
  readonly start_time: string;
  readonly weekday_end: Weekday;
  /** `HH:MM`; the timeslot ends at the first `weekday_end` `end_time` after its start. */
  readonly end_time: string;
}

/** A timeslot of a rota's version: ids are shown in views and carried by events. */
export interface RotaTimeslot extends WeeklyTimeslot {
  readonly id: number;
}

export const isWeekday = (value: unknown): value is Weekday =>
  typeof value === 'string' && (WEEKDAYS as readonly string[]).includes(value);

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)(?::00)?$/;

/**
 * Minutes since midnight of `HH:MM` (00:00–23:59), or null. `HH:MM:00` is taken too, since views
 * show timeslot times as `HH:MM:SS` and a client may send back what it read; other seconds are
 * refused (rota times are whole minutes).
 */
export function clockMinutes(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = CLOCK.exec(value);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** `HH:MM` of minutes since midnight (0–1439). */
export const clockTime = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The minute of the week (0 = Monday 00:00) of a weekday and an `HH:MM` time. */
export function weekMinute(weekday: Weekday, time: string): number {
  const minutes = clockMinutes(time);
  if (minutes === null) throw new RangeError(`Not a time (HH:MM): ${time}`);
  return WEEKDAYS.indexOf(weekday) * MINUTES_PER_DAY + minutes;
}

/**
 * Wall-clock minutes from a timeslot's start to the first `weekday_end` `end_time` after it:
 * 1 … 10079, or 0 when end and start are the same minute of the week (refused by the rules).
 */
export function wallMinutes(
  slot: Pick<WeeklyTimeslot, 'weekday_start' | 'start_time' | 'weekday_end' | 'end_time'>,
): number {
  const length = weekMinute(slot.weekday_end, slot.end_time) - weekMinute(slot.weekday_start, slot.start_time);
  return (length + MINUTES_PER_WEEK) % MINUTES_PER_WEEK;
}

/** An arc of the week: its first minute and how many minutes it lasts (half-open, may wrap past Sunday). */
export interface WeekArc {
  readonly start: number;
  readonly minutes: number;
}

export const arcOf = (slot: WeeklyTimeslot): WeekArc => ({
  start: weekMinute(slot.weekday_start, slot.start_time),
  minutes: wallMinutes(slot),
});

/** Whether two arcs share a minute, the week's wrap-around included (half-open: touching ends do not). */
export function arcsOverlap(a: WeekArc, b: WeekArc): boolean {
  const fromAToB = (b.start - a.start + MINUTES_PER_WEEK) % MINUTES_PER_WEEK;
  const fromBToA = (a.start - b.start + MINUTES_PER_WEEK) % MINUTES_PER_WEEK;
  return fromAToB < a.minutes || fromBToA < b.minutes;
}

/**
 * For each arc that overlaps one listed before it, the pair [earlier, later] (indexes into `arcs`),
 * naming the first such earlier arc. Pairwise: callers hold at most MAX_TIMESLOTS arcs.
 */
export function overlapsWithEarlier(arcs: readonly WeekArc[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let later = 1; later < arcs.length; later++) {
    const earlier = arcs.slice(0, later).findIndex((arc) => arcsOverlap(arc, arcs[later]!));
    if (earlier >= 0) pairs.push([earlier, later]);
  }
  return pairs;
}

/** A staffing number as sent: absent (undefined or null), else it must be a whole number ≥ 0. */
export function staffingNumberRefusal(value: unknown, field: string): Refusal | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value))
    return refusal(field, `The ${field} field must be an integer.`);
  if (value < 0) return refusal(field, `The ${field} field must be at least 0.`);
  return null;
}

/**
 * docs/rota-domain.md#shift-patterns: min ≤ ideal ≤ max and max ≥ 1 (equal numbers allowed: a one-person
 * timeslot is 1/1/1). `fields` names where each number was written; of a pair out of order the lower one is blamed,
 * unless only the higher one was written in the timeslot itself (the other `inherited` from the
 * pattern): then the timeslot's own number is.
 */
export function staffingOrderRefusals(
  staffing: Staffing,
  fields: Record<keyof Staffing, string>,
  inherited: Partial<Record<keyof Staffing, boolean>> = {},
): Refusal[] {
  const refusals: Refusal[] = [];
  if (staffing.max < 1) refusals.push(refusal(fields.max, `The ${fields.max} field must be at least 1.`));
  for (const [low, high] of [
    ['min', 'ideal'],
    ['ideal', 'max'],
  ] as const) {
    if (staffing[low] <= staffing[high]) continue;
    if (inherited[low] && !inherited[high])
      refusals.push(refusal(fields[high], `The ${fields[high]} field must not be less than ${fields[low]}.`));
    else refusals.push(refusal(fields[low], `The ${fields[low]} field must not be greater than ${fields[high]}.`));
  }
  return refusals;
}

/** Pattern timeslot entry order for views and events: by start in the week (Monday 00:00 first). */
export function byWeekStart<T extends WeeklyTimeslot>(slots: readonly T[]): T[] {
  return [...slots].sort(
    (a, b) => weekMinute(a.weekday_start, a.start_time) - weekMinute(b.weekday_start, b.start_time),
  );
}
