import { describe, expect, it } from '@jest/globals';
import { NotFoundError } from '#app/platform';
import { streamOf } from '../rotas.events.js';
import { cancelSeriesWrite, rotaToCancel } from './cancel-series.write.js';
import type { ShiftRow } from './shift.queries.js';

const NOW = Date.parse('2027-03-08T12:00:00Z');
const REACH = { userId: 7, seen: new Set([1]), managed: new Set([1]) } as never;
const ROTA = { id: 3, teamId: 1 } as never;
const planning = { now: NOW, read: async () => ({}) as never };
const occurrence = (id: number, date: string): ShiftRow => ({
  id,
  rotaId: 3,
  teamId: 1,
  userId: 7,
  seriesId: 20,
  date,
  start: `${date}T09:00:00.000Z`,
  end: `${date}T10:00:00.000Z`,
  startWall: `${date} 09:00`,
  endWall: `${date} 10:00`,
});
const [today, next, later] = [occurrence(10, '2027-03-08'), occurrence(11, '2027-03-15'), occurrence(12, '2027-03-22')];

describe('cancelSeriesWrite', () => {
  const write = cancelSeriesWrite({ seriesId: 20, rota: ROTA, today: '2027-03-08', reach: REACH }, async () => [
    today,
    next,
  ]);

  it("given today's occurrence already started, then the plan keeps the later ones only, and names the series and each as streams", async () => {
    const plan = await write.plan!(planning);
    expect(plan.map((o) => o.id)).toEqual([11]);
    expect(write.streams(plan, [])).toEqual({
      series: expect.objectContaining({ streamId: streamOf.series(20) }),
      11: expect.objectContaining({ streamId: streamOf.shift(11) }),
    });
  });

  it('given an occurrence the worker booked since the plan, then the plan does not hold', () => {
    const given = (facts: ShiftRow[]) => ({ plan: [next], facts, now: NOW });
    expect(write.holds!({} as never, given([today, next]))).toBe(true);
    expect(write.holds!({} as never, given([today, next, later]))).toBe(false);
  });

  it('given no series state, then 404', () => {
    expect(() => write.decide({ series: null } as never, { plan: [], facts: [], now: NOW })).toThrow(NotFoundError);
  });
});

describe('rotaToCancel', () => {
  it('given the rota gone, then 404', () => {
    expect(() => rotaToCancel({ userId: 7 } as never, undefined, REACH)).toThrow(NotFoundError);
  });
});
