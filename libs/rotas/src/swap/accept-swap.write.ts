import type { Planning, StreamRead, Write } from '#app/event-store';
import { type Caller, identityGateOf, metadataOf } from '#app/identity';
import { NotFoundError } from '#app/platform';
import type { BookingFactsReader } from '../booking/booking-facts.js';
import { evolve as evolveShift, type ShiftState } from '../booking/shift.js';
import { datesTouched } from '../booking/shift-times.js';
import { gateOf, type ShiftEvent, type ShiftSwapEvent, streamOf } from '../rotas.events.js';
import { type AcceptFacts, decideAcceptSwap } from './accept-swap.js';
import { evolve, type SwapCaller, type SwapState } from './shift-swap.js';
import { lockSwap } from './swap-facts.js';

type Streams = {
  swap: StreamRead<SwapState, ShiftSwapEvent>;
  shift: StreamRead<ShiftState, ShiftEvent>;
  with: StreamRead<ShiftState, ShiftEvent>;
};

/** The swap as it stands before the write (planned outside it): 404 for none, or another organisation's. */
export async function planSwap({ read }: Planning, caller: Caller, swapId: number): Promise<SwapState> {
  const { swap } = await read({ swap: { streamId: streamOf.swap(swapId), evolve } });
  if (!swap || swap.organisationId !== caller.organisationId) throw new NotFoundError('Shift swap');
  return swap;
}

/**
 * The accept as one write (docs/adr/0011-declarative-writes.md; docs/rota-domain.md#swaps): the
 * swap planned first (its sides name the shifts); gated like two bookings, each volunteer's
 * user-days of the shift they gain advanced, both rotas' calendars and both volunteers' identity
 * gates held; then, after the gates, the swap's row and the shifts' and rotas' rows locked
 * (swap-facts.ts), the rotas, the volunteers' standing and their shifts read; the swap and both
 * shifts' streams read and decided on (decideAcceptSwap). An accept and a withdraw both append to
 * the swap's stream: the second loses its version and, run again, meets a swap no longer proposed.
 */
export function acceptSwapWrite(
  facts: Pick<BookingFactsReader, 'read' | 'bookers'>,
  caller: Caller,
  who: SwapCaller,
  swapId: number,
  zone: string,
): Write<SwapState, AcceptFacts, Streams> {
  const users = (s: SwapState) => [s.shift.userId, s.with.userId];
  return {
    plan: (planning) => planSwap(planning, caller, swapId),
    gates: (s) => ({
      advance: [
        ...datesTouched(s.shift, zone).map((d) => gateOf.userDay(s.with.userId, d)),
        ...datesTouched(s.with, zone).map((d) => gateOf.userDay(s.shift.userId, d)),
      ],
      hold: [...new Set([s.shift.rotaId, s.with.rotaId])]
        .map(gateOf.rotaCalendar)
        .concat(users(s).map(identityGateOf.user)),
    }),
    facts: async (db, s) => {
      // One after the other: all go through the write's one connection.
      const { recordedExpired } = await lockSwap(db, caller, s.id, [s.shift.shiftId, s.with.shiftId], true);
      const read = await facts.read(
        db,
        caller,
        { rotaIds: [s.shift.rotaId, s.with.rotaId], users: { ids: users(s), spans: [s.shift, s.with] } },
        zone,
      );
      const bookers = await facts.bookers(caller, users(s), db);
      return { rotas: read.rotas, bookers, userShifts: read.userShifts, recordedExpired };
    },
    streams: (s) => ({
      swap: { streamId: streamOf.swap(s.id), evolve },
      shift: { streamId: streamOf.shift(s.shift.shiftId), evolve: evolveShift },
      with: { streamId: streamOf.shift(s.with.shiftId), evolve: evolveShift },
    }),
    decide: (states, { facts: f, now }) => decideAcceptSwap(states.swap, states, who, f, now),
    metadata: metadataOf(caller),
  };
}
