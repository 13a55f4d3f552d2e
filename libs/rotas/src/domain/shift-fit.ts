import { isActiveOn, isClosedOn, type RotaCalendar, type TimeslotOccurrence, timeslotsOn } from './rota-calendar.js';
import { weekdayOf } from './calendar-dates.js';
import { versionOn } from './timeslot-timeline.js';

/** A shift's times: its local start date in the rota zone and its instants, [start, end). */
export interface ShiftTimes {
  readonly date: string;
  readonly start: number | Date;
  readonly end: number | Date;
}

/**
 * Why a shift does not fit a rota, in the order the booking rules check (docs/rota-domain.md#booking-rules,
 * rules 1 and 2): the first four are the rota's day (a 422 naming `rota` when booking), `outside_timeslot` the
 * shift's times (naming `start_datetime`). As cancel reasons they read: archived, ended, closed,
 * no timeslot holds it any more.
 */
export type MisfitReason = 'rota_archived' | 'rota_not_started' | 'rota_ended' | 'rota_closed' | 'outside_timeslot';

const ms = (instant: number | Date) => (typeof instant === 'number' ? instant : instant.getTime());

/**
 * Null when the shift fits: the rota is active and not closed on the shift's date, and the shift
 * lies inside one timeslot occurrence of that date (`start ≤ shift.start`, `shift.end ≤ end`: the
 * intervals are half-open), or covers it exactly when `requireFullTimeslot`. Occurrences of that
 * date are those starting on it: a shift starting after midnight inside the previous evening's
 * overnight timeslot does not fit (docs/rota-domain.md#overnight:
 * a timeslot belongs to the date it starts on).
 */
export function whyShiftDoesNotFit(
  rota: RotaCalendar,
  shift: ShiftTimes,
  zone: string,
  requireFullTimeslot: boolean,
  occurrences?: readonly TimeslotOccurrence[],
): MisfitReason | null {
  if (rota.archived) return 'rota_archived';
  if (shift.date < rota.start_date) return 'rota_not_started';
  if (rota.end_date !== null && shift.date > rota.end_date) return 'rota_ended';
  if (isClosedOn(rota, shift.date)) return 'rota_closed';
  const [start, end] = [ms(shift.start), ms(shift.end)];
  const fits = (o: TimeslotOccurrence) =>
    requireFullTimeslot ? o.start === start && o.end === end : o.start <= start && end <= o.end && start < end;
  return (occurrences ?? timeslotsOn(rota, shift.date, zone)).some(fits) ? null : 'outside_timeslot';
}

export const stillFits = (rota: RotaCalendar, shift: ShiftTimes, zone: string, requireFullTimeslot: boolean): boolean =>
  whyShiftDoesNotFit(rota, shift, zone, requireFullTimeslot) === null;

/**
 * Whether a change (timeslot write, replace, close, reopen, end date, archive) touched a date: the
 * rota's activity, its closure, or the times of the timeslots starting that date differ. Numbers
 * (min/ideal/max) and ids do not matter to a shift's fit.
 */
export function dayChanged(before: RotaCalendar, after: RotaCalendar, date: string): boolean {
  if (isActiveOn(before, date) !== isActiveOn(after, date)) return true;
  if (before.closed_dates.has(date) !== after.closed_dates.has(date)) return true;
  const [was, is] = [versionOn(before.timeline, date), versionOn(after.timeline, date)];
  if (was === is) return false;
  const weekday = weekdayOf(date);
  const times = (slots: typeof was) =>
    (slots?.timeslots ?? [])
      .filter((s) => s.weekday_start === weekday)
      .map((s) => `${s.start_time} ${s.weekday_end} ${s.end_time}`)
      .sort()
      .join('|');
  return times(was) !== times(is);
}

export interface BookedShift extends ShiftTimes {
  readonly id: number;
}

export interface MisfitContext {
  /** The rota zone. */
  readonly zone: string;
  readonly requireFullTimeslot: boolean;
  /** A shift starting at or before now has started: it is in the past and never touched. */
  readonly now: number | Date;
  /**
   * The rota before the change, when the caller has it: then only shifts on dates the change
   * touched (dayChanged) are looked at, so a shift a manager booked over the rules on an
   * untouched date stays. Without it, every shift given is looked at: pass those from the
   * change's first affected date on.
   */
  readonly before?: RotaCalendar | null;
}

export interface Misfit {
  readonly shift_id: number;
  readonly reason: MisfitReason;
}

/**
 * docs/rota-domain.md#shifts-that-no-longer-fit: of a rota's booked shifts, those that have not started,
 * (with `before`) lie on a date the change touched, and do not fit the rota after the change,
 * each with its reason, in the order given. Occurrences are computed once per date.
 */
export function shiftsThatNoLongerFit(
  after: RotaCalendar,
  shifts: readonly BookedShift[],
  context: MisfitContext,
): Misfit[] {
  const { zone, requireFullTimeslot, before } = context;
  const now = ms(context.now);
  const byDate = new Map<string, TimeslotOccurrence[]>();
  const occurrencesOn = (date: string) =>
    byDate.get(date) ?? byDate.set(date, timeslotsOn(after, date, zone)).get(date)!;
  return shifts.flatMap((shift) => {
    if (ms(shift.start) <= now || (before && !dayChanged(before, after, shift.date))) return [];
    const reason = whyShiftDoesNotFit(after, shift, zone, requireFullTimeslot, occurrencesOn(shift.date));
    return reason ? [{ shift_id: shift.id, reason }] : [];
  });
}
