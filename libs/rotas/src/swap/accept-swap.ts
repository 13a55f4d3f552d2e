import type { StreamEvents } from '#app/event-store';
import { ValidationError } from '#app/platform';
import { type BookedSpan, bookingRefusal } from '../domain/booking-rules.js';
import type { Booker, RotaForBooking } from '../booking/booking-facts.js';
import type { ShiftState } from '../booking/shift.js';
import { type ShiftEvent, streamOf } from '../rotas.events.js';
import {
  checkSwapAnswer,
  type SwapCaller,
  swapExpiry,
  type SwapShift,
  type SwapStanding,
  type SwapState,
} from './shift-swap.js';

/** What the accept reads inside its write, after its gates. */
export interface AcceptFacts {
  readonly rotas: ReadonlyMap<number, RotaForBooking>;
  readonly bookers: ReadonlyMap<number, Booker>;
  /** Booked shifts of both volunteers that may clash with the shift each gains (the two swapped included). */
  readonly userShifts: readonly BookedSpan[];
  readonly recordedExpired: boolean;
}

export const swapShiftOf = (s: ShiftState | null): SwapShift | null =>
  s && {
    id: s.id,
    organisationId: s.organisationId,
    rotaId: s.rotaId,
    teamId: s.teamId,
    userId: s.userId,
    start: s.start,
    end: s.end,
    cancelled: s.cancelled !== null,
  };

/** The standing of a swap's volunteers and rotas, from what a swap write read. */
export function standingOf(
  rotas: ReadonlyMap<number, Pick<RotaForBooking, 'selfManage'>>,
  bookers: ReadonlyMap<number, Booker>,
  recordedExpired: boolean,
): SwapStanding {
  return {
    selfManage: new Map([...rotas].map(([id, r]) => [id, r.selfManage])),
    volunteers: bookers,
    recordedExpired,
  };
}

/**
 * `POST /api/rota/shift-swaps/{id}/accept` (docs/rota-domain.md#swaps): checkSwapAnswer (404, 403,
 * 409 expired included), then each shift against booking rules 1–6 and 8 for the volunteer who
 * gains it, as that volunteer booking themself; rule 6 after the exchange (each volunteer's shifts
 * without the one they give up). A refusal is a 422 keyed `shift.` or `with.` (the shift whose new
 * volunteer fails). Events: the swap accepted, and each shift's ShiftHandedOver.
 */
export function decideAcceptSwap(
  swap: SwapState | null,
  shifts: { readonly shift: ShiftState | null; readonly with: ShiftState | null },
  caller: SwapCaller,
  facts: AcceptFacts,
  now: number,
): StreamEvents[] {
  const expiry =
    swap &&
    swapExpiry(
      swap,
      { shift: swapShiftOf(shifts.shift), with: swapShiftOf(shifts.with) },
      standingOf(facts.rotas, facts.bookers, facts.recordedExpired),
      now,
    );
  checkSwapAnswer(swap, 'accept', caller, expiry);
  const sides = [
    { key: 'shift', state: shifts.shift!, to: swap.with.userId, gives: shifts.with! },
    { key: 'with', state: shifts.with!, to: swap.shift.userId, gives: shifts.shift! },
  ] as const;
  for (const { key, state, to, gives } of sides) {
    const rota = facts.rotas.get(state.rotaId)!;
    const booker = facts.bookers.get(to)!;
    const found = bookingRefusal({
      action: 'add',
      rota,
      user: {
        id: to,
        inOrganisation: true,
        seesRota: booker.seen.has(rota.teamId),
        onHold: booker.onHold,
        roleProfileIds: [...booker.roleProfileIds],
      },
      caller: { userId: to, seesRota: booker.seen.has(rota.teamId), manager: false },
      shift: { date: state.date, start: Date.parse(state.start), end: Date.parse(state.end) },
      userShifts: facts.userShifts.filter((s) => s.userId === to && s.id !== gives.id && s.id !== state.id),
      // Rule 7 is not applied: the place is handed over, not added.
      rotaDayShifts: [],
      handOver: true,
      ignoreOnHold: false,
      confirmRoleRestriction: false,
      now,
    });
    if (found) throw new ValidationError({ [`${key}.${found.field}`]: [found.message] });
  }
  const accepted = {
    streamId: streamOf.swap(swap.id),
    events: [
      {
        type: 'rotas.ShiftSwapAccepted' as const,
        data: { id: swap.id, organisationId: swap.organisationId, by: caller.userId },
      },
    ],
  };
  return [
    accepted,
    ...sides.map(({ state, to }) => ({
      streamId: streamOf.shift(state.id),
      events: [handedOver(state, to, swap.id)],
    })),
  ];
}

function handedOver(state: ShiftState, toUserId: number, swapId: number): ShiftEvent {
  return {
    type: 'rotas.ShiftHandedOver',
    data: {
      id: state.id,
      organisationId: state.organisationId,
      rotaId: state.rotaId,
      date: state.date,
      fromUserId: state.userId,
      toUserId,
      by: 'swap',
      swapId,
      leftSeriesId: state.seriesId,
      sequence: state.sequence + 1,
    },
  };
}
