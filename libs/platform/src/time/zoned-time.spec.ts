import { afterEach, describe, expect, it } from '@jest/globals';
import { DateTime, Settings } from 'luxon';
import {
  addCalendarMonths,
  instantToWallClock,
  withinCalendar,
  isValidZone,
  monthsBefore,
  NonexistentWallClockError,
  parseCalendarDate,
  todayIn,
  wallClockToInstant,
} from './zoned-time.js';

const utc = (iso: string) => new Date(iso);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Every wall-clock time (HH:MM) of one day. */
const minutesOfDay = Array.from(
  { length: 24 * 60 },
  (_, i) => `${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
);

describe('todayIn', () => {
  it('given one instant, when asked in three zones, then each answers its own date', () => {
    const lateEvening = utc('2026-11-21T23:30:00Z');
    expect(todayIn('Europe/London', lateEvening)).toBe('2026-11-21');
    expect(todayIn('Pacific/Auckland', lateEvening)).toBe('2026-11-22');
    expect(todayIn('America/New_York', lateEvening)).toBe('2026-11-21');
  });

  it("given the last and the first millisecond of a day, then today changes at the zone's midnight, also at a +05:45 offset", () => {
    expect(todayIn('Europe/London', utc('2026-11-21T23:59:59.999Z'))).toBe('2026-11-21');
    expect(todayIn('Europe/London', utc('2026-11-22T00:00:00.000Z'))).toBe('2026-11-22');
    // Kathmandu is UTC+05:45: its midnight is 18:15 UTC. The answer is kept per UTC minute, so the
    // second call inside 18:14 must come from the cache and still be right.
    expect(todayIn('Asia/Kathmandu', utc('2026-11-21T18:14:59.999Z'))).toBe('2026-11-21');
    expect(todayIn('Asia/Kathmandu', utc('2026-11-21T18:15:00.000Z'))).toBe('2026-11-22');
    expect(todayIn('Asia/Kathmandu', utc('2026-11-21T18:14:30.000Z'))).toBe('2026-11-21');
    expect(todayIn('Asia/Kathmandu', utc('2026-11-21T18:14:00.000Z'))).toBe('2026-11-21');
    expect(todayIn('Asia/Kathmandu', utc('2026-11-21T18:15:59.999Z'))).toBe('2026-11-22');
  });

  it('given the daylight-saving days, then today still changes at local midnight', () => {
    expect(todayIn('Europe/London', utc('2026-10-24T22:59:59.999Z'))).toBe('2026-10-24'); // 23:59 BST
    expect(todayIn('Europe/London', utc('2026-10-24T23:00:00.000Z'))).toBe('2026-10-25'); // 00:00 BST
    expect(todayIn('Pacific/Auckland', utc('2026-09-26T11:59:59.999Z'))).toBe('2026-09-26'); // 23:59 NZST
    expect(todayIn('Pacific/Auckland', utc('2026-09-26T12:00:00.000Z'))).toBe('2026-09-27'); // 00:00 NZST
  });

  it('given an unknown zone, then it is a RangeError', () => {
    expect(() => todayIn('Mars/Olympus', utc('2026-11-21T12:00:00Z'))).toThrow(RangeError);
    expect(() => todayIn('local', utc('2026-11-21T12:00:00Z'))).toThrow(RangeError);
  });
});

describe('addCalendarMonths and monthsBefore', () => {
  it('given a day the target month lacks, then the day is clamped to its last day', () => {
    expect(monthsBefore('2026-03-31', 1)).toBe('2026-02-28');
    expect(monthsBefore('2028-03-31', 1)).toBe('2028-02-29');
    expect(addCalendarMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addCalendarMonths('2026-05-31', -1)).toBe('2026-04-30');
    expect(addCalendarMonths('2024-02-29', 12)).toBe('2025-02-28');
  });

  it('given whole months across a year, then the calendar is counted', () => {
    expect(monthsBefore('2026-01-15', 3)).toBe('2025-10-15');
    expect(monthsBefore('2026-11-21', 12)).toBe('2025-11-21');
    expect(addCalendarMonths('2026-11-21', 3)).toBe('2027-02-21');
    expect(addCalendarMonths('2026-11-21', 0)).toBe('2026-11-21');
  });

  it('given a bad date, a fraction of a month or a result before year 1, then it is a RangeError', () => {
    expect(() => addCalendarMonths('2026-02-30', 1)).toThrow(RangeError);
    expect(() => addCalendarMonths('2026-01-01', 1.5)).toThrow(RangeError);
    expect(() => monthsBefore('0001-01-31', 1)).toThrow(RangeError);
  });
});

describe('withinCalendar', () => {
  it('holds from 0001-01-01 00:00 to 9999-12-31 23:59 in UTC and in the zone, and not outside it in either', () => {
    expect(withinCalendar(new Date('9999-12-31T23:59:00Z'), 'UTC')).toBe(true);
    expect(withinCalendar(new Date('9999-12-31T14:59:00Z'), 'Asia/Tokyo')).toBe(true);
    expect(withinCalendar(new Date('9999-12-31T15:00:00Z'), 'Asia/Tokyo')).toBe(false);
    expect(withinCalendar(new Date(Date.UTC(10_000, 0, 1, 3)), 'America/New_York')).toBe(false);
    expect(withinCalendar(new Date(Number.NaN), 'UTC')).toBe(false);
    // Year 1 starts the calendar: in UTC, and in the zone (London's LMT is 1 min 15 s behind UTC).
    expect(withinCalendar(new Date('0001-01-01T00:00:00Z'), 'UTC')).toBe(true);
    expect(withinCalendar(new Date('0001-01-01T00:00:00Z'), 'Europe/London')).toBe(false);
    expect(withinCalendar(new Date('0001-01-01T00:02:00Z'), 'Europe/London')).toBe(true);
    expect(withinCalendar(new Date('0000-12-31T23:00:00Z'), 'Asia/Tokyo')).toBe(false);
  });
});

describe('parseCalendarDate', () => {
  it.each(['2024-02-29', '2000-02-29', '2026-04-30', '0001-01-01', '9999-12-31'])(
    'given %s, then its parts',
    (text) => {
      const [year, month, day] = text.split('-').map(Number);
      expect(parseCalendarDate(text)).toEqual({ year, month, day });
    },
  );

  it.each([
    '2026-02-30',
    '2026-13-01',
    '0000-00-00',
    '0000-01-01',
    '2025-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-00-10',
    '2026-01-00',
    '2026-1-01',
    '20260101',
    '2026-01-01T00:00',
    ' 2026-01-01',
    '２０２６-01-01',
    '',
  ])('given %p, then null', (text) => expect(parseCalendarDate(text)).toBeNull());
});

describe('isValidZone', () => {
  it.each(['Europe/London', 'America/New_York', 'Pacific/Auckland', 'Asia/Kathmandu', 'UTC', 'Etc/GMT+5'])(
    'accepts %s',
    (zone) => expect(isValidZone(zone)).toBe(true),
  );
  it.each(['Mars/Olympus', 'EST', 'local', 'system', 'UTC+3', '', 'Europe/', null, 42])('refuses %p', (zone) =>
    expect(isValidZone(zone)).toBe(false),
  );
});

/** The days of 2026 on which the clocks change in the three zones of the rota tests. */
const springGaps = [
  // zone, date, the first skipped minute, the last skipped minute, the instant of the minute before and of the first after
  {
    zone: 'Europe/London',
    date: '2026-03-29',
    first: '01:00',
    last: '01:59',
    before: ['00:59', '2026-03-29T00:59:00Z'],
    after: ['02:00', '2026-03-29T01:00:00Z'],
  },
  {
    zone: 'America/New_York',
    date: '2026-03-08',
    first: '02:00',
    last: '02:59',
    before: ['01:59', '2026-03-08T06:59:00Z'],
    after: ['03:00', '2026-03-08T07:00:00Z'],
  },
  {
    zone: 'Pacific/Auckland',
    date: '2026-09-27',
    first: '02:00',
    last: '02:59',
    before: ['01:59', '2026-09-26T13:59:00Z'],
    after: ['03:00', '2026-09-26T14:00:00Z'],
  },
] as const;

const autumnRepeats = [
  // zone, date, a repeated time, its earlier and later instants, and the instants of the repeat's edges
  {
    zone: 'Europe/London',
    date: '2026-10-25',
    time: '01:30',
    earlier: '2026-10-25T00:30:00Z',
    later: '2026-10-25T01:30:00Z',
    start: ['01:00', '2026-10-25T00:00:00Z'],
    end: ['02:00', '2026-10-25T02:00:00Z'],
  },
  {
    zone: 'America/New_York',
    date: '2026-11-01',
    time: '01:30',
    earlier: '2026-11-01T05:30:00Z',
    later: '2026-11-01T06:30:00Z',
    start: ['01:00', '2026-11-01T05:00:00Z'],
    end: ['02:00', '2026-11-01T07:00:00Z'],
  },
  {
    zone: 'Pacific/Auckland',
    date: '2026-04-05',
    time: '02:30',
    earlier: '2026-04-04T13:30:00Z',
    later: '2026-04-04T14:30:00Z',
    start: ['02:00', '2026-04-04T13:00:00Z'],
    end: ['03:00', '2026-04-04T15:00:00Z'],
  },
] as const;

describe('wallClockToInstant and instantToWallClock', () => {
  const realNow = Settings.now;
  afterEach(() => {
    Settings.now = realNow;
    Settings.resetCaches();
  });

  describe.each(springGaps)('on the spring day of $zone ($date)', ({ zone, date, first, last, before, after }) => {
    it('given a time in the gap, then it is refused with a NonexistentWallClockError naming date, time and zone', () => {
      for (const time of [first, last]) {
        expect(() => wallClockToInstant(date, time, zone)).toThrow(NonexistentWallClockError);
      }
      let error: unknown;
      try {
        wallClockToInstant(date, first, zone);
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ date, time: first, zone });
      expect((error as NonexistentWallClockError).messageFor('start_datetime')).toBe(
        `The start_datetime field is a time that does not exist in ${zone} on ${date} (the clocks go forward over it).`,
      );
    });

    it('given the minutes either side of the gap, then they are one minute apart', () => {
      expect(wallClockToInstant(date, before[0], zone)).toEqual(utc(before[1]));
      expect(wallClockToInstant(date, after[0], zone)).toEqual(utc(after[1]));
      expect(
        wallClockToInstant(date, after[0], zone).getTime() - wallClockToInstant(date, before[0], zone).getTime(),
      ).toBe(MINUTE);
    });

    it('given every minute of the day, then exactly the 60 skipped ones are refused and the others round-trip', () => {
      const refused: string[] = [];
      for (const time of minutesOfDay) {
        try {
          expect(instantToWallClock(wallClockToInstant(date, time, zone), zone)).toEqual({ date, time });
        } catch (e) {
          if (!(e instanceof NonexistentWallClockError)) throw e;
          refused.push(time);
        }
      }
      expect(refused).toHaveLength(60);
      expect([refused[0], refused.at(-1)]).toEqual([first, last]);
    });

    it('given gap "forward" (computed cut points), then a skipped time moves forward by the gap', () => {
      const skipped = wallClockToInstant(date, first, zone, { gap: 'forward' });
      expect(skipped).toEqual(utc(after[1]));
      expect(instantToWallClock(skipped, zone)).toEqual({ date, time: after[0] });
    });

    it('given gap "first-after", then every skipped time is the first minute after the gap, and existing times are untouched', () => {
      const middle = `${first.slice(0, 3)}30`;
      for (const time of [first, middle, last]) {
        expect(wallClockToInstant(date, time, zone, { gap: 'first-after' })).toEqual(utc(after[1]));
      }
      expect(wallClockToInstant(date, before[0], zone, { gap: 'first-after' })).toEqual(utc(before[1]));
      expect(wallClockToInstant(date, after[0], zone, { gap: 'first-after' })).toEqual(utc(after[1]));
    });

    it('given the day is an hour short, then 00:00 to 23:59 spans 23 hours less a minute', () => {
      expect(
        wallClockToInstant(date, '23:59', zone).getTime() - wallClockToInstant(date, '00:00', zone).getTime(),
      ).toBe(23 * HOUR - MINUTE);
    });
  });

  describe.each(autumnRepeats)(
    'on the autumn day of $zone ($date)',
    ({ zone, date, time, earlier, later, start, end }) => {
      it('given a repeated time, then it is the earlier of its two instants, both of which read back as that time', () => {
        expect(wallClockToInstant(date, time, zone)).toEqual(utc(earlier));
        expect(instantToWallClock(utc(earlier), zone)).toEqual({ date, time });
        expect(instantToWallClock(utc(later), zone)).toEqual({ date, time });
      });

      it("given the repeat's edges, then its first minute is the earlier instant and the minute after it comes once", () => {
        expect(wallClockToInstant(date, start[0], zone)).toEqual(utc(start[1]));
        expect(wallClockToInstant(date, end[0], zone)).toEqual(utc(end[1]));
      });

      it('given luxon guesses from a summer or a winter "now", then the answer is still the earlier instant', () => {
        for (const now of [Date.parse('2026-01-15T12:00:00Z'), Date.parse('2026-07-15T12:00:00Z')]) {
          Settings.now = () => now;
          Settings.resetCaches();
          expect(wallClockToInstant(date, time, zone)).toEqual(utc(earlier));
        }
      });

      it(
        'given every minute of the day around the repeat, then each instant reads back to a wall clock that ' +
          'maps to it or, in the second pass, to an hour before',
        () => {
          const from = wallClockToInstant(date, '00:00', zone).getTime();
          const to = from + 25 * HOUR;
          let secondPass = 0;
          for (let t = from; t < to; t += MINUTE) {
            const wall = instantToWallClock(new Date(t), zone);
            const back = wallClockToInstant(wall.date, wall.time, zone).getTime();
            if (back !== t) {
              expect(back).toBe(t - HOUR);
              secondPass++;
            }
          }
          expect(secondPass).toBe(60);
        },
      );

      it('given the day is an hour long, then 00:00 to 23:59 spans 25 hours less a minute', () => {
        expect(
          wallClockToInstant(date, '23:59', zone).getTime() - wallClockToInstant(date, '00:00', zone).getTime(),
        ).toBe(25 * HOUR - MINUTE);
      });
    },
  );

  it('given 23:59 and the next 00:00, then they are a minute apart on different dates, in each zone', () => {
    const cases = [
      ['Europe/London', '2026-03-28', '2026-03-29', '2026-03-28T23:59:00Z'],
      ['Europe/London', '2026-10-24', '2026-10-25', '2026-10-24T22:59:00Z'],
      ['America/New_York', '2026-03-07', '2026-03-08', '2026-03-08T04:59:00Z'],
      ['America/New_York', '2026-10-31', '2026-11-01', '2026-11-01T03:59:00Z'],
      ['Pacific/Auckland', '2026-04-04', '2026-04-05', '2026-04-04T10:59:00Z'],
      ['Pacific/Auckland', '2026-09-26', '2026-09-27', '2026-09-26T11:59:00Z'],
    ] as const;
    for (const [zone, day, next, lastMinute] of cases) {
      const late = wallClockToInstant(day, '23:59', zone);
      const midnight = wallClockToInstant(next, '00:00', zone);
      expect(late).toEqual(utc(lastMinute));
      expect(midnight.getTime() - late.getTime()).toBe(MINUTE);
      expect(instantToWallClock(late, zone)).toEqual({ date: day, time: '23:59' });
      expect(instantToWallClock(midnight, zone)).toEqual({ date: next, time: '00:00' });
      expect(instantToWallClock(new Date(midnight.getTime() - 1), zone)).toEqual({ date: day, time: '23:59' });
    }
  });

  it('given an instant with seconds, then the wall clock drops them', () => {
    expect(instantToWallClock(utc('2026-06-01T08:15:59.999Z'), 'Europe/London')).toEqual({
      date: '2026-06-01',
      time: '09:15',
    });
  });

  it('given malformed input or an unknown zone, then it is a RangeError, not a gap', () => {
    expect(() => wallClockToInstant('2026-02-30', '09:00', 'Europe/London')).toThrow(RangeError);
    expect(() => wallClockToInstant('2026-02-01', '24:00', 'Europe/London')).toThrow(RangeError);
    expect(() => wallClockToInstant('2026-02-01', '9:00', 'Europe/London')).toThrow(RangeError);
    expect(() => wallClockToInstant('2026-02-01', '09:00', 'Mars/Olympus')).toThrow(RangeError);
    expect(() => instantToWallClock(utc('2026-02-01T09:00:00Z'), 'system')).toThrow(RangeError);
    expect(() => instantToWallClock(new Date(Number.NaN), 'UTC')).toThrow(RangeError);
  });

  it('given UTC, then wall clock and instant are the same', () => {
    expect(wallClockToInstant('2026-03-29', '01:30', 'UTC')).toEqual(utc('2026-03-29T01:30:00Z'));
    expect(instantToWallClock(utc('2026-10-25T01:30:00Z'), 'UTC')).toEqual({ date: '2026-10-25', time: '01:30' });
  });
});

describe('wallClockToInstant on the days without a change (answered from the kept offset)', () => {
  /** What luxon says, asked the long way: null for a skipped time, else the earlier candidate. */
  function luxonSays(date: string, time: string, zone: string): number | null {
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    const [hour, minute] = time.split(':').map(Number) as [number, number];
    const local = DateTime.fromObject({ year, month, day, hour, minute }, { zone });
    if (local.day !== day || local.hour !== hour || local.minute !== minute) return null;
    return Math.min(...local.getPossibleOffsets().map((c) => c.toMillis()));
  }

  const zones = [
    'Europe/London',
    'America/New_York',
    'Pacific/Auckland',
    'Asia/Kathmandu',
    'Australia/Lord_Howe',
    'America/Havana',
    'America/Santiago',
    'Pacific/Chatham',
    'UTC',
  ];
  const times = ['00:00', '00:30', '01:30', '02:30', '12:00', '23:59'];

  it.each(zones)('given every day of 2026 and 2027 in %s, then each answer is what luxon says', (zone) => {
    const mismatches: string[] = [];
    for (let at = Date.UTC(2026, 0, 1); at < Date.UTC(2028, 0, 1); at += 24 * HOUR) {
      const date = new Date(at).toISOString().slice(0, 10);
      for (const time of times) {
        const expected = luxonSays(date, time, zone);
        let actual: number | null;
        try {
          actual = wallClockToInstant(date, time, zone).getTime();
        } catch (e) {
          if (!(e instanceof NonexistentWallClockError)) throw e;
          actual = null;
        }
        if (actual !== expected) mismatches.push(`${date} ${time}: ${actual} instead of ${expected}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('given a malformed date on a second call, then it is still a RangeError', () => {
    expect(() => wallClockToInstant('2026-02-30', '09:00', 'Europe/London')).toThrow(RangeError);
    expect(() => wallClockToInstant('2026-02-30', '09:00', 'Europe/London')).toThrow(RangeError);
    expect(wallClockToInstant('2026-06-01', '09:00', 'Europe/London')).toEqual(utc('2026-06-01T08:00:00Z'));
    expect(() => wallClockToInstant('2026-06-01', '9:00', 'Europe/London')).toThrow(RangeError);
  });
});

