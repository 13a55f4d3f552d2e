import {
  type BookedSpan,
  type BookingFacts,
  bookingRefusal,
  type BookingRota,
  overlaps,
} from '../domain/booking-rules.js';
import { occurrenceTimes, seriesDatesBetween, seriesHorizon, type SeriesRule } from '../domain/series-dates.js';
import { type MisfitReason, whyShiftDoesNotFit } from '../domain/shift-fit.js';
import type { RepeatingShiftEvent, ShiftEvent, ShiftTimesData, SkippedOccurrence } from '../rotas.events.js';
import type { Booker } from './booking-facts.js';
import { timesData } from './shift-times.js';
import { evolve as evolveSeries, type SeriesState, timesOfDay } from './repeating-shift.js';

/**
 * The worker's side of repeating shifts (docs/rota-domain.md#generation), pure: which occurrences the
 * next chunk of a series covers (planChunk), what booking them appends (decideGeneration) and the
 * daily extension's decision (decideExtension). The handlers read and write; nothing here does.
 */

/** Occurrences per chunk: one atomic append each, so a killed worker loses at most one chunk's work. */
export const CHUNK_OCCURRENCES = 50;

/**
 * Why an occurrence was skipped (`rota_series_skips.reason`, the series' `skipped[].reason`):
 * stable snake_case codes, in the order the booking rules check them.
 * - `rota_not_found`: the series' rota is gone (never expected: rotas are archived, not deleted);
 * - `time_does_not_exist`: its start or end falls in the spring gap of the rota zone;
 * - `rota_archived`, `rota_not_started`, `rota_ended`, `rota_closed` (rule 1): the rota is not
 *   active that date, or is closed (bulk close, or no timeslot that weekday);
 * - `outside_timeslot` (rule 2): no timeslot of that date holds it (or covers it exactly, with
 *   require_full_timeslot);
 * - `user_not_in_organisation`, `user_not_on_rota` (rule 3): the user has left the organisation, or
 *   holds no role in the rota's team or above any more;
 * - `user_on_hold` (rule 4, unless the series was posted with ignore_on_hold by a manager);
 * - `role_not_allowed` (rule 5, unless posted with confirm_role_restriction by a manager);
 * - `overlap` (rule 6): the user already has a shift at that time, on any rota;
 * - `series_exception`: a series split from another, on a date the old one had left without an
 *   occurrence (cancelled or edited alone): an exception is never booked again.
 * Rules 7 and 8 never skip: the worker books as a manager would.
 */
export type SkipReason =
  | 'rota_not_found'
  | 'time_does_not_exist'
  | MisfitReason
  | 'user_not_in_organisation'
  | 'user_not_on_rota'
  | 'user_on_hold'
  | 'role_not_allowed'
  | 'overlap'
  | 'series_exception'
  /** A refusal by a rule with no code of its own here (none today): recorded rather than failing the job forever. */
  | 'booking_refused';

/** One occurrence of a chunk: its date and times, or null when a wall time of it does not exist. */
export interface PlannedOccurrence {
  readonly date: string;
  readonly times: ShiftTimesData | null;
}

/**
 * The next chunk of a series: the occurrences d with `after` < d ≤ `end`, at most `limit` of them.
 * The handler draws the shift ids and names the gates from it before the write; the decision books
 * it only if the series it reads still plans the same chunk.
 */
export interface ChunkPlan {
  /** The series' generatedUntil when planned. */
  readonly after: string;
  /** The chunk's last date considered: the series' generatedUntil after it. */
  readonly end: string;
  readonly limit: number;
  readonly occurrences: readonly PlannedOccurrence[];
}

/** The last date a series is to be generated up to: its `until`, or its end when sooner. */
export const generationTarget = (s: Pick<SeriesState, 'until' | 'endDate'>): string =>
  s.endDate !== null && s.endDate < s.until ? s.endDate : s.until;

export const seriesRule = (s: SeriesState): SeriesRule => ({
  firstDate: s.startDate,
  frequency: s.frequency,
  weekdays: s.weekdays,
  endDate: s.endDate,
});

