import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '#app/platform';
import { type BookedSpan, bookingRefusal, checkBookingAccess } from '../domain/booking-rules.js';
import type { ShiftEvent } from '../rotas.events.js';
import type { CallerReach } from '../rotas.policy.js';
import type { Booker, RotaForBooking } from './booking-facts.js';
import type { ShiftState } from './shift.js';
import { bookingCaller, bookingUserOf, spanOf } from './shift-decisions.js';

/** `POST /api/rota/shifts/{id}/take-over`, its body read: who takes it, and the manager's overrides. */
export interface TakeOver {
  readonly reach: CallerReach;
  /** The taker: the body's `user.id`, else the caller. */
  readonly takerId: number;
  readonly ignoreOnHold: boolean;
  readonly confirmRoleRestriction: boolean;
}

/** What the write read after its gates (take-over.write.ts). */
export interface TakeOverContext {
  /** The shift's rota as the rules read it (undefined: gone). */
  readonly rota: RotaForBooking | undefined;
  /** The taker as the rules see them (undefined: not a user of the organisation). */
  readonly taker: Booker | undefined;
  /** The taker's booked shifts that may overlap this one, any rota. */
  readonly takerShifts: readonly BookedSpan[];
  /** Epoch ms. */
  readonly now: number;
}

/**
 * docs/rota-domain.md#stand-ins-and-take-overs. Refusals in the documented order: 404 (cancelled,
 * unknown, its rota gone); 403 (a rota the caller does not see; someone else named, or an override
 * asked, by a non-manager; a volunteer taking over on a rota that is not self-managed); 409 (no
 * open stand-in request: never asked, withdrawn, or already taken over); 422 `user` (the taker is
 * its own volunteer), `start_datetime` (started); then booking rules 1–6 and 8 for the taker on the
 * shift's times, as a booking by the caller (handOver: rule 7 not applied). The shift passes to the
 * taker: one ShiftHandedOver, leaving its series (docs/rota-domain.md#generation: the series never
 * books that date again), its sequence counted for the previous volunteer's CANCEL.
 */
export function decideTakeOver(state: ShiftState | null, command: TakeOver, context: TakeOverContext): ShiftEvent[] {
  const { rota, now } = context;
  if (!state || state.cancelled || !rota) throw new NotFoundError('Shift');
  const { reach, takerId } = command;
  const caller = bookingCaller({ reach }, rota.teamId);
  if (!caller.seesRota) throw new ForbiddenError('You cannot see this rota.');
  const overrides = command.ignoreOnHold || command.confirmRoleRestriction;
  if (!caller.manager && (takerId !== reach.userId || overrides))
    throw new ForbiddenError('Only a manager of this rota may hand a shift to someone else or override its rules.');
  const taker = bookingUserOf(takerId, context.taker, rota.teamId);
  checkBookingAccess({ action: 'add', rota, user: taker, caller });
  if (!state.standIn) throw new ConflictError('This shift is not looking for a stand-in.');
  if (takerId === state.userId) throw new ValidationError({ user: ['The shift is already this user’s.'] });
  const shift = spanOf(state);
  if (shift.start <= now) throw new ValidationError({ start_datetime: ['The shift has started.'] });
  const refused = bookingRefusal({
    action: 'add',
    rota,
    user: taker,
    caller,
    shift,
    userShifts: context.takerShifts.filter((s) => s.userId === takerId && s.id !== state.id),
    rotaDayShifts: [],
    ignoreOnHold: command.ignoreOnHold,
    confirmRoleRestriction: command.confirmRoleRestriction,
    handOver: true,
    now,
  });
  if (refused) throw new ValidationError({ [refused.field]: [refused.message] });
  return [
    {
      type: 'rotas.ShiftHandedOver',
      data: {
        id: state.id,
        organisationId: state.organisationId,
        rotaId: state.rotaId,
        date: state.date,
        fromUserId: state.userId,
        toUserId: takerId,
        by: 'take_over',
        swapId: null,
        leftSeriesId: state.seriesId,
        sequence: state.sequence + 1,
      },
    },
  ];
}
