import type { StreamRead, Write } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { evolve as evolveShift, type ShiftState } from '../booking/shift.js';
import { type ShiftEvent, streamOf } from '../rotas.events.js';
import type { CallerReach } from '../rotas.policy.js';
import { swapShiftOf } from './accept-swap.js';
import { decideProposeSwap } from './shift-swap.js';
import { lockSwap, type SwapLocks } from './swap-facts.js';

type Streams = {
  swap: StreamRead<null>;
  shift: StreamRead<ShiftState, ShiftEvent>;
  with: StreamRead<ShiftState, ShiftEvent>;
};

/** What a proposal names: the new swap's id and the two shifts. */
export interface ProposeSwapRequest {
  readonly swapId: number;
  readonly shiftId: number;
  readonly withId: number;
}

/**
 * The proposal as one write (docs/rota-domain.md#swaps): the two shifts' and their rotas' rows
 * locked (swap-facts.ts), so a change of either shift commits before this reads it or after the
 * swap exists (and expires it on read); the shifts' streams read and decided on, the swap's stream
 * new (its id just drawn).
 */
export function proposeSwapWrite(
  caller: Caller,
  reach: CallerReach,
  request: ProposeSwapRequest,
): Write<undefined, SwapLocks, Streams> {
  return {
    facts: (db) => lockSwap(db, caller, null, [request.shiftId, request.withId]),
    streams: () => ({
      swap: { streamId: streamOf.swap(request.swapId), expect: 'no_stream' },
      shift: { streamId: streamOf.shift(request.shiftId), evolve: evolveShift },
      with: { streamId: streamOf.shift(request.withId), evolve: evolveShift },
    }),
    decide: (states, { facts, now }) => [
      {
        streamId: streamOf.swap(request.swapId),
        events: decideProposeSwap(
          {
            id: request.swapId,
            organisationId: caller.organisationId,
            callerId: caller.userId,
            seen: reach.seen,
            shift: swapShiftOf(states.shift),
            with: swapShiftOf(states.with),
            selfManage: facts.selfManage,
          },
          now,
        ),
      },
    ],
    metadata: metadataOf(caller),
  };
}
