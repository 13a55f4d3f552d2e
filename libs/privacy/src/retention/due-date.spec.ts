import { describe, expect, it } from '@jest/globals';
import { dueOn, endOfDay, retentionMonths, retentionStep, type UserActivity } from './due-date.js';

const at = (iso: string) => new Date(iso);
const activity = (fields: Partial<UserActivity> = {}): UserActivity => ({
  userId: 7,
  registeredAt: null,
  lastLoginAt: null,
  lastFinanceChangeAt: null,
  lastShiftEndAt: null,
  ...fields,
});

describe('retention: due_on is the day after the last activity’s local date plus N months', () => {
  it('given activity on the 10th, when N is 3, then due on the 11th three months later', () => {
    expect(dueOn(at('2026-02-10T12:00:00Z'), 'Europe/London', 3)).toBe('2026-05-11');
  });

  it('given activity on 31 January, when N is 1, then the month is clamped to 28 February and due on 1 March', () => {
    expect(dueOn(at('2026-01-31T12:00:00Z'), 'Europe/London', 1)).toBe('2026-03-01');
  });

  it('given activity on 31 January of a leap year, when N is 1, then 29 February plus a day: 1 March', () => {
    expect(dueOn(at('2028-01-31T12:00:00Z'), 'Europe/London', 1)).toBe('2028-03-01');
  });

  it('given activity on 31 August, when N is 6, then 28 February plus a day: 1 March', () => {
    expect(dueOn(at('2026-08-31T12:00:00Z'), 'Europe/London', 6)).toBe('2027-03-01');
  });

  it('given activity on 30 December, when N is 2, then across the year end: 28 February plus a day', () => {
    expect(dueOn(at('2026-12-30T12:00:00Z'), 'Europe/London', 2)).toBe('2027-03-01');
  });

  describe('the local date is read in the organisation’s zone, across its clock changes', () => {
    it('given Europe/London, when the clocks go forward (00:30 GMT on 29 March), then the local date is the 29th', () => {
      expect(dueOn(at('2026-03-29T00:30:00Z'), 'Europe/London', 1)).toBe('2026-04-30');
    });

    it('given Europe/London in summer time, when 23:30 UTC is 00:30 BST the next day, then that next day counts', () => {
      expect(dueOn(at('2026-10-24T23:30:00Z'), 'Europe/London', 6)).toBe('2027-04-26');
      // Before summer time the same UTC hour is the same day.
      expect(dueOn(at('2026-01-10T23:30:00Z'), 'Europe/London', 6)).toBe('2026-07-11');
    });

    it('given America/New_York, when 04:30 UTC on the day the clocks go forward is 23:30 EST the day before, then that day counts', () => {
      expect(dueOn(at('2026-03-08T04:30:00Z'), 'America/New_York', 1)).toBe('2026-04-08');
    });

    it('given America/New_York, when 03:30 UTC on 1 November is 23:30 EDT on 31 October, then 30 November plus a day', () => {
      expect(dueOn(at('2026-11-01T03:30:00Z'), 'America/New_York', 1)).toBe('2026-12-01');
    });

    it('given Pacific/Auckland, when 11:30 UTC on 4 April is 00:30 NZDT on 5 April (the clocks go back that night), then the 5th counts', () => {
      expect(dueOn(at('2026-04-04T11:30:00Z'), 'Pacific/Auckland', 1)).toBe('2026-05-06');
    });

    it('given Pacific/Auckland, when 11:30 UTC on 26 September is 23:30 NZST the same day (the clocks go forward that night), then the 26th counts', () => {
      expect(dueOn(at('2026-09-26T11:30:00Z'), 'Pacific/Auckland', 12)).toBe('2027-09-27');
    });

    it('given a zone, when the sweep’s day ends, then it ends at the zone’s next midnight (a 23-hour day included)', () => {
      expect(endOfDay('2026-03-28', 'Europe/London')).toEqual(at('2026-03-29T00:00:00Z'));
      expect(endOfDay('2026-03-29', 'Europe/London')).toEqual(at('2026-03-29T23:00:00Z'));
      expect(endOfDay('2026-09-26', 'Pacific/Auckland')).toEqual(at('2026-09-26T12:00:00Z'));
      expect(endOfDay('2026-03-08', 'America/New_York')).toEqual(at('2026-03-09T04:00:00Z'));
    });
  });
});

describe('retention: the setting', () => {
  it('given "0", an empty or a nonsense value, then never (0 months)', () => {
    expect([retentionMonths('0'), retentionMonths(''), retentionMonths('x'), retentionMonths(null)]).toEqual([
      0, 0, 0, 0,
    ]);
  });

  it('given "24", then 24 months', () => {
    expect(retentionMonths('24')).toBe(24);
  });
});

describe('retention: what a sweep on a date does with a user', () => {
  const zone = 'Europe/London';
  const registered = activity({ registeredAt: at('2026-01-10T09:00:00Z') }); // due 2026-02-11 at N = 1

  it('given last activity on 10 January and N = 1, when swept on 11 February, then anonymised', () => {
    expect(retentionStep(registered, '2026-02-11', zone, 1)).toEqual({
      kind: 'anonymise',
      lastActivity: '2026-01-10',
      dueOn: '2026-02-11',
    });
  });

  it('given the same user, when swept on 10 February, then not yet: warned (inside the 14 days)', () => {
    expect(retentionStep(registered, '2026-02-10', zone, 1)).toEqual({
      kind: 'warn',
      lastActivity: '2026-01-10',
      dueOn: '2026-02-11',
    });
  });

  it('given the same user, when swept exactly 14 days before due_on, then warned; 15 days before, nothing', () => {
    expect(retentionStep(registered, '2026-01-28', zone, 1).kind).toBe('warn');
    expect(retentionStep(registered, '2026-01-27', zone, 1).kind).toBe('none');
  });

  it('given the setting "0", when swept any time later, then nothing', () => {
    expect(retentionStep(registered, '2030-01-01', zone, 0)).toEqual({ kind: 'none' });
  });

  it('given several activities, then the latest counts: a later log-in or expense change moves due_on', () => {
    const later = activity({
      registeredAt: at('2026-01-10T09:00:00Z'),
      lastLoginAt: at('2026-01-20T09:00:00Z'),
      lastFinanceChangeAt: at('2026-01-25T09:00:00Z'),
    });
    expect(retentionStep(later, '2026-02-12', zone, 1)).toEqual({
      kind: 'warn',
      lastActivity: '2026-01-25',
      dueOn: '2026-02-26',
    });
  });

  it('given a shift that ends after the sweep’s day, then spared, however old the rest', () => {
    const busy = activity({ registeredAt: at('2020-01-01T09:00:00Z'), lastShiftEndAt: at('2026-02-12T00:30:00Z') });
    expect(retentionStep(busy, '2026-02-11', zone, 1)).toEqual({ kind: 'spared' });
  });

  it('given a shift that ended on the sweep’s day, then its end is the last activity: not due', () => {
    const done = activity({ registeredAt: at('2020-01-01T09:00:00Z'), lastShiftEndAt: at('2026-02-11T17:00:00Z') });
    expect(retentionStep(done, '2026-02-11', zone, 1)).toEqual({ kind: 'none' });
    expect(retentionStep(done, '2026-03-12', zone, 1)).toEqual({
      kind: 'anonymise',
      lastActivity: '2026-02-11',
      dueOn: '2026-03-12',
    });
  });

  it('given no activity known at all, then nothing', () => {
    expect(retentionStep(activity(), '2026-02-11', zone, 1)).toEqual({ kind: 'none' });
  });
});
