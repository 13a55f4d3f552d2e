import type { StreamEvents } from '#app/event-store';
import { ConflictError, type FieldErrors, NotFoundError, ValidationError } from '#app/platform';
import {
  type BookedSpan,
  type BookingRota,
  type BookingUser,
  checkBooking,
  checkCancel,
  overlaps,
} from '../domain/booking-rules.js';
import { addDays, dayNumber } from '../domain/calendar-dates.js';
import { toFieldErrors } from '../domain/refusals.js';
import {
  occurrenceTimes,
  type RecurrenceInput,
  seriesDatesBetween,
  type SeriesWeekday,
  seriesHorizon,
  validateRecurrence,
  weekdaysOf,
} from '../domain/series-dates.js';
import { whyShiftDoesNotFit } from '../domain/shift-fit.js';
import type { CallerReach } from '../rotas.policy.js';
import {
  type RepeatingShiftEvent,
  type ShiftCancelReason,
  type ShiftEvent,
  type ShiftTimesData,
  streamOf,
} from '../rotas.events.js';
import { seriesRule } from './generation.js';
import { type SeriesState, timesOfDay } from './repeating-shift.js';
import type { Booker } from './booking-facts.js';
import { type ShiftState, timesOf } from './shift.js';
import { bookingCaller, spanOf } from './shift-decisions.js';
import { timesData } from './shift-times.js';

/**
 * The changes of a booked shift (docs/rota-domain.md#editing-a-shift, #cancelling): pure decisions over the
 * shift's stream, its series' and the later occurrences', with the facts the handler read after the
 * gates (docs/adr/0008-booking-gates.md).
 */

export type EditMode = 'single' | 'recurring';

/** `PUT /api/rota/shifts/{id}`, its times parsed. */
export interface ChangeRequest {
  readonly times: ShiftTimesData;
  readonly mode: EditMode;
  /** As sent: undefined when absent, null, or an object (validated here). */
  readonly recurrence: unknown;
  /** The overrides of rules 4 and 5, which bind a manager only when they are not given (as on create). */
  readonly ignoreOnHold?: boolean;
  readonly confirmRoleRestriction?: boolean;
}

/** What makes a series' dates: two equal patterns with one first shift give the same dates. */
export interface SeriesPattern {
  readonly frequency: number;
  readonly weekdays: readonly SeriesWeekday[];
  readonly endDate: string | null;
}

/**
 * What an update does, from the shift's series and the body:
 * - `single`: this shift alone (it leaves its series, if any);
 * - `retime`: `recurring` in a series with the same pattern (or none sent): this and the later
 *   occurrences take the new times of day;
 * - `end`: `recurring` with `recurrence_pattern: null`: the series ends at this shift;
 * - `split`: `recurring` with another pattern: the series ends before this shift, a new one starts with it;
 * - `start`: `recurring` with a pattern on a shift of no series: it becomes the first occurrence of one.
 */
export type ChangePlan =
  | { readonly kind: 'single' }
  | { readonly kind: 'retime' | 'end'; readonly seriesId: number }
  | { readonly kind: 'split'; readonly seriesId: number; readonly pattern: SeriesPattern }
  | { readonly kind: 'start'; readonly pattern: SeriesPattern };

/** Whether the occurrences a write was planned for still cover those booked now (read inside it): else it plans again. */
export function listedStill(listed: readonly { id: number }[], now: readonly { id: number }[]): boolean {
  const known = new Set(listed.map((s) => s.id));
  return now.every((s) => known.has(s.id));
}

/** The times of day of a shift: what a series repeats (its end `dayOffset` days after its start date). */
export interface TimesOfDay {
  readonly startTime: string;
  readonly endTime: string;
  readonly dayOffset: number;
}

export const timesOfDayOf = (t: ShiftTimesData): TimesOfDay => ({
  startTime: t.startWall.slice(11),
  endTime: t.endWall.slice(11),
  dayOffset: dayNumber(t.endWall.slice(0, 10)) - dayNumber(t.date),
});

const sameTimesOfDay = (a: TimesOfDay, b: TimesOfDay) =>
  a.startTime === b.startTime && a.endTime === b.endTime && a.dayOffset === b.dayOffset;

