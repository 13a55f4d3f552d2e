import type { StreamRead, Write } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import type { BookingFactsReader } from '../booking/booking-facts.js';
import { evolve as evolveShift, type ShiftState } from '../booking/shift.js';
import { type ShiftEvent, type ShiftSwapEvent, streamOf } from '../rotas.events.js';
import { swapShiftOf } from './accept-swap.js';
import { planSwap } from './accept-swap.write.js';
import {
  decideSwapAnswer,
  evolve,
  type SwapCaller,
  swapExpiry,
  type SwapStanding,
  type SwapState,
} from './shift-swap.js';
import { lockSwap } from './swap-facts.js';

type Streams = {
  swap: StreamRead<SwapState, ShiftSwapEvent>;
  shift: StreamRead<ShiftState, ShiftEvent>;
  with: StreamRead<ShiftState, ShiftEvent>;
};

/**
 * Decline or withdraw as one write (docs/rota-domain.md#swaps): the swap planned; its row and the
 * shifts' and rotas' rows locked (swap-facts.ts), the volunteers' standing read; the swap and the
 * shifts' streams read, so an expiry by either shift is met here exactly as the reads judge it; one
 * event on the swap's stream, whose version orders it against an accept or the other answer.
 */
export function answerSwapWrite(
  bookers: Pick<BookingFactsReader, 'bookers'>,
  caller: Caller,
  who: SwapCaller,
  answer: 'decline' | 'withdraw',
  swapId: number,
): Write<SwapState, SwapStanding, Streams> {
  return {
    plan: (planning) => planSwap(planning, caller, swapId),
    facts: async (db, s) => {
      const { recordedExpired, selfManage } = await lockSwap(db, caller, s.id, [s.shift.shiftId, s.with.shiftId]);
      const volunteers = await bookers.bookers(caller, [s.shift.userId, s.with.userId], db);
      return { selfManage, volunteers, recordedExpired };
    },
    streams: (s) => ({
      swap: { streamId: streamOf.swap(s.id), evolve },
      shift: { streamId: streamOf.shift(s.shift.shiftId), evolve: evolveShift },
      with: { streamId: streamOf.shift(s.with.shiftId), evolve: evolveShift },
    }),
    decide: (states, { facts: standing, now }) => {
      const expiry =
        states.swap &&
        swapExpiry(states.swap, { shift: swapShiftOf(states.shift), with: swapShiftOf(states.with) }, standing, now);
      return [{ streamId: streamOf.swap(swapId), events: decideSwapAnswer(states.swap, answer, who, expiry) }];
    },
    metadata: metadataOf(caller),
  };
}
