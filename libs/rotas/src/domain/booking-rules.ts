import { ForbiddenError, instantToWallClock, todayIn, ValidationError } from '#app/platform';
import { type RotaCalendar, timeslotsOn } from './rota-calendar.js';
import { type Refusal, refusal } from './refusals.js';
import { type MisfitReason, whyShiftDoesNotFit } from './shift-fit.js';

/**
 * The booking rules of docs/rota-domain.md#booking-rules, numbered as there and checked in that order. Pure: the
 * handler reads the facts (the rota, the user, the caller's reach, the shifts that could clash)
 * before it decides; the database serialises the writers (docs/adr/0008-booking-gates.md).
 *
 */

/** A shift's times: its local start date in the rota zone and its instants (epoch ms), [start, end). */
export interface ShiftSpan {
  readonly date: string;
  readonly start: number;
  readonly end: number;
}

/** A booked shift that may clash with the one decided on (cancelled shifts are never given). */
export interface BookedSpan extends ShiftSpan {
  readonly id: number;
  readonly userId: number;
  readonly rotaId: number;
}

/** The rota as the rules read it. */
export interface BookingRota {
  readonly id: number;
  readonly teamId: number;
  readonly calendar: RotaCalendar;
  /** The organisation's (= the rota's) IANA zone. */
  readonly zone: string;
  readonly selfManage: boolean;
  readonly requireFullTimeslot: boolean;
  readonly restrictedByRole: boolean;
  readonly roleProfileIds: readonly number[];
  readonly allowSameDayAdd: boolean;
  readonly allowSameDayEdit: boolean;
  readonly allowSameDayCancel: boolean;
}

/** The user the shift is for. */
export interface BookingUser {
  readonly id: number;
  /** A user of the rota's organisation (false: unknown or another organisation's). */
  readonly inOrganisation: boolean;
  /** Holds a role in the rota's team or a team above it. */
  readonly seesRota: boolean;
  readonly onHold: boolean;
  /** The role profiles of the roles the user holds (for restricted_by_role). */
  readonly roleProfileIds: readonly number[];
}

/** Who acts. `manager`: manage-rotas or add-user-shifts over the rota's team (policy's isManager). */
export interface BookingCaller {
  readonly userId: number;
  readonly seesRota: boolean;
  readonly manager: boolean;
  /**
   * The worker generating a series' occurrences: checked "as for a manager"
   * (docs/rota-domain.md#booking-rules), with the series' own ignore_on_hold / confirm_role_restriction.
   */
  readonly system?: boolean;
}

export type BookingAction = 'add' | 'edit' | 'cancel';

export interface BookingFacts {
  readonly action: BookingAction;
  readonly rota: BookingRota;
  readonly user: BookingUser;
  readonly caller: BookingCaller;
  /** The times asked for (add, edit); for cancel, the shift's current times. */
  readonly shift: ShiftSpan;
  /** edit and cancel: the shift's current times (rule 8 checks an edit on its current date and its new one). */
  readonly current?: ShiftSpan;
  /** Booked shifts of the user on any rota that could overlap `shift` (the edited shift left out). */
  readonly userShifts: readonly BookedSpan[];
  /** Booked shifts on the rota starting on `shift.date` (the edited shift left out). */
  readonly rotaDayShifts: readonly BookedSpan[];
  readonly ignoreOnHold: boolean;
  readonly confirmRoleRestriction: boolean;
  /**
   * A take-over (docs/rota-domain.md#stand-ins-and-take-overs): the place is handed over, not
   * added, so rule 7 is not applied.
   */
  readonly handOver?: boolean;
  /** Epoch ms. */
  readonly now: number;
}

/** An interval of instants, half-open: [start, end). */
export type Span = Pick<ShiftSpan, 'start' | 'end'>;

/** Half-open: a shift ending at 09:30 and one starting at 09:30 do not overlap. */
export const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;

/**
 * The most spans covering one moment inside `within` (a sweep over their ends). At one instant an
 * end is counted before a start, so spans that only touch never coexist.
 */
export function maxConcurrent(spans: readonly Span[], within: Span): number {
  const edges: Array<[number, 1 | -1]> = [];
  for (const span of spans) {
    const [start, end] = [Math.max(span.start, within.start), Math.min(span.end, within.end)];
    if (start < end) edges.push([start, 1], [end, -1]);
  }
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let [now, most] = [0, 0];
  for (const [, step] of edges) most = Math.max(most, (now += step));
  return most;
}

/**
 * The 403s that come before any rule (docs/rota-domain.md#who-may-do-what): a rota the caller cannot
 * see; another user's shift without being a manager; one's own on a rota that is not self-managed
 * without being a manager. An on-hold volunteer passes here and meets rule 4's 422. The worker
 * booking a series is never refused here: the series' owner was checked when it was posted.
 */
export function checkBookingAccess({
  rota,
  user,
  caller,
}: Pick<BookingFacts, 'action' | 'rota' | 'user' | 'caller'>): void {
  if (caller.system) return;
  if (!caller.seesRota) throw new ForbiddenError('You cannot see this rota.');
  if (caller.manager) return;
  if (user.id !== caller.userId)
    throw new ForbiddenError("Only a manager of this rota may act on another user's shifts.");
  if (!rota.selfManage)
    throw new ForbiddenError('This rota is not self-managed: only a manager may book, edit or cancel shifts on it.');
}

const overrides = (caller: BookingCaller) => caller.manager || caller.system === true;