/** The occurrence on `date` at these wall-clock times, or null when one of them does not exist that day (the spring gap). */
export function occurrenceAt(date: string, t: TimesOfDay, zone: string): ShiftTimesData | null {
  const found = occurrenceTimes(date, t.startTime, t.endTime, t.dayOffset, zone);
  return 'nonexistent' in found ? null : timesData(found.start, found.end, zone);
}

const patternOf = (r: RecurrenceInput, firstDate: string): SeriesPattern => ({
  frequency: Number(r.recurrence_frequency),
  weekdays: weekdaysOf(r, firstDate),
  endDate: (r.end_date as string | null | undefined) ?? null,
});

const samePattern = (a: SeriesPattern, b: SeriesPattern) =>
  a.frequency === b.frequency &&
  a.endDate === b.endDate &&
  a.weekdays.length === b.weekdays.length &&
  a.weekdays.every((d) => b.weekdays.includes(d));

/**
 * The plan of an update (ChangePlan), or its 422s, all at once: a non-null `recurrence_pattern`
 * with `single`; a recurring edit of a series' shift that moves its date (`start_datetime`: only
 * the times of day change); a pattern that validateRecurrence refuses.
 */
export function planChange(
  shift: { readonly date: string; readonly seriesId: number | null },
  series: SeriesPattern | null,
  request: ChangeRequest,
): ChangePlan {
  const { times, mode, recurrence } = request;
  const errors: FieldErrors = {};
  const given = recurrence !== undefined && recurrence !== null;
  if (given && mode === 'single')
    errors.recurrence_pattern = [
      'The recurrence_pattern must be null or absent with edit_mode single: a single edit takes the shift out of its series.',
    ];
  else if (given) Object.assign(errors, toFieldErrors(validateRecurrence(recurrence, times.date)));
  const seriesId = mode === 'recurring' ? shift.seriesId : null;
  // A single edit needs nothing of the series; a recurring one of a series shift needs its pattern.
  if (seriesId !== null && !series) throw new Error(`Shift of series ${seriesId}, which has no record`);
  if (seriesId !== null && times.date !== shift.date) {
    errors.start_datetime = [
      `A recurring edit keeps the shift's date, ${shift.date}, and changes the times of day; move this shift alone with edit_mode single.`,
    ];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  if (mode === 'single') return { kind: 'single' };
  const pattern = given ? patternOf(recurrence as RecurrenceInput, times.date) : null;
  if (seriesId === null) return pattern ? { kind: 'start', pattern } : { kind: 'single' };
  if (recurrence === null) return { kind: 'end', seriesId };
  if (!pattern || samePattern(pattern, series!)) return { kind: 'retime', seriesId };
  return { kind: 'split', seriesId, pattern };
}

const seriesOfPlan = (plan: ChangePlan): number | null => ('seriesId' in plan ? plan.seriesId : null);

const samePlan = (a: ChangePlan, b: ChangePlan) => a.kind === b.kind && seriesOfPlan(a) === seriesOfPlan(b);

/**
 * The occurrences a recurring edit acts on besides the edited one: booked, still in the series (one
 * edited on its own earlier has left it), dated after the edited shift, and not started
 * (docs/rota-domain.md#shifts-that-no-longer-fit: past shifts are never touched). Rows or states alike.
 */
export function laterOccurrences<
  T extends { readonly id: number; readonly seriesId: number | null; readonly date: string; readonly start: string },
>(shifts: readonly T[], edited: { readonly id: number; readonly date: string }, seriesId: number, now: number): T[] {
  return shifts.filter(
    (s) => s.id !== edited.id && s.seriesId === seriesId && s.date > edited.date && Date.parse(s.start) > now,
  );
}

/** The user of a shift as the access rules see them (only the id matters to a cancel and to checkBookingAccess). */
export const ownerOf = (userId: number): BookingUser => ({
  id: userId,
  inOrganisation: true,
  seesRota: true,
  onHold: false,
  roleProfileIds: [],
});

export const cancellation = (s: ShiftState, reason: ShiftCancelReason): ShiftEvent => ({
  type: 'rotas.ShiftCancelled',
  data: {
    id: s.id,
    organisationId: s.organisationId,
    rotaId: s.rotaId,
    userId: s.userId,
    date: s.date,
    reason,
    sequence: s.sequence + 1,
  },
});

type SeriesEnded = Extract<RepeatingShiftEvent, { type: 'rotas.RepeatingShiftEnded' }>;

/**
 * A series ends after `endDate` (inclusive): RepeatingShiftEnded, `until` brought down to it so no
 * generation is pending past it; null when it already ends on or before that date.
 */
export function endSeries(
  series: SeriesState,
  endDate: string,
  reason: SeriesEnded['data']['reason'],
): SeriesEnded | null {
  if (series.endDate !== null && series.endDate <= endDate) return null;
  return {
    type: 'rotas.RepeatingShiftEnded',
    data: {
      id: series.id,
      organisationId: series.organisationId,
      endDate,
      until: series.until < endDate ? series.until : endDate,
      reason,
    },
  };
}

const moved = (s: ShiftState, times: ShiftTimesData): ShiftEvent => ({
  type: 'rotas.ShiftMoved',
  data: {
    id: s.id,
    organisationId: s.organisationId,
    rotaId: s.rotaId,
    userId: s.userId,
    ...times,
    sequence: s.sequence + 1,
    was: timesOf(s),
  },
});

const seriesChanged = (s: ShiftState, seriesId: number | null): ShiftEvent => ({
  type: 'rotas.ShiftSeriesChanged',
  data: { id: s.id, organisationId: s.organisationId, seriesId },
});

const sameTimes = (a: ShiftTimesData, b: ShiftTimesData) => a.start === b.start && a.end === b.end;

/** What the update handler read, after the gates, for the decision. */
export interface ChangeContext {
  readonly zone: string;
  /** The rota zone's date. */
  readonly today: string;
  /** Epoch ms. */
  readonly now: number;
  readonly rota: BookingRota;
  /** The shift's user (absent: no longer a user of the organisation). */
  readonly booker: Booker | undefined;
  readonly reach: CallerReach;
  /** Booked shifts of the shift's user that may clash with any of the new times; those this change moves or cancels are left out here. */
  readonly userShifts: readonly BookedSpan[];
  /** Booked shifts on the rota on the new date (the edited one is left out here). */
  readonly rotaDayShifts: readonly BookedSpan[];
  /** Drawn for a `split` or a `start`. */
  readonly newSeriesId: number | null;
}

/** The streams' states an update decides on. */
export interface ChangeStates {
  readonly shift: ShiftState | null;
  /** The shift's series, when it has one. */
  readonly series: SeriesState | null;
  /** The occurrences of that series the handler listed (laterOccurrences of the rows it read). */
  readonly later: readonly (ShiftState | null)[];
}

/**
 * Whether the streams as read give the plan the handler listed the streams and gates for (`holds`
 * of the write: else the store plans again). A shift gone or cancelled holds: the decision's 404.
 */
export function changePlanHolds(states: ChangeStates, request: ChangeRequest, expected: ChangePlan): boolean {
  const { shift, series } = states;
  if (!shift || shift.cancelled) return true;
  const plan = planChange(
    shift,
    series && { frequency: series.frequency, weekdays: series.weekdays, endDate: series.endDate },
    request,
  );
  return samePlan(plan, expected);
}

/**
 * `PUT /api/rota/shifts/{id}`. A cancelled (or unknown) shift is a 404. The edited shift is checked
 * as a booking (checkBooking, action `edit`: rule 8 on its current date and its new one), rules 4
 * and 5 included: a manager moving the shift of a user on hold, or without an allowed role, gives
 * ignore_on_hold / confirm_role_restriction as on create (the update body takes them too). Then,
 * by plan (the store has checked it is the one the handler listed the streams for: changePlanHolds):
 * - the shift: ShiftMoved (`sequence` + 1, `was`) when its times change; ShiftSeriesChanged when it
 *   leaves its series (`single`) or starts a new one (`split`, `start`);
 * - `retime`: RepeatingShiftRetimed from this date (future generations take the new times) and each
 *   later occurrence moved to the same wall-clock times on its own date, checked as the worker books
 *   (rules 1–2 and 6; rules 3–5 concern the user and were decided on the edited shift, 7–8 bind no
 *   series): one that no longer fits its rota day, or whose new time does not exist that day, is
 *   cancelled with the reason (as a rota change would cancel it); one whose new times would overlap
 *   another shift of the user refuses the whole request (422 on start_datetime naming the date),
 *   since cancelling a booking the user did not ask to lose would hide the clash;
 * - `end`: RepeatingShiftEnded at this date (reason `ended`), later occurrences cancelled `series_ended`;
 * - `split`: the series ends the day before (reason `split`), later occurrences cancelled
 *   `series_ended`, and a new series starts with this shift (the worker books its occurrences);
 * - `start`: a new series starts with this shift.
 */
export function decideChangeShift(
  states: ChangeStates,
  request: ChangeRequest,
  context: ChangeContext,
): StreamEvents[] {
  const { shift, series } = states;
  if (!shift || shift.cancelled) throw new NotFoundError('Shift');
  const plan = planChange(
    shift,
    series && { frequency: series.frequency, weekdays: series.weekdays, endDate: series.endDate },
    request,
  );
  const seriesId = seriesOfPlan(plan);
  // Occurrences with attendance recorded are left alone, as started ones are (docs/rota-domain.md#attendance).
  const live = states.later.filter((s): s is ShiftState => s !== null && s.cancelled === null && s.attendance === null);
  const later = seriesId === null ? [] : laterOccurrences(live, shift, seriesId, context.now);
  const leaving = new Set([shift.id, ...later.map((s) => s.id)]);
  const taken = context.userShifts.filter((s) => !leaving.has(s.id));
  const { times } = request;
  const span = spanOf(times);
  const booker = context.booker;
  checkBooking({
    action: 'edit',
    rota: context.rota,
    user: {
      id: shift.userId,
      inOrganisation: !!booker,
      seesRota: !!booker?.seen.has(context.rota.teamId),
      onHold: !!booker?.onHold,
      roleProfileIds: [...(booker?.roleProfileIds ?? [])],
    },
    caller: bookingCaller({ reach: context.reach }, context.rota.teamId),
    shift: span,
    current: spanOf(shift),
    userShifts: taken,
    rotaDayShifts: context.rotaDayShifts.filter((s) => s.id !== shift.id),
    ignoreOnHold: request.ignoreOnHold ?? false,
    confirmRoleRestriction: request.confirmRoleRestriction ?? false,
    now: context.now,
  });
  taken.push({ id: shift.id, userId: shift.userId, rotaId: shift.rotaId, ...span });

  const newSeriesId = plan.kind === 'split' || plan.kind === 'start' ? context.newSeriesId : null;
  if ((plan.kind === 'split' || plan.kind === 'start') && newSeriesId === null)
    throw new Error('A new series needs an id drawn before the decision');
  const shiftEvents: ShiftEvent[] = sameTimes(shift, times) ? [] : [moved(shift, times)];
  if (newSeriesId !== null) shiftEvents.push(seriesChanged(shift, newSeriesId));
  else if (plan.kind === 'single' && shift.seriesId !== null) shiftEvents.push(seriesChanged(shift, null));
  const out: StreamEvents[] = [{ streamId: streamOf.shift(shift.id), events: shiftEvents }];

  if (plan.kind === 'retime') out.push(...retime(series!, later, times, taken, context));
  if (plan.kind === 'end' || plan.kind === 'split') {
    const ended =
      plan.kind === 'end'
        ? endSeries(series!, shift.date, 'ended')
        : endSeries(series!, addDays(shift.date, -1), 'split');
    out.push({ streamId: streamOf.series(series!.id), events: ended ? [ended] : [] });
    for (const occurrence of later)
      out.push({ streamId: streamOf.shift(occurrence.id), events: [cancellation(occurrence, 'series_ended')] });
  }
  if (newSeriesId !== null) {
    const pattern = (plan as Extract<ChangePlan, { pattern: SeriesPattern }>).pattern;
    const started: RepeatingShiftEvent = {
      type: 'rotas.RepeatingShiftStarted',
      data: {
        id: newSeriesId,
        organisationId: shift.organisationId,
        userId: shift.userId,
        rotaId: shift.rotaId,
        teamId: shift.teamId,
        frequency: pattern.frequency,
        weekdays: [...pattern.weekdays],
        startDate: times.date,
        endDate: pattern.endDate,
        ...timesOfDayOf(times),
        firstShiftId: shift.id,
        // A split keeps what the series was booked with, and what this request overrides.
        ignoreOnHold: (series?.ignoreOnHold ?? false) || (request.ignoreOnHold ?? false),
        confirmRoleRestriction: (series?.confirmRoleRestriction ?? false) || (request.confirmRoleRestriction ?? false),
        until: seriesHorizon(times.date, context.today, pattern.endDate),
        ...(plan.kind === 'split' && { exceptions: exceptionsAfter(series!, shift.date, later) }),
      },
    };
    out.push({ streamId: streamOf.series(newSeriesId), events: [started] });
  }
  return out.filter((s) => s.events.length > 0);
}

/**
 * The dates after `date` that the series had considered (up to its generatedUntil) and left
 * without an occurrence among `later`, the ones the split cancels: cancelled or edited alone,
 * or skipped. The series split from it keeps them as exceptions (docs/rota-domain.md#splitting-and-exceptions:
 * an exception of a series is never recreated), so it neither books a date the user cancelled again nor a
 * second shift beside one they moved alone.
 */
function exceptionsAfter(series: SeriesState, date: string, later: readonly ShiftState[]): string[] {
  const kept = new Set(later.map((s) => s.date));
  return seriesDatesBetween(seriesRule(series), date, series.generatedUntil).filter((d) => !kept.has(d));
}

/** `retime`: the series' new times from the edited shift's date, and each later occurrence moved (or cancelled) as decideChangeShift says. */
function retime(
  series: SeriesState,
  later: readonly ShiftState[],
  times: ShiftTimesData,
  taken: BookedSpan[],
  context: ChangeContext,
): StreamEvents[] {
  const tod = timesOfDayOf(times);
  const out: StreamEvents[] = [];
  if (!sameTimesOfDay(timesOfDay(series, times.date), tod)) {
    out.push({
      streamId: streamOf.series(series.id),
      events: [
        {
          type: 'rotas.RepeatingShiftRetimed',
          data: { id: series.id, organisationId: series.organisationId, from: times.date, ...tod },
        },
      ],
    });
  }
  const { rota, zone } = context;
  for (const occurrence of [...later].sort((a, b) => a.date.localeCompare(b.date))) {
    const next = occurrenceAt(occurrence.date, tod, zone);
    if (next && sameTimes(occurrence, next)) continue;
    const misfit = next
      ? whyShiftDoesNotFit(rota.calendar, spanOf(next), zone, rota.requireFullTimeslot)
      : 'outside_timeslot';
    if (misfit) {
      out.push({ streamId: streamOf.shift(occurrence.id), events: [cancellation(occurrence, misfit)] });
      continue;
    }
    const span = spanOf(next!);
    if (taken.some((other) => overlaps(other, span))) {
      throw new ValidationError({
        start_datetime: [
          `On ${occurrence.date} the new times would overlap another shift of the user; move or cancel that one first, or edit this shift alone.`,
        ],
      });
    }
    taken.push({ id: occurrence.id, userId: occurrence.userId, rotaId: occurrence.rotaId, ...span });
    out.push({ streamId: streamOf.shift(occurrence.id), events: [moved(occurrence, next!)] });
  }
  return out;
}

/** Who asks to cancel a shift. */
export interface CancelShift {
  readonly reach: CallerReach;
}

export interface CancelShiftContext {
  readonly rota: BookingRota;
  /** Epoch ms. */
  readonly now: number;
}

/**
 * `DELETE /api/rota/shifts/{id}`: this shift only (ShiftCancelled `cancelled`, `sequence` + 1). A
 * cancelled or unknown shift is a 404; access as a booking; rule 8 for a volunteer's own shift
 * (checkCancel). Its series never books the date again: generation only moves forward, so nothing
 * is recorded on the series. A shift with attendance recorded is a 409 until that is cleared
 * (docs/rota-domain.md#attendance).
 */
export function decideCancelShift(
  state: ShiftState | null,
  command: CancelShift,
  context: CancelShiftContext,
): ShiftEvent[] {
  if (!state || state.cancelled) throw new NotFoundError('Shift');
  checkCancel({
    action: 'cancel',
    rota: context.rota,
    user: ownerOf(state.userId),
    caller: bookingCaller(command, context.rota.teamId),
    shift: spanOf(state),
    now: context.now,
  });
  if (state.attendance)
    throw new ConflictError(
      'Attendance is recorded for this shift: clear it (status null) before cancelling the shift.',
    );
  return [cancellation(state, 'cancelled')];
}
