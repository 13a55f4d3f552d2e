import { describe, expect, it } from '@jest/globals';
import { ConflictError, ForbiddenError, NotFoundError, testDecider, ValidationError } from '#app/platform';
import type { BookedSpan } from '../domain/booking-rules.js';
import type { RotaCalendar } from '../domain/rota-calendar.js';
import type { Booker, RotaForBooking } from '../booking/booking-facts.js';
import type { ShiftState } from '../booking/shift.js';
import { type ShiftSwapEvent, streamOf, type SwapSideData } from '../rotas.events.js';
import { type AcceptFacts, decideAcceptSwap } from './accept-swap.js';
import {
  decideProposeSwap,
  decideSwapAnswer,
  evolve,
  type ProposeSwap,
  type SwapCaller,
  swapExpiry,
  type SwapShift,
  type SwapStanding,
  type SwapState,
} from './shift-swap.js';

// January in London: the wall clock is UTC. 2027-01-11 is a Monday; "now" is the Monday before.
const NOW = Date.parse('2027-01-04T12:00:00Z');
const iso = (wall: string) => new Date(`${wall.replace(' ', 'T')}Z`).toISOString();
const calendar: RotaCalendar = {
  start_date: '2027-01-01',
  end_date: null,
  archived: false,
  closed_dates: new Set(),
  timeline: [
    {
      from: '2027-01-01',
      to: null,
      timeslots: [
        {
          id: 1,
          weekday_start: 'monday',
          start_time: '09:00',
          weekday_end: 'monday',
          end_time: '12:00',
          min: 0,
          ideal: 1,
          max: 1,
        },
        {
          id: 3,
          weekday_start: 'monday',
          start_time: '13:00',
          weekday_end: 'monday',
          end_time: '18:00',
          min: 0,
          ideal: 1,
          max: 1,
        },
        {
          id: 2,
          weekday_start: 'tuesday',
          start_time: '09:00',
          weekday_end: 'tuesday',
          end_time: '12:00',
          min: 0,
          ideal: 1,
          max: 1,
        },
      ],
    },
  ],
};
const rota = (id: number, teamId: number, more: Partial<RotaForBooking> = {}): RotaForBooking => ({
  id,
  teamId,
  name: `Rota ${id}`,
  calendar,
  zone: 'Europe/London',
  selfManage: true,
  requireFullTimeslot: false,
  restrictedByRole: false,
  roleProfileIds: [],
  allowSameDayAdd: false,
  allowSameDayEdit: false,
  allowSameDayCancel: false,
  ...more,
});
// Rota 3 (team 4) and rota 5 (team 6), both self-managed. Volunteers 7 and 8 see both teams.
const ROTAS = new Map([
  [3, rota(3, 4)],
  [5, rota(5, 6)],
]);
const booker = (more: Partial<Booker> = {}): Booker => ({
  onHold: false,
  roleProfileIds: new Set([20]),
  seen: new Set([4, 6]),
  ...more,
});
const BOOKERS = new Map([
  [7, booker()],
  [8, booker()],
]);

const shift = (id: number, userId: number, rotaId: number, start: string, end: string): ShiftState => ({
  id,
  organisationId: 1,
  rotaId,
  teamId: rotaId + 1,
  userId,
  seriesId: null,
  date: start.slice(0, 10),
  start: iso(start),
  end: iso(end),
  startWall: start,
  endWall: end,
  cancelled: null,
  sequence: 0,
  attendance: null,
  standIn: null,
});
// Volunteer 7's Monday shift on rota 3; volunteer 8's Tuesday shift on rota 5.
const MINE = shift(100, 7, 3, '2027-01-11 09:00', '2027-01-11 12:00');
const THEIRS = shift(200, 8, 5, '2027-01-12 09:00', '2027-01-12 12:00');
const swapShift = (s: ShiftState, more: Partial<SwapShift> = {}): SwapShift => ({
  id: s.id,
  organisationId: s.organisationId,
  rotaId: s.rotaId,
  teamId: s.teamId,
  userId: s.userId,
  start: s.start,
  end: s.end,
  cancelled: false,
  ...more,
});
const side = (s: ShiftState): SwapSideData => ({
  shiftId: s.id,
  rotaId: s.rotaId,
  teamId: s.teamId,
  userId: s.userId,
  start: s.start,
  end: s.end,
});
const PROPOSED: ShiftSwapEvent = {
  type: 'rotas.ShiftSwapProposed',
  data: { id: 9, organisationId: 1, shift: side(MINE), with: side(THEIRS), proposedBy: 7 },
};
const SWAP = evolve(null, PROPOSED)!;
const caller = (userId: number, manages: number[] = []): SwapCaller => ({
  userId,
  organisationId: 1,
  manages: (teamId) => manages.includes(teamId),
});
const SELF_MANAGE = new Map([
  [3, true],
  [5, true],
]);
const standing = (more: Partial<SwapStanding> = {}): SwapStanding => ({
  selfManage: SELF_MANAGE,
  volunteers: BOOKERS,
  recordedExpired: false,
  ...more,
});