/**
 * The next chunk of `state` in `zone`, or null when nothing is pending (generated up to `until`, or
 * to the end of an ended series). Dates come from the series' own rule (weeks counted from its first
 * shift), after `generatedUntil`: a date considered once is never considered again, so a cancelled
 * or skipped occurrence is not booked later. A chunk ends at its `limit`-th occurrence, else at the
 * target; a chunk with no occurrence (a stretch of unselected weeks) still moves generatedUntil on.
 */
export function planChunk(state: SeriesState | null, zone: string, limit = CHUNK_OCCURRENCES): ChunkPlan | null {
  if (!state) return null;
  const target = generationTarget(state);
  if (state.generatedUntil >= target) return null;
  const all = seriesDatesBetween(seriesRule(state), state.generatedUntil, target);
  const dates = all.slice(0, limit);
  const end = all.length > limit ? dates[dates.length - 1]! : target;
  const occurrences = dates.map((date) => {
    const { startTime, endTime, dayOffset } = timesOfDay(state, date);
    const times = occurrenceTimes(date, startTime, endTime, dayOffset, zone);
    return { date, times: 'nonexistent' in times ? null : timesData(times.start, times.end, zone) };
  });
  return { after: state.generatedUntil, end, limit, occurrences };
}

/** What the handler read for a chunk, after the gates (docs/adr/0008-booking-gates.md). */
export interface GenerationFacts {
  readonly zone: string;
  /** The series' rota (undefined: not found). */
  readonly rota: BookingRota | undefined;
  /** The series' user as the rules see them (undefined: not a user of the organisation any more). */
  readonly booker: Booker | undefined;
  /** The user's booked shifts, any rota, that may overlap the chunk's occurrences. */
  readonly userShifts: readonly BookedSpan[];
  /** The ids drawn for the chunk's occurrences that have times, by date. */
  readonly shiftIds: ReadonlyMap<string, number>;
  /** Epoch ms. */
  readonly now: number;
}

/** The events of one generation chunk: a ShiftBooked per booked occurrence (each on its own stream), then the series' RepeatingShiftGenerated. */
export type GenerationEvent =
  | Extract<ShiftEvent, { type: 'rotas.ShiftBooked' }>
  | Extract<RepeatingShiftEvent, { type: 'rotas.RepeatingShiftGenerated' }>;

const sameChunk = (a: ChunkPlan | null, b: ChunkPlan): boolean => a !== null && JSON.stringify(a) === JSON.stringify(b);

/**
 * Books the chunk `plan` of the series `state`, with the rules checked as for a manager
 * (docs/rota-domain.md#booking-rules: the worker is `system`, with the series' own ignore_on_hold and
 * confirm_role_restriction). Each occurrence is booked or skipped with its reason (SkipReason); a
 * booked one counts for the later ones (an overlap within the chunk). The chunk's
 * RepeatingShiftGenerated moves generatedUntil to `plan.end` and records what happened.
 *
 * `[]` when the series no longer plans this chunk (another run generated it, it was extended,
 * retimed or ended since the plan): the handler plans again from what it reads.
 */
export function decideGeneration(
  state: SeriesState | null,
  plan: ChunkPlan,
  facts: GenerationFacts,
): GenerationEvent[] {
  if (!state || !sameChunk(planChunk(state, facts.zone, plan.limit), plan)) return [];
  if (plan.occurrences.some((o) => o.times !== null && !facts.shiftIds.has(o.date))) return [];
  const userShifts = [...facts.userShifts];
  const booked: { date: string; shiftId: number }[] = [];
  const skipped: SkippedOccurrence[] = [];
  const events: GenerationEvent[] = [];
  for (const { date, times } of plan.occurrences) {
    const reason = state.exceptions.includes(date)
      ? 'series_exception'
      : times === null
        ? 'time_does_not_exist'
        : skipReason(state, times, facts, userShifts);
    if (reason) {
      skipped.push({ date, reason });
      continue;
    }
    const id = facts.shiftIds.get(date)!;
    const t = times!;
    userShifts.push({
      id,
      userId: state.userId,
      rotaId: state.rotaId,
      date: t.date,
      start: Date.parse(t.start),
      end: Date.parse(t.end),
    });
    booked.push({ date, shiftId: id });
    events.push({
      type: 'rotas.ShiftBooked',
      data: {
        id,
        organisationId: state.organisationId,
        rotaId: state.rotaId,
        teamId: facts.rota!.teamId,
        userId: state.userId,
        seriesId: state.id,
        ...t,
      },
    });
  }
  events.push({
    type: 'rotas.RepeatingShiftGenerated',
    data: { id: state.id, organisationId: state.organisationId, generatedUntil: plan.end, booked, skipped },
  });
  return events;
}

