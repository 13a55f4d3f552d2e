import { describe, expect, it } from '@jest/globals';
import { ForbiddenError, NotFoundError } from '#app/platform';
import type { CallerReach } from '../rotas.policy.js';
import { rotaSeven } from './rota.fixtures.js';
import { sentTimeslots, type TimeslotsChange, updateTimeslotsChange } from './update-timeslots.write.js';

const reach = (manages: number[], seen = [3]): CallerReach => ({
  userId: 1,
  seen: new Set(seen),
  manages: new Set(manages),
  addsShifts: new Set(),
  onHold: false,
});
const tuesday = { start_time: '18:00', end_time: '02:00', min: 0, ideal: 1, max: 2 };
const change = (over: Partial<TimeslotsChange> = {}): TimeslotsChange => ({
  rotaId: 7,
  command: { organisationId: 1, from: '2026-12-01', weekdays: { tuesday: [tuesday] } },
  reach: reach([3]),
  zone: 'Europe/London',
  today: '2026-11-20',
  timeslotIds: [400],
  ...over,
});
const decided = (c: TimeslotsChange, rota = rotaSeven()) =>
  updateTimeslotsChange(c).decide({ rotas: new Map([[7, rota]]), teams: new Map() });

describe('sentTimeslots', () => {
  it('given weekdays of lists and of other things, then it counts the lists’ items, at most MAX_TIMESLOTS', () => {
    expect(sentTimeslots({ monday: [1, 2], tuesday: null, friday: [3] })).toBe(3);
    expect(sentTimeslots('nope')).toBe(0);
    expect(sentTimeslots({ monday: new Array(500).fill(0) })).toBe(200);
  });
});

describe('updateTimeslotsChange', () => {
  it('given a rota id, then the change reads that rota and can move its calendar', () => {
    const c = updateTimeslotsChange(change());
    expect([c.rotaIds, c.movesCalendars, c.zone]).toEqual([[7], undefined, 'Europe/London']);
  });

  it('given a rota of another organisation or none, then 404; hidden or not managed, then 403', () => {
    expect(() => decided(change(), rotaSeven({ organisationId: 2 }))).toThrow(NotFoundError);
    expect(() => updateTimeslotsChange(change()).decide({ rotas: new Map(), teams: new Map() })).toThrow(NotFoundError);
    expect(() => decided(change({ reach: reach([3], []) }))).toThrow(ForbiddenError);
    expect(() => decided(change({ reach: reach([]) }))).toThrow(ForbiddenError);
  });

  it('given a managed rota, then the timeslots change from `from`, the new slot under the id drawn, each attempt alike', () => {
    const c = change();
    for (const events of [decided(c), decided(c)]) {
      expect(events.map((e) => e.type)).toEqual(['rotas.RotaTimeslotsChanged']);
      expect(JSON.stringify(events[0])).toContain('"id":400');
    }
  });
});
