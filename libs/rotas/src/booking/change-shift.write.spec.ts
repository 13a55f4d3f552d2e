import { describe, expect, it } from '@jest/globals';
import type { WriteQuery } from '#app/event-store';
import { ValidationError } from '#app/platform';
import { gateOf, streamOf } from '../rotas.events.js';
import { type ShiftChange, changeShiftWrite, type EditPlan, type ShiftEditReads } from './change-shift.write.js';
import type { ShiftRow } from './shift.queries.js';

const ZONE = 'Europe/London';
const NOW = Date.parse('2027-03-01T12:00:00Z');
const REACH = { userId: 7, seen: new Set([1]), managed: new Set([1]) } as never;
const planning = { now: NOW, read: async () => ({}) as never };
const db = {} as WriteQuery;

const shift = (id: number, date: string, more: Partial<ShiftRow> = {}): ShiftRow => ({
  id,
  rotaId: 3,
  teamId: 1,
  userId: 7,
  seriesId: null,
  date,
  start: `${date}T09:00:00.000Z`,
  end: `${date}T10:00:00.000Z`,
  startWall: `${date} 09:00`,
  endWall: `${date} 10:00`,
  ...more,
});
const change = (start: string, end: string, more: Partial<ShiftChange> = {}): ShiftChange => ({
  start_datetime: start,
  end_datetime: end,
  recurrence: undefined,
  mode: 'single',
  ignoreOnHold: false,
  confirmRoleRestriction: false,
  ...more,
});

/** In-memory reads: the shift, its series' occurrences, and counters of what was drawn. */
function readsOf(row: ShiftRow, occurrences: ShiftRow[] = []) {
  const drawn: number[] = [];
  const reads: ShiftEditReads = {
    shift: async () => row,
    series: async (id) => ({
      id,
      userId: row.userId,
      rotaId: row.rotaId,
      teamId: row.teamId,
      frequency: 1,
      weekdays: ['mon'],
      startDate: row.date,
      endDate: null,
    }),
    bookers: async () => new Map(),
    newSeriesId: async () => {
      drawn.push(50);
      return 50;
    },
    occurrences: async () => occurrences,
    facts: async () => ({ rotas: new Map(), userShifts: [], rotaDays: new Map() }),
  };
  return { reads, drawn };
}

const edit = (c: ShiftChange) => ({ change: c, zone: ZONE, today: '2027-03-01', reach: REACH });

describe('changeShiftWrite', () => {
  it('given a single edit to an overnight time, then it advances the new rota-day and both user-days, holds the calendar, and names the shift stream alone', async () => {
    const { reads } = readsOf(shift(10, '2027-03-29'));
    const write = changeShiftWrite(edit(change('2027-03-29 22:00', '2027-03-30 02:00')), reads);
    const plan = await write.plan!(planning);
    expect(plan.plan).toEqual({ kind: 'single' });
    expect(write.gates!(plan)).toEqual({
      advance: [gateOf.rotaDay(3, '2027-03-29'), gateOf.userDay(7, '2027-03-29'), gateOf.userDay(7, '2027-03-30')],
      hold: [gateOf.rotaCalendar(3)],
    });
    expect(Object.keys(write.streams(plan, undefined as never))).toEqual(['shift']);
  });

  it('given a recurring retime, then each later occurrence is a stream by its id and its new times are gated', async () => {
    const row = shift(10, '2027-03-01', { seriesId: 20 });
    const later = shift(11, '2027-03-08', { seriesId: 20 });
    const { reads } = readsOf(row, [row, later]);
    const write = changeShiftWrite(edit(change('2027-03-01 11:00', '2027-03-01 12:00', { mode: 'recurring' })), reads);
    const plan = await write.plan!(planning);
    expect(plan.plan).toEqual({ kind: 'retime', seriesId: 20 });
    expect(plan.later.map((o) => o.id)).toEqual([11]);
    expect(write.gates!(plan).advance).toEqual([
      gateOf.rotaDay(3, '2027-03-01'),
      gateOf.userDay(7, '2027-03-01'),
      gateOf.rotaDay(3, '2027-03-08'),
      gateOf.userDay(7, '2027-03-08'),
    ]);
    expect(write.streams(plan, undefined as never)).toMatchObject({
      shift: { streamId: streamOf.shift(10) },
      series: { streamId: streamOf.series(20) },
      11: { streamId: streamOf.shift(11) },
    });
  });

  it('given an occurrence booked between the plan and the write, then the plan does not hold', async () => {
    const row = shift(10, '2027-03-01', { seriesId: 20 });
    const { reads } = readsOf(row, [row]);
    const write = changeShiftWrite(edit(change('2027-03-01 11:00', '2027-03-01 12:00', { mode: 'recurring' })), reads);
    const plan = await write.plan!(planning);
    const facts = { ...(await write.facts!(db, plan)), listed: [row, shift(12, '2027-03-15', { seriesId: 20 })] };
    expect(write.holds!({ shift: null } as never, { plan, facts, now: NOW })).toBe(false);
  });

  it('given a new pattern on a single shift, then one series id is drawn for every attempt and named as a new stream', async () => {
    const { reads, drawn } = readsOf(shift(10, '2027-03-01'));
    const recurrence = { recurrence_period: 'week', recurrence_frequency: 1 };
    const write = changeShiftWrite(
      edit(change('2027-03-01 09:00', '2027-03-01 10:00', { mode: 'recurring', recurrence })),
      reads,
    );
    const [first, again]: EditPlan[] = [await write.plan!(planning), await write.plan!(planning)];
    expect([first.newSeries, again.newSeries, drawn]).toEqual([50, 50, [50]]);
    expect(write.streams(first, undefined as never)).toMatchObject({
      newSeries: { streamId: streamOf.series(50), expect: 'no_stream' },
    });
  });

  it('given end before start, then the plan is refused with a 422', async () => {
    const { reads } = readsOf(shift(10, '2027-03-01'));
    const write = changeShiftWrite(edit(change('2027-03-01 10:00', '2027-03-01 09:00')), reads);
    await expect(write.plan!(planning)).rejects.toThrow(ValidationError);
  });
});