describe('decideProposeSwap', () => {
  const propose = (more: Partial<ProposeSwap> = {}): ProposeSwap => ({
    id: 9,
    organisationId: 1,
    callerId: 7,
    seen: new Set([4, 6]),
    shift: swapShift(MINE),
    with: swapShift(THEIRS),
    selfManage: SELF_MANAGE,
    ...more,
  });

  it('given two future booked shifts of two volunteers on self-managed rotas, when the first one’s volunteer proposes, then ShiftSwapProposed with both sides as they stand', () => {
    expect(decideProposeSwap(propose(), NOW)).toEqual([PROPOSED]);
  });

  it('given someone else’s shift, when proposed, then 403', () => {
    expect(() => decideProposeSwap(propose({ callerId: 8 }), NOW)).toThrow(ForbiddenError);
  });

  it('given an unknown shift or one of another organisation, then 422 naming shift.id or with.id', () => {
    expect(() => decideProposeSwap(propose({ shift: null }), NOW)).toThrow(
      expect.objectContaining({ errors: { 'shift.id': ['No such shift.'] } }),
    );
    expect(() => decideProposeSwap(propose({ with: swapShift(THEIRS, { organisationId: 2 }) }), NOW)).toThrow(
      expect.objectContaining({ errors: { 'with.id': ['No such shift.'] } }),
    );
  });

  it('given a cancelled, started, unseen or not self-managed shift, then 422 naming its side', () => {
    const cases: [Partial<ProposeSwap>, string][] = [
      [{ shift: swapShift(MINE, { cancelled: true }) }, 'shift'],
      [{ with: swapShift(THEIRS, { start: iso('2027-01-04 11:00') }) }, 'with'],
      [{ seen: new Set([4]) }, 'with'],
      [
        {
          selfManage: new Map([
            [3, false],
            [5, true],
          ]),
        },
        'shift',
      ],
      [{ with: swapShift(THEIRS, { userId: 7 }) }, 'with'],
    ];
    for (const [more, field] of cases) {
      let thrown: unknown;
      try {
        decideProposeSwap(propose(more), NOW);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ValidationError);
      expect(Object.keys((thrown as ValidationError).errors!)).toEqual([field]);
    }
  });
});

describe('swapExpiry', () => {
  const shifts = { shift: swapShift(MINE), with: swapShift(THEIRS) };

  it('given both shifts as proposed and both volunteers able to book, then it stands', () => {
    expect(swapExpiry(SWAP, shifts, standing(), NOW)).toBeNull();
  });

  it('given either shift started, cancelled, moved or handed over, then expired', () => {
    expect(swapExpiry(SWAP, shifts, standing(), Date.parse(MINE.start))).toMatch(/started/);
    expect(swapExpiry(SWAP, { ...shifts, with: swapShift(THEIRS, { cancelled: true }) }, standing(), NOW)).toMatch(
      /cancelled/,
    );
    expect(swapExpiry(SWAP, { ...shifts, with: null }, standing(), NOW)).toMatch(/cancelled/);
    expect(
      swapExpiry(SWAP, { ...shifts, shift: swapShift(MINE, { end: iso('2027-01-11 11:00') }) }, standing(), NOW),
    ).toMatch(/times/);
    expect(swapExpiry(SWAP, { ...shifts, with: swapShift(THEIRS, { userId: 10 }) }, standing(), NOW)).toMatch(/hands/);
  });

  it('given a volunteer on hold (now, or recorded), no longer seeing the other rota, or a rota no longer self-managed, then expired', () => {
    const held = new Map([...BOOKERS, [8, booker({ onHold: true })]]);
    expect(swapExpiry(SWAP, shifts, standing({ volunteers: held }), NOW)).toMatch(/hold/);
    expect(swapExpiry(SWAP, shifts, standing({ recordedExpired: true }), NOW)).toMatch(/hold/);
    const unseeing = new Map([...BOOKERS, [8, booker({ seen: new Set([6]) })]]);
    expect(swapExpiry(SWAP, shifts, standing({ volunteers: unseeing }), NOW)).toMatch(/sees/);
    expect(
      swapExpiry(
        SWAP,
        shifts,
        standing({
          selfManage: new Map([
            [3, true],
            [5, false],
          ]),
        }),
        NOW,
      ),
    ).toMatch(/self-managed/);
  });
});