describe('instantToWallClock from the kept offset', () => {
  it.each([
    ['Europe/London', '2026-03-28T00:00:00Z', '2026-03-30T00:00:00Z'],
    ['Europe/London', '2026-10-24T00:00:00Z', '2026-10-26T12:00:00Z'],
    ['America/New_York', '2026-03-07T12:00:00Z', '2026-03-09T12:00:00Z'],
    ['America/New_York', '2026-10-31T12:00:00Z', '2026-11-02T12:00:00Z'],
    ['Pacific/Auckland', '2026-04-03T00:00:00Z', '2026-04-06T00:00:00Z'],
    ['Pacific/Auckland', '2026-09-25T00:00:00Z', '2026-09-28T00:00:00Z'],
    ['Australia/Lord_Howe', '2026-10-02T00:00:00Z', '2026-10-05T00:00:00Z'],
  ])('given %s, when every 7 minutes from %s to %s is read, then each wall clock is luxon’s', (zone, from, to) => {
    for (let at = Date.parse(from); at < Date.parse(to); at += 7 * 60_000) {
      const local = DateTime.fromMillis(at, { zone });
      expect(instantToWallClock(new Date(at), zone)).toEqual({
        date: local.toISODate(),
        time: local.toFormat('HH:mm'),
      });
    }
  });
});