/** Rules 7 and 8 bind only a volunteer acting on their own shift; managers and the worker are not bound. */
const boundVolunteer = ({ caller, user }: Pick<BookingFacts, 'caller' | 'user'>) =>
  !overrides(caller) && caller.userId === user.id;

function rotaMessage(reason: Exclude<MisfitReason, 'outside_timeslot'>, calendar: RotaCalendar, date: string): string {
  switch (reason) {
    case 'rota_archived':
      return 'This rota is archived.';
    case 'rota_not_started':
      return `This rota starts on ${calendar.start_date}.`;
    case 'rota_ended':
      return `This rota ended on ${calendar.end_date}.`;
    case 'rota_closed':
      return `This rota is closed on ${date}.`;
  }
}

/**
 * The first of rules 1–8 (docs/rota-domain.md#booking-rules) an add or an edit of times breaks, in the documented
 * order, so a shift breaking several names the most basic rule's field; null when all pass.
 */
export function bookingRefusal(facts: BookingFacts): Refusal | null {
  const { rota, user, caller, shift } = facts;
  const occurrences = timeslotsOn(rota.calendar, shift.date, rota.zone);
  const misfit = whyShiftDoesNotFit(rota.calendar, shift, rota.zone, rota.requireFullTimeslot, occurrences);
  if (misfit === 'outside_timeslot') {
    return refusal(
      'start_datetime',
      rota.requireFullTimeslot
        ? 'The shift must cover one timeslot exactly.'
        : 'The shift must lie inside one timeslot.',
    );
  }
  if (misfit) return refusal('rota', rotaMessage(misfit, rota.calendar, shift.date));
  if (!user.inOrganisation) return refusal('user', 'The user is not in this organisation.');
  if (!user.seesRota) return refusal('user', "The user holds no role in this rota's team.");
  if (user.onHold && !(facts.ignoreOnHold && overrides(caller))) return refusal('user', 'The user is on hold.');
  if (
    rota.restrictedByRole &&
    !(facts.confirmRoleRestriction && overrides(caller)) &&
    !user.roleProfileIds.some((id) => rota.roleProfileIds.includes(id))
  ) {
    return refusal('user', 'The user holds no role this rota is restricted to.');
  }
  if (facts.userShifts.some((other) => overlaps(other, shift)))
    return refusal('start_datetime', 'The user already has a shift at that time.');
  if (!boundVolunteer(facts)) return null;
  // Rule 2 passed, so one occurrence holds the shift. Only the moments the new shift covers can
  // change: a timeslot a manager already filled beyond max elsewhere does not stop this booking.
  // Timeslots never overlap, so the rota's shifts met inside the new one's span are its timeslot's.
  const holder = occurrences.find((o) => o.start <= shift.start && shift.end <= o.end)!;
  if (!facts.handOver && maxConcurrent([...facts.rotaDayShifts, shift], shift) > holder.max)
    return refusal('start_datetime', 'The timeslot is full.');
  return sameDayRefusal(
    facts.action,
    rota,
    facts.now,
    facts.action === 'edit' ? [facts.current ?? shift, shift] : [shift],
  );
}

const VERB = { add: 'added', edit: 'edited', cancel: 'cancelled' } as const;

/**
 * Rule 8 for each span (an edit gives its current times and its new ones): not started; on the
 * rota zone's today only with the action's allow_same_day flag; an overnight shift never on its
 * start date (an interface rule: shifts spanning more than one calendar day, whatever the flag).
 */
function sameDayRefusal(
  action: BookingAction,
  rota: BookingRota,
  now: number,
  spans: readonly ShiftSpan[],
): Refusal | null {
  const today = todayIn(rota.zone, new Date(now));
  const allowed = { add: rota.allowSameDayAdd, edit: rota.allowSameDayEdit, cancel: rota.allowSameDayCancel }[action];
  for (const span of spans) {
    if (span.start <= now) return refusal('start_datetime', 'The shift has started.');
    if (span.date !== today) continue;
    // Ends on a later local date, as a timeslot's `overnight` (one ending at 00:00 next day counts).
    if (instantToWallClock(new Date(span.end), rota.zone).date > span.date) {
      return refusal('start_datetime', `Overnight shifts cannot be ${VERB[action]} on the date they start.`);
    }
    if (!allowed) return refusal('start_datetime', `Shifts on today's date cannot be ${VERB[action]} on this rota.`);
  }
  return null;
}

/** checkBookingAccess, then the first broken rule as a 422 keyed `prefix + field` (bulk: `shifts.3.`). */
export function checkBooking(facts: BookingFacts, prefix = ''): void {
  checkBookingAccess(facts);
  throwRefusal(bookingRefusal(facts), prefix);
}

/** What a cancel reads: `shift` holds the shift's current times; no other shift matters. */
export type CancelFacts = Pick<BookingFacts, 'action' | 'rota' | 'user' | 'caller' | 'shift' | 'now'>;

/** A cancel: only rule 8 (with allow_same_day_cancel) on the shift's times, and only for a volunteer's own shift. */
export function cancelRefusal(facts: CancelFacts): Refusal | null {
  return boundVolunteer(facts) ? sameDayRefusal('cancel', facts.rota, facts.now, [facts.shift]) : null;
}

export function checkCancel(facts: CancelFacts, prefix = ''): void {
  checkBookingAccess(facts);
  throwRefusal(cancelRefusal(facts), prefix);
}

function throwRefusal(found: Refusal | null, prefix: string): void {
  if (found) throw new ValidationError({ [prefix + found.field]: [found.message] });
}