describe('decideSwapAnswer', () => {
  const decider = testDecider({
    evolve,
    decide: (
      s: SwapState | null,
      c: { answer: 'decline' | 'withdraw'; caller: SwapCaller },
      x: { expiry: string | null },
    ) => decideSwapAnswer(s, c.answer, c.caller, x.expiry),
  });

  it('given a proposed swap, when its with volunteer declines, then ShiftSwapDeclined', () => {
    decider
      .given([PROPOSED])
      .when({ answer: 'decline', caller: caller(8) }, { expiry: null })
      .then([{ type: 'rotas.ShiftSwapDeclined', data: { id: 9, organisationId: 1, by: 8 } }]);
  });

  it('given a proposed swap, when its proposer withdraws, then ShiftSwapWithdrawn', () => {
    decider
      .given([PROPOSED])
      .when({ answer: 'withdraw', caller: caller(7) }, { expiry: null })
      .then([{ type: 'rotas.ShiftSwapWithdrawn', data: { id: 9, organisationId: 1, by: 7 } }]);
  });

  it('given no swap, or another organisation’s, then 404', () => {
    decider
      .given([])
      .when({ answer: 'withdraw', caller: caller(7) }, { expiry: null })
      .thenThrows(NotFoundError);
    decider
      .given([PROPOSED])
      .when({ answer: 'withdraw', caller: { ...caller(7), organisationId: 2 } }, { expiry: null })
      .thenThrows(NotFoundError);
  });

  it('given the proposer declining, the with volunteer withdrawing or a manager declining, then 403', () => {
    decider
      .given([PROPOSED])
      .when({ answer: 'decline', caller: caller(7) }, { expiry: null })
      .thenThrows(ForbiddenError);
    decider
      .given([PROPOSED])
      .when({ answer: 'withdraw', caller: caller(8) }, { expiry: null })
      .thenThrows(ForbiddenError);
    decider
      .given([PROPOSED])
      .when({ answer: 'decline', caller: caller(1, [4, 6]) }, { expiry: null })
      .thenThrows(ForbiddenError);
  });

  it('given a swap already withdrawn, or expired, then 409', () => {
    const withdrawn: ShiftSwapEvent = { type: 'rotas.ShiftSwapWithdrawn', data: { id: 9, organisationId: 1, by: 7 } };
    decider
      .given([PROPOSED, withdrawn])
      .when({ answer: 'decline', caller: caller(8) }, { expiry: null })
      .thenThrows(ConflictError);
    decider
      .given([PROPOSED])
      .when({ answer: 'withdraw', caller: caller(7) }, { expiry: 'A shift of this swap has started.' })
      .thenThrows(ConflictError);
  });
});

