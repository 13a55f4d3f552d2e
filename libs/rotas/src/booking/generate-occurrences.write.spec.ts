import { describe, expect, it } from '@jest/globals';
import { Cause } from '#app/event-store';
import { gateOf, streamOf } from '../rotas.events.js';
import { generationWrite, timedOf } from './generate-occurrences.write.js';
import { planChunk } from './generation.js';
import type { SeriesState } from './repeating-shift.js';

const ZONE = 'Europe/London';
const NOW = Date.parse('2027-01-01T12:00:00Z');

/** A weekly Tuesday 18:00–21:00 series of user 7 on rota 4, from Tuesday 2027-01-05, booked up to 2027-01-19. */
const series: SeriesState = {
  ...{ id: 9, organisationId: 1, userId: 7, rotaId: 4, teamId: 10, firstShiftId: 100, frequency: 1 },
  ...{ weekdays: ['tue'], startTime: '18:00', endTime: '21:00', dayOffset: 0, retimed: [], exceptions: [] },
  ...{ startDate: '2027-01-05', endDate: null, until: '2027-01-19', generatedUntil: '2027-01-05', ended: null },
  ...{ ignoreOnHold: false, confirmRoleRestriction: false },
};
const plan = planChunk(series, ZONE)!;
const shiftIds = new Map(timedOf(plan).map((o, i) => [o.date, 1000 + i]));
const cause = new Cause({ eventId: '00000000-0000-4000-8000-000000000001', metadata: {} }, 'a test');
const write = generationWrite({ cause, zone: ZONE, series, plan, shiftIds, bookers: new Map() }, async () => {
  throw new Error('not read in a pure spec');
});

describe('generationWrite', () => {
  it('given a chunk of two Tuesdays, then it advances their rota-days and user-days and holds the rota calendar', () => {
    expect(write.gates!(undefined)).toEqual({
      advance: [
        gateOf.rotaDay(4, '2027-01-12'),
        gateOf.userDay(7, '2027-01-12'),
        gateOf.rotaDay(4, '2027-01-19'),
        gateOf.userDay(7, '2027-01-19'),
      ],
      hold: [gateOf.rotaCalendar(4)],
    });
  });

  it('given drawn ids, then the series is read and each occurrence is a new stream named by its date', () => {
    expect(write.streams(undefined, null)).toEqual({
      series: expect.objectContaining({ streamId: streamOf.series(9) }),
      '2027-01-12': { streamId: streamOf.shift(1000), expect: 'no_stream' },
      '2027-01-19': { streamId: streamOf.shift(1001), expect: 'no_stream' },
    });
  });

  it('given the series moved past the plan (read again), then nothing is appended', () => {
    expect(write.decide({ series: null } as never, { plan: undefined, facts: null, now: NOW })).toEqual([]);
  });

  it('given the same chunk decided twice, then its events get the same ids (from the cause)', () => {
    const states = { series } as never;
    const facts = { rotas: new Map(), userShifts: [], rotaDays: new Map() };
    const ids = () =>
      write.decide(states, { plan: undefined, facts, now: NOW }).flatMap((s) => s.events.map((e) => e.eventId));
    expect(ids()).toEqual(ids());
    expect(ids().length).toBeGreaterThan(0);
  });
});
