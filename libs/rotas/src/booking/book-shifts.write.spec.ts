import { describe, expect, it } from '@jest/globals';
import { identityGateOf } from '#app/identity';
import { NotFoundError, ValidationError } from '#app/platform';
import { gateOf, streamOf } from '../rotas.events.js';
import { type BookingReads, bookShiftsWrite, parseBooking, type ShiftRequest, withIds } from './book-shifts.write.js';

// 2027-03-28: the clocks go forward in London at 01:00.
const ZONE = 'Europe/London';
const request = (start: string, end: string, more: Partial<ShiftRequest> = {}): ShiftRequest => ({
  start_datetime: start,
  end_datetime: end,
  userId: 7,
  rotaId: 3,
  recurrence: null,
  ignoreOnHold: false,
  confirmRoleRestriction: false,
  ...more,
});
const OPTIONS = { zone: ZONE, today: '2027-03-01', bulk: true };
const REACH = { userId: 7, seen: new Set([1]), managed: new Set<number>() } as never;
const noRead = async (): Promise<BookingReads> => {
  throw new Error('not read in a pure spec');
};

describe('parseBooking', () => {
  it('given two bad items, then one 422 names every problem of each, keyed by its index', () => {
    const bad = [request('2027-03-28 10:00', '2027-03-28 09:00'), request('nope', '2027-03-28 09:00')];
    let error: unknown;
    try {
      parseBooking(bad, OPTIONS);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(Object.keys((error as ValidationError).errors ?? {}).sort()).toEqual([
      'shifts.0.end_datetime',
      'shifts.1.start_datetime',
    ]);
  });

  it('given a wall-clock time that the spring change skips, then 422 on start_datetime', () => {
    expect(() => parseBooking([request('2027-03-28 01:30', '2027-03-28 03:00')], OPTIONS)).toThrow(ValidationError);
  });
});

describe('bookShiftsWrite', () => {
  const items = withIds(
    parseBooking(
      [
        request('2027-03-29 22:00', '2027-03-30 02:00'),
        request('2027-03-29 09:00', '2027-03-29 10:00', {
          userId: 8,
          recurrence: { recurrence_period: 'week', recurrence_frequency: 1 },
        }),
      ],
      OPTIONS,
    ),
    { shifts: [100, 101], series: [20] },
  );
  const write = bookShiftsWrite({ organisationId: 1, zone: ZONE, items, reach: REACH }, noRead);

  it('given an overnight shift, then it advances its rota-day and both days of its user, and holds the calendar and each user', () => {
    const gates = write.gates();
    expect(gates.advance).toEqual([
      gateOf.rotaDay(3, '2027-03-29'),
      gateOf.userDay(7, '2027-03-29'),
      gateOf.userDay(7, '2027-03-30'),
      gateOf.rotaDay(3, '2027-03-29'),
      gateOf.userDay(8, '2027-03-29'),
    ]);
    expect(gates.hold).toEqual([gateOf.rotaCalendar(3), identityGateOf.user(7), identityGateOf.user(8)]);
  });

  it('given drawn ids, then each new shift and series is a new stream, not read', () => {
    expect(write.streams()).toEqual({
      'shift 100': { streamId: streamOf.shift(100), expect: 'no_stream' },
      'shift 101': { streamId: streamOf.shift(101), expect: 'no_stream' },
      'series 20': { streamId: streamOf.series(20), expect: 'no_stream' },
    });
  });

  it("given a rota the facts do not hold (another organisation's), then 404 before any rule", () => {
    const facts = { rotas: new Map(), userShifts: [], rotaDays: new Map(), bookers: new Map() } as BookingReads;
    expect(() => write.decide(undefined, { facts, now: Date.parse('2027-03-01T12:00:00Z') })).toThrow(NotFoundError);
  });
});