/**
 * Why the occurrence at `times` cannot be booked, or null. bookingRefusal (the rules, in order)
 * decides; the reason names the rule it refused by, read from the same facts in the same order.
 */
function skipReason(
  state: SeriesState,
  times: ShiftTimesData,
  facts: GenerationFacts,
  userShifts: readonly BookedSpan[],
): SkipReason | null {
  const { rota, booker } = facts;
  if (!rota) return 'rota_not_found';
  const shift = { date: times.date, start: Date.parse(times.start), end: Date.parse(times.end) };
  const rules: BookingFacts = {
    action: 'add',
    rota,
    user: {
      id: state.userId,
      inOrganisation: !!booker,
      seesRota: !!booker?.seen.has(rota.teamId),
      onHold: !!booker?.onHold,
      roleProfileIds: [...(booker?.roleProfileIds ?? [])],
    },
    caller: { userId: 0, seesRota: true, manager: true, system: true },
    shift,
    userShifts,
    // Rule 7 binds only a volunteer booking themselves, never the worker: the rota-day's shifts are not read.
    rotaDayShifts: [],
    ignoreOnHold: state.ignoreOnHold,
    confirmRoleRestriction: state.confirmRoleRestriction,
    now: facts.now,
  };
  if (!bookingRefusal(rules)) return null;
  const misfit = whyShiftDoesNotFit(rota.calendar, shift, rota.zone, rota.requireFullTimeslot);
  if (misfit) return misfit;
  const { user } = rules;
  if (!user.inOrganisation) return 'user_not_in_organisation';
  if (!user.seesRota) return 'user_not_on_rota';
  if (user.onHold && !state.ignoreOnHold) return 'user_on_hold';
  if (
    rota.restrictedByRole &&
    !state.confirmRoleRestriction &&
    !user.roleProfileIds.some((id) => rota.roleProfileIds.includes(id))
  )
    return 'role_not_allowed';
  if (userShifts.some((other) => overlaps(other, shift))) return 'overlap';
  // A rule this list does not know (a new one needs its code here): skipped all the same, since
  // throwing would fail the job on every retry and leave the series pending for good.
  return 'booking_refused';
}

/** The fold the generation specs give events to: a chunk's ShiftBooked events leave the series as it was. */
export function evolveGeneration(
  state: SeriesState | null,
  event: RepeatingShiftEvent | GenerationEvent,
): SeriesState | null {
  return event.type === 'rotas.ShiftBooked' ? state : evolveSeries(state, event);
}

/**
 * The daily extension (docs/rota-domain.md#extension): a series that has not ended is moved on to its horizon
 * as of `today` (the organisation's date), capped at its end date. A series whose end date lies more than six months
 * ahead is kept booked six months ahead the same way until it reaches that date (the interface: the
 * first six months are created at once; docs/rota-domain.md#generation), so a nine-month series is booked to
 * its end. `[]` when it already reaches it, so a second run the same day (or two at once) changes nothing; the
 * reactor turns the RepeatingShiftExtended into a generation job.
 */
export function decideExtension(
  state: SeriesState | null,
  context: { today: string },
): Extract<RepeatingShiftEvent, { type: 'rotas.RepeatingShiftExtended' }>[] {
  if (!state || state.ended !== null) return [];
  const horizon = seriesHorizon(state.startDate, context.today, state.endDate);
  if (horizon <= state.until) return [];
  return [
    {
      type: 'rotas.RepeatingShiftExtended',
      data: { id: state.id, organisationId: state.organisationId, until: horizon },
    },
  ];
}
