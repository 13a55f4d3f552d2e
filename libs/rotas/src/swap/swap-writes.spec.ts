import { describe, expect, it } from '@jest/globals';
import { type Caller, identityGateOf } from '#app/identity';
import { ConflictError } from '#app/platform';
import { gateOf, streamOf } from '../rotas.events.js';
import { acceptSwapWrite } from './accept-swap.write.js';
import { answerSwapWrite } from './answer-swap.write.js';
import { proposeSwapWrite } from './propose-swap.write.js';
import type { SwapState } from './shift-swap.js';

const CALLER = { userId: 8, organisationId: 1 } as Caller;
const WHO = { userId: 8, organisationId: 1, manages: () => false };
const noRead = {
  read: () => Promise.reject(new Error('not read in a pure spec')),
  bookers: () => Promise.reject(new Error('not read in a pure spec')),
};
// Volunteer 7's overnight shift 100 on rota 3 (team 4) for volunteer 8's shift 200 on rota 5 (team 6).
const SWAP: SwapState = {
  id: 9,
  organisationId: 1,
  shift: {
    shiftId: 100,
    rotaId: 3,
    teamId: 4,
    userId: 7,
    start: '2027-01-11T22:00:00.000Z',
    end: '2027-01-12T02:00:00.000Z',
  },
  with: {
    shiftId: 200,
    rotaId: 5,
    teamId: 6,
    userId: 8,
    start: '2027-01-13T09:00:00.000Z',
    end: '2027-01-13T12:00:00.000Z',
  },
  proposedBy: 7,
  status: 'proposed',
};

describe('acceptSwapWrite', () => {
  const write = acceptSwapWrite(noRead, CALLER, WHO, 9, 'Europe/London');

  it('given a swap, then each volunteer’s days of the shift they gain advanced, both rotas’ calendars and both volunteers held', () => {
    const gates = write.gates!(SWAP);
    expect(gates.advance).toEqual([
      gateOf.userDay(8, '2027-01-11'),
      gateOf.userDay(8, '2027-01-12'),
      gateOf.userDay(7, '2027-01-13'),
    ]);
    expect(gates.hold).toEqual([
      gateOf.rotaCalendar(3),
      gateOf.rotaCalendar(5),
      identityGateOf.user(7),
      identityGateOf.user(8),
    ]);
  });

  it('given a swap, then the swap and both shifts are read, to append to all three', () => {
    const streams = write.streams(SWAP, undefined as never);
    expect([streams.swap.streamId, streams.shift.streamId, streams.with.streamId]).toEqual([
      streamOf.swap(9),
      streamOf.shift(100),
      streamOf.shift(200),
    ]);
  });
});

describe('answerSwapWrite', () => {
  it('given a withdrawal of a swap whose shift has started, then 409 (expired) and nothing appended', () => {
    const write = answerSwapWrite(noRead, { ...CALLER, userId: 7 }, { ...WHO, userId: 7 }, 'withdraw', 9);
    const states = { swap: SWAP, shift: null, with: null };
    const facts = {
      selfManage: new Map([
        [3, true],
        [5, true],
      ]),
      volunteers: new Map(),
      recordedExpired: false,
    };
    expect(() => write.decide(states as never, { plan: SWAP, facts, now: Date.parse('2027-01-11T23:00:00Z') })).toThrow(
      ConflictError,
    );
  });
});

describe('proposeSwapWrite', () => {
  it('given drawn ids, then the swap is a new stream, not read, and both shifts are read', () => {
    const write = proposeSwapWrite(CALLER, { seen: new Set() } as never, { swapId: 9, shiftId: 100, withId: 200 });
    expect(write.streams(undefined, undefined as never)).toEqual({
      swap: { streamId: streamOf.swap(9), expect: 'no_stream' },
      shift: { streamId: streamOf.shift(100), evolve: expect.any(Function) },
      with: { streamId: streamOf.shift(200), evolve: expect.any(Function) },
    });
  });
});