describe('decideAcceptSwap', () => {
  const facts = (more: Partial<AcceptFacts> = {}): AcceptFacts => ({
    rotas: ROTAS,
    bookers: BOOKERS,
    userShifts: [],
    recordedExpired: false,
    ...more,
  });
  const span = (s: ShiftState): BookedSpan => ({
    id: s.id,
    userId: s.userId,
    rotaId: s.rotaId,
    date: s.date,
    start: Date.parse(s.start),
    end: Date.parse(s.end),
  });
  const accept = (
    who: SwapCaller,
    more: Partial<AcceptFacts> = {},
    shifts = { shift: MINE, with: THEIRS },
    swap: SwapState | null = SWAP,
  ) => decideAcceptSwap(swap, shifts, who, facts(more), NOW);
  const handedOver = (s: ShiftState, toUserId: number) => ({
    streamId: streamOf.shift(s.id),
    events: [
      {
        type: 'rotas.ShiftHandedOver',
        data: {
          id: s.id,
          organisationId: 1,
          rotaId: s.rotaId,
          date: s.date,
          fromUserId: s.userId,
          toUserId,
          by: 'swap',
          swapId: 9,
          leftSeriesId: null,
          sequence: 1,
        },
      },
    ],
  });

  it('given a proposed swap both volunteers can book, when the with volunteer accepts, then the swap accepted and each shift handed to the other volunteer', () => {
    expect(accept(caller(8))).toEqual([
      {
        streamId: streamOf.swap(9),
        events: [{ type: 'rotas.ShiftSwapAccepted', data: { id: 9, organisationId: 1, by: 8 } }],
      },
      handedOver(MINE, 8),
      handedOver(THEIRS, 7),
    ]);
  });

  it('given a manager of both rotas, then accepted; of one rota only, or the proposer, then 403', () => {
    expect(accept(caller(1, [4, 6]))[0]!.events[0]!.type).toBe('rotas.ShiftSwapAccepted');
    expect(() => accept(caller(1, [4]))).toThrow(ForbiddenError);
    expect(() => accept(caller(7))).toThrow(ForbiddenError);
  });

  it('given no swap, then 404; a swap that expired (a shift moved), then 409', () => {
    expect(() => accept(caller(8), {}, undefined, null)).toThrow(NotFoundError);
    const moved = { ...MINE, start: iso('2027-01-11 10:00') };
    expect(() => accept(caller(8), {}, { shift: moved, with: THEIRS })).toThrow(ConflictError);
  });

  it('given two shifts that overlap each other, then rule 6 is judged after the exchange: accepted', () => {
    const mineMonday = shift(100, 7, 3, '2027-01-11 09:00', '2027-01-11 12:00');
    const theirsMonday = shift(200, 8, 5, '2027-01-11 10:00', '2027-01-11 11:00');
    const swap = evolve(null, {
      type: 'rotas.ShiftSwapProposed',
      data: { id: 9, organisationId: 1, shift: side(mineMonday), with: side(theirsMonday), proposedBy: 7 },
    });
    const result = accept(
      caller(8),
      { userShifts: [span(mineMonday), span(theirsMonday)] },
      { shift: mineMonday, with: theirsMonday },
      swap,
    );
    expect(result).toHaveLength(3);
  });

  it('given the with volunteer already booked elsewhere at the time of the shift they gain, then 422 naming shift.start_datetime', () => {
    const clash = shift(300, 8, 3, '2027-01-11 10:00', '2027-01-11 11:00');
    expect(() => accept(caller(8), { userShifts: [span(clash)] })).toThrow(
      expect.objectContaining({ errors: { 'shift.start_datetime': ['The user already has a shift at that time.'] } }),
    );
  });

  it('given the proposer lacking the role the other rota is restricted to, then 422 naming with.user', () => {
    const restricted = new Map([...ROTAS, [5, rota(5, 6, { restrictedByRole: true, roleProfileIds: [30] })]]);
    const bookers = new Map([...BOOKERS, [8, booker({ roleProfileIds: new Set([30]) })]]);
    expect(() => accept(caller(8), { rotas: restricted, bookers })).toThrow(
      expect.objectContaining({ errors: { 'with.user': ['The user holds no role this rota is restricted to.'] } }),
    );
  });

  it('given the shift gained starting on today’s date on a rota without allow_same_day_add, then 422 (rule 8)', () => {
    const today = shift(200, 8, 5, '2027-01-04 14:00', '2027-01-04 15:00');
    const swap = evolve(null, {
      type: 'rotas.ShiftSwapProposed',
      data: { id: 9, organisationId: 1, shift: side(MINE), with: side(today), proposedBy: 7 },
    });
    expect(() => accept(caller(8), {}, { shift: MINE, with: today }, swap)).toThrow(
      expect.objectContaining({
        errors: { 'with.start_datetime': ["Shifts on today's date cannot be added on this rota."] },
      }),
    );
  });
});
