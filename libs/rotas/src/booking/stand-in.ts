import { ConflictError, NotFoundError, ValidationError } from '#app/platform';
import { type BookingRota, cancelRefusal, checkBookingAccess } from '../domain/booking-rules.js';
import type { ShiftEvent, StandInShiftData } from '../rotas.events.js';
import type { CallerReach } from '../rotas.policy.js';
import type { ShiftState } from './shift.js';
import { ownerOf } from './shift-changes.js';
import { bookingCaller, spanOf } from './shift-decisions.js';

/**
 * Stand-in requests (docs/rota-domain.md#stand-ins-and-take-overs), pure: asking (or replacing the
 * note) and withdrawing. Both are bound as a cancel is: the 403s of a booking, then rule 8 with
 * `allow_same_day_cancel` for a volunteer's own shift; a shift that has started is refused to
 * everyone. Refusals in the documented order: 404, 403, 409, then the 422s.
 */

/** The longest stand-in note, in characters. */
export const STAND_IN_NOTE_MAX = 500;

export interface AskStandIn {
  readonly reach: CallerReach;
  /** null: no note. */
  readonly note: string | null;
}

export interface WithdrawStandIn {
  readonly reach: CallerReach;
}

export interface StandInContext {
  readonly rota: BookingRota;
  /** Epoch ms. */
  readonly now: number;
}

const idsOf = (s: ShiftState): StandInShiftData => ({
  id: s.id,
  organisationId: s.organisationId,
  rotaId: s.rotaId,
  userId: s.userId,
  date: s.date,
});

/** The 404 and 403s, then the 422s every stand-in change meets (once any 409 was judged: `conflict`). */
function checkStandInChange(
  state: ShiftState | null,
  reach: CallerReach,
  context: StandInContext,
  conflict: (state: ShiftState) => void,
): asserts state is ShiftState {
  if (!state || state.cancelled) throw new NotFoundError('Shift');
  const facts = {
    action: 'cancel' as const,
    rota: context.rota,
    user: ownerOf(state.userId),
    caller: bookingCaller({ reach }, context.rota.teamId),
    shift: spanOf(state),
    now: context.now,
  };
  checkBookingAccess(facts);
  conflict(state);
  if (Date.parse(state.start) <= context.now) throw new ValidationError({ start_datetime: ['The shift has started.'] });
  const refused = cancelRefusal(facts);
  if (refused) throw new ValidationError({ [refused.field]: [refused.message] });
}

/**
 * `PUT /api/rota/shifts/{id}/stand-in`: ShiftStandInRequested (`requestedBy` the caller) when none is
 * open; when one is, ShiftStandInNoteChanged with the new note (who asked, and when, stay), or
 * nothing when the note is the same. The note is at most STAND_IN_NOTE_MAX characters (422 `note`).
 */
export function decideAskStandIn(state: ShiftState | null, command: AskStandIn, context: StandInContext): ShiftEvent[] {
  checkStandInChange(state, command.reach, context, () => undefined);
  const { note } = command;
  if (note !== null && [...note].length > STAND_IN_NOTE_MAX)
    throw new ValidationError({ note: [`The note may be at most ${STAND_IN_NOTE_MAX} characters.`] });
  const by = command.reach.userId;
  if (!state.standIn)
    return [{ type: 'rotas.ShiftStandInRequested', data: { ...idsOf(state), requestedBy: by, note } }];
  if (state.standIn.note === note) return [];
  return [
    {
      type: 'rotas.ShiftStandInNoteChanged',
      data: { id: state.id, organisationId: state.organisationId, writtenBy: by, note },
    },
  ];
}

/** `DELETE /api/rota/shifts/{id}/stand-in`: ShiftStandInWithdrawn; no open request is a 409. */
export function decideWithdrawStandIn(
  state: ShiftState | null,
  command: WithdrawStandIn,
  context: StandInContext,
): ShiftEvent[] {
  checkStandInChange(state, command.reach, context, (s) => {
    if (!s.standIn) throw new ConflictError('This shift has no open stand-in request.');
  });
  return [{ type: 'rotas.ShiftStandInWithdrawn', data: idsOf(state) }];
}
