import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { instantToWallClock } from '#app/platform';
import { addDays, dayNumber } from './calendar-dates.js';
import {
  occurrenceTimes,
  SERIES_WEEKDAYS,
  seriesDatesBetween,
  seriesHorizon,
  type SeriesRule,
  seriesWeekdayOf,
  validateRecurrence,
  weekdaysOf,
} from './series-dates.js';

const HOUR = 3_600_000;
const rule = (
  firstDate: string,
  frequency: number,
  weekdays: SeriesRule['weekdays'],
  endDate: string | null = null,
): SeriesRule => ({ firstDate, frequency, weekdays, endDate });
const times = (date: string, start: string, end: string, dayOffset: number, zone: string) => {
  const result = occurrenceTimes(date, start, end, dayOffset, zone);
  if ('nonexistent' in result) throw new Error(`${date} ${start}–${end} does not exist in ${zone}`);
  return {
    start: result.start.toISOString(),
    end: result.end.toISOString(),
    hours: (result.end.getTime() - result.start.getTime()) / HOUR,
  };
};

describe('seriesDatesBetween', () => {
  it('given a weekly Mon+Thu series from a Thursday, then the first date, then every Monday and Thursday after it', () => {
    const weekly = rule('2027-01-07', 1, ['mon', 'thu']);
    expect(seriesDatesBetween(weekly, '2027-01-01', '2027-01-25')).toEqual([
      '2027-01-07',
      '2027-01-11',
      '2027-01-14',
      '2027-01-18',
      '2027-01-21',
      '2027-01-25',
    ]);
  });

  it('given a range after the first date, then only its dates: after is exclusive, until inclusive', () => {
    const weekly = rule('2027-01-07', 1, ['mon', 'thu']);
    expect(seriesDatesBetween(weekly, '2027-01-11', '2027-01-18')).toEqual(['2027-01-14', '2027-01-18']);
    expect(seriesDatesBetween(weekly, '2027-01-18', '2027-01-18')).toEqual([]);
    expect(seriesDatesBetween(weekly, '2027-01-20', '2027-01-10')).toEqual([]);
  });

  it('given a fortnightly Wednesday series from 2027-12-29, then every other Wednesday across the month and year end', () => {
    const fortnightly = rule('2027-12-29', 2, ['wed']);
    expect(seriesDatesBetween(fortnightly, '2027-12-01', '2028-03-01')).toEqual([
      '2027-12-29',
      '2028-01-12',
      '2028-01-26',
      '2028-02-09',
      '2028-02-23',
    ]);
  });

  it(
    'given a fortnightly series generated from a day in an unselected week, then it stays fortnightly ' +
      '(weeks count from the first shift, not from today)',
    () => {
      const fortnightly = rule('2027-12-29', 2, ['mon', 'wed']);
      // The Monday of the first week (2027-12-27) is before the first shift: not an occurrence.
      expect(seriesDatesBetween(fortnightly, '2027-12-20', '2028-01-31')).toEqual([
        '2027-12-29',
        '2028-01-10',
        '2028-01-12',
        '2028-01-24',
        '2028-01-26',
      ]);
      // A run on 2028-01-05 (week 1, unselected) books from week 2, never the week it runs in.
      expect(seriesDatesBetween(fortnightly, '2028-01-05', '2028-01-31')).toEqual([
        '2028-01-10',
        '2028-01-12',
        '2028-01-24',
        '2028-01-26',
      ]);
      expect(seriesDatesBetween(fortnightly, '2028-01-17', '2028-02-08')).toEqual([
        '2028-01-24',
        '2028-01-26',
        '2028-02-07',
      ]);
    },
  );

  it("given an every-3-weeks Mon+Fri series, then weeks 0, 3, 6 … of the first shift's week", () => {
    const everyThird = rule('2027-02-01', 3, ['fri', 'mon']);
    expect(seriesDatesBetween(everyThird, '2027-01-31', '2027-04-10')).toEqual([
      '2027-02-01',
      '2027-02-05',
      '2027-02-22',
      '2027-02-26',
      '2027-03-15',
      '2027-03-19',
      '2027-04-05',
      '2027-04-09',
    ]);
  });

  it('given an end_date, then it is the last possible date (inclusive)', () => {
    expect(seriesDatesBetween(rule('2027-01-07', 1, ['thu'], '2027-01-28'), '2027-01-01', '2027-12-31')).toEqual([
      '2027-01-07',
      '2027-01-14',
      '2027-01-21',
      '2027-01-28',
    ]);
    expect(seriesDatesBetween(rule('2027-01-07', 1, ['thu'], '2027-01-27'), '2027-01-01', '2027-12-31')).toEqual([
      '2027-01-07',
      '2027-01-14',
      '2027-01-21',
    ]);
    expect(seriesDatesBetween(rule('2027-01-07', 1, ['thu'], '2027-01-07'), '2027-01-01', '2027-12-31')).toEqual([
      '2027-01-07',
    ]);
  });

  it('given a 52-weekly series of all seven days over a long range, then seven dates a year', () => {
    const yearly = rule('2027-01-04', 52, [...SERIES_WEEKDAYS]);
    const dates = seriesDatesBetween(yearly, '2027-01-01', '2029-12-31');
    expect(dates).toHaveLength(22); // 2029-12-31 is the Monday of week 156
    expect(dates.at(-1)).toBe('2029-12-31');
    expect(dates.slice(7, 9)).toEqual(['2028-01-03', '2028-01-04']);
  });

  it('given a rule no caller should make, then a RangeError', () => {
    expect(() => seriesDatesBetween(rule('2027-01-07', 0, ['thu']), '2027-01-01', '2027-02-01')).toThrow(RangeError);
    expect(() => seriesDatesBetween(rule('2027-01-07', 1.5, ['thu']), '2027-01-01', '2027-02-01')).toThrow(RangeError);
    expect(() => seriesDatesBetween(rule('2027-01-07', 1, []), '2027-01-01', '2027-02-01')).toThrow(RangeError);
    expect(() => seriesDatesBetween(rule('2027-02-29', 1, ['thu']), '2027-01-01', '2027-04-01')).toThrow(RangeError);
  });
});

describe('seriesDatesBetween properties', () => {
  const day = (offset: number) => addDays('2020-01-01', offset);
  const rules = fc.record({
    first: fc.integer({ min: 0, max: 4000 }),
    frequency: fc.integer({ min: 1, max: 52 }),
    weekdays: fc.subarray([...SERIES_WEEKDAYS], { minLength: 1 }),
    endAfter: fc.option(fc.integer({ min: 0, max: 1500 })),
  });
  const ranges = fc.tuple(
    fc.integer({ min: -100, max: 5600 }),
    fc.integer({ min: 0, max: 800 }),
    fc.integer({ min: 0, max: 800 }),
  );
  /** Whether the date is an occurrence, weeks counted from the Monday luxon finds (its ISO week start). */
  const occurrenceTest = (r: SeriesRule) => {
    const anchor = dayNumber(DateTime.fromISO(r.firstDate, { zone: 'UTC' }).startOf('week').toISODate()!);
    return (date: string) =>
      Math.floor((dayNumber(date) - anchor) / 7) % r.frequency === 0 &&
      r.weekdays.includes(seriesWeekdayOf(date)) &&
      date >= r.firstDate &&
      (r.endDate === null || date <= r.endDate);
  };

  it('given random rules and ranges, then every date is an occurrence within the bounds, increasing and unique, and none is missed', () => {
    fc.assert(
      fc.property(rules, ranges, ({ first, frequency, weekdays, endAfter }, [from, length]) => {
        const r = rule(day(first), frequency, weekdays, endAfter === null ? null : day(first + endAfter));
        const [after, until] = [day(from), day(from + length)];
        const dates = seriesDatesBetween(r, after, until);
        const isOccurrence = occurrenceTest(r);
        for (const [i, date] of dates.entries()) {
          expect(isOccurrence(date)).toBe(true);
          expect(date > after && date <= until).toBe(true);
          if (i > 0) expect(date > dates[i - 1]!).toBe(true);
        }
        const everyDay = Array.from({ length }, (_, i) => day(from + 1 + i));
        expect(dates).toEqual(everyDay.filter(isOccurrence));
      }),
      { numRuns: 300 },
    );
  });

  it('given a range split in two, then the two halves give the dates of the whole', () => {
    fc.assert(
      fc.property(rules, ranges, ({ first, frequency, weekdays, endAfter }, [from, cut, rest]) => {
        const r = rule(day(first), frequency, weekdays, endAfter === null ? null : day(first + endAfter));
        const [after, middle, until] = [day(from), day(from + cut), day(from + cut + rest)];
        expect([...seriesDatesBetween(r, after, middle), ...seriesDatesBetween(r, middle, until)]).toEqual(
          seriesDatesBetween(r, after, until),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('seriesHorizon', () => {
  it("given a first shift at a month's end, then six calendar months on, clamped to the shorter month", () => {
    expect(seriesHorizon('2027-08-31', '2027-08-31', null)).toBe('2028-02-29');
    expect(seriesHorizon('2027-01-31', '2027-01-31', null)).toBe('2027-07-31');
    expect(seriesHorizon('2027-03-31', '2027-03-31', null)).toBe('2027-09-30');
  });

  it('given today later than the first shift, then six months after today (the daily extension)', () => {
    expect(seriesHorizon('2027-01-31', '2027-05-15', null)).toBe('2027-11-15');
    expect(seriesHorizon('2027-01-31', '2027-08-31', null)).toBe('2028-02-29');
  });

  it('given a series that starts after today, then six months after its first shift', () => {
    expect(seriesHorizon('2027-06-01', '2027-01-01', null)).toBe('2027-12-01');
  });

  it('given an end_date sooner than the horizon, then the end_date; a later one changes nothing', () => {
    expect(seriesHorizon('2027-01-31', '2027-05-15', '2027-09-01')).toBe('2027-09-01');
    expect(seriesHorizon('2027-01-31', '2027-05-15', '2027-11-15')).toBe('2027-11-15');
    expect(seriesHorizon('2027-01-31', '2027-05-15', '2028-06-01')).toBe('2027-11-15');
  });
});

describe('occurrenceTimes', () => {
  it('given a Sunday 09:00–17:00 Europe/London series across the spring change (2027-03-28), then the wall clock stays and UTC moves an hour earlier', () => {
    expect(times('2027-03-21', '09:00', '17:00', 0, 'Europe/London')).toEqual({
      start: '2027-03-21T09:00:00.000Z',
      end: '2027-03-21T17:00:00.000Z',
      hours: 8,
    });
    expect(times('2027-03-28', '09:00', '17:00', 0, 'Europe/London')).toEqual({
      start: '2027-03-28T08:00:00.000Z',
      end: '2027-03-28T16:00:00.000Z',
      hours: 8,
    });
  });

  it('given the same series across the autumn change (2027-10-31), then UTC moves back an hour', () => {
    expect(times('2027-10-24', '09:00', '17:00', 0, 'Europe/London')).toEqual({
      start: '2027-10-24T08:00:00.000Z',
      end: '2027-10-24T16:00:00.000Z',
      hours: 8,
    });
    expect(times('2027-10-31', '09:00', '17:00', 0, 'Europe/London')).toEqual({
      start: '2027-10-31T09:00:00.000Z',
      end: '2027-10-31T17:00:00.000Z',
      hours: 8,
    });
  });

  it('given a weekly Sunday series over the whole year, then every occurrence reads 09:00–17:00 in London', () => {
    for (const date of seriesDatesBetween(rule('2027-01-03', 1, ['sun']), '2027-01-01', '2027-12-31')) {
      const result = occurrenceTimes(date, '09:00', '17:00', 0, 'Europe/London');
      if ('nonexistent' in result) throw new Error(date);
      expect([
        instantToWallClock(result.start, 'Europe/London'),
        instantToWallClock(result.end, 'Europe/London'),
      ]).toEqual([
        { date, time: '09:00' },
        { date, time: '17:00' },
      ]);
    }
  });

  it("given 01:30 on London's spring day, then the start does not exist; an end in the gap names the end", () => {
    expect(occurrenceTimes('2027-03-28', '01:30', '05:00', 0, 'Europe/London')).toEqual({ nonexistent: 'start' });
    expect(occurrenceTimes('2027-03-27', '22:00', '01:30', 1, 'Europe/London')).toEqual({ nonexistent: 'end' });
    expect(occurrenceTimes('2027-03-28', '01:30', '01:45', 0, 'Europe/London')).toEqual({ nonexistent: 'start' });
  });

  it("given 01:30 on London's autumn day, then the earlier of the two instants (BST)", () => {
    expect(times('2027-10-31', '01:30', '03:00', 0, 'Europe/London')).toEqual({
      start: '2027-10-31T00:30:00.000Z',
      end: '2027-10-31T03:00:00.000Z',
      hours: 2.5,
    });
  });

  it('given an overnight 22:00–06:00 occurrence (dayOffset 1), then 7 real hours on the spring night and 9 on the autumn one', () => {
    expect(times('2027-03-20', '22:00', '06:00', 1, 'Europe/London').hours).toBe(8);
    expect(times('2027-03-27', '22:00', '06:00', 1, 'Europe/London')).toEqual({
      start: '2027-03-27T22:00:00.000Z',
      end: '2027-03-28T05:00:00.000Z',
      hours: 7,
    });
    expect(times('2027-10-30', '22:00', '06:00', 1, 'Europe/London')).toEqual({
      start: '2027-10-30T21:00:00.000Z',
      end: '2027-10-31T06:00:00.000Z',
      hours: 9,
    });
  });

  it('given a shift ending at 00:00 the next day, then it lasts to midnight', () => {
    expect(times('2027-01-04', '18:00', '00:00', 1, 'Europe/London')).toEqual({
      start: '2027-01-04T18:00:00.000Z',
      end: '2027-01-05T00:00:00.000Z',
      hours: 6,
    });
  });

  // Per zone: 09:00 starts (local date → UTC) the Sunday before and on each change, the spring gap's
  // 02:30, and the real hours of a 22:00–06:00 occurrence on the spring and the autumn night.
  it.each([
    {
      zone: 'America/New_York',
      changes: '2027-03-14 spring, 2027-11-07 autumn',
      starts: {
        '2027-03-07': '2027-03-07T14:00',
        '2027-03-14': '2027-03-14T13:00',
        '2027-10-31': '2027-10-31T13:00',
        '2027-11-07': '2027-11-07T14:00',
      },
      gap: '2027-03-14',
      nights: { '2027-03-13': 7, '2027-11-06': 9 },
    },
    {
      zone: 'Pacific/Auckland',
      changes: '2027-04-04 autumn, 2027-09-26 spring; UTC a date behind',
      starts: {
        '2027-03-28': '2027-03-27T20:00',
        '2027-04-04': '2027-04-03T21:00',
        '2027-09-19': '2027-09-18T21:00',
        '2027-09-26': '2027-09-25T20:00',
      },
      gap: '2027-09-26',
      nights: { '2027-04-03': 9, '2027-09-25': 7 },
    },
  ])(
    'given $zone ($changes), then 09:00 stays 09:00 local and the nights last 7 and 9 hours',
    ({ zone, starts, gap, nights }) => {
      for (const [date, start] of Object.entries(starts))
        expect(times(date, '09:00', '17:00', 0, zone).start).toBe(`${start}:00.000Z`);
      expect(occurrenceTimes(gap, '02:30', '09:00', 0, zone)).toEqual({ nonexistent: 'start' });
      for (const [date, hours] of Object.entries(nights))
        expect(times(date, '22:00', '06:00', 1, zone).hours).toBe(hours);
    },
  );

  it('given a negative day offset, or an end not after the start, then a RangeError', () => {
    expect(() => occurrenceTimes('2027-01-04', '09:00', '17:00', -1, 'Europe/London')).toThrow(RangeError);
    expect(() => occurrenceTimes('2027-01-04', '17:00', '09:00', 0, 'Europe/London')).toThrow(RangeError);
    expect(() => occurrenceTimes('2027-01-04', '09:00', '17:00', 0, 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('validateRecurrence', () => {
  const weekly = {
    recurrence_period: 'week',
    recurrence_frequency: 1,
    mon: 1,
    tue: 0,
    wed: 0,
    thu: 1,
    fri: 0,
    sat: 0,
    sun: 0,
    end_date: null,
  };
  const fields = (pattern: unknown, firstDate = '2027-01-07', prefix?: string) =>
    validateRecurrence(pattern, firstDate, prefix).map((r) => r.field);

  it('given a valid weekly pattern, then no refusal; with no weekday set, or booleans, or an end_date on the first date, neither', () => {
    expect(validateRecurrence(weekly, '2027-01-07')).toEqual([]);
    expect(validateRecurrence({ recurrence_period: 'week', recurrence_frequency: 52 }, '2027-01-07')).toEqual([]);
    expect(validateRecurrence({ ...weekly, mon: true, thu: true, fri: false }, '2027-01-07')).toEqual([]);
    expect(validateRecurrence({ ...weekly, end_date: '2027-01-07' }, '2027-01-07')).toEqual([]);
  });

  it('given another period, then a refusal naming recurrence_pattern.recurrence_period; none, a required one', () => {
    expect(fields({ ...weekly, recurrence_period: 'month' })).toEqual(['recurrence_pattern.recurrence_period']);
    expect(validateRecurrence({ ...weekly, recurrence_period: undefined }, '2027-01-07')).toEqual([
      {
        field: 'recurrence_pattern.recurrence_period',
        message: 'The recurrence_pattern.recurrence_period field is required.',
      },
    ]);
  });

  it('given a frequency outside whole numbers 1–52, then a refusal naming recurrence_pattern.recurrence_frequency', () => {
    for (const recurrence_frequency of [0, 53, 1.5, '2', null])
      expect(fields({ ...weekly, recurrence_frequency })).toEqual(['recurrence_pattern.recurrence_frequency']);
  });

  it('given a weekday flag other than 0/1 or a boolean, then a refusal naming it', () => {
    expect(fields({ ...weekly, tue: 2, sun: 'yes' })).toEqual(['recurrence_pattern.tue', 'recurrence_pattern.sun']);
  });

  it('given an end_date before the first shift, or not a date, then a refusal naming recurrence_pattern.end_date', () => {
    expect(fields({ ...weekly, end_date: '2027-01-06' })).toEqual(['recurrence_pattern.end_date']);
    expect(fields({ ...weekly, end_date: '2027-02-30' })).toEqual(['recurrence_pattern.end_date']);
    expect(fields({ ...weekly, end_date: 20270301 })).toEqual(['recurrence_pattern.end_date']);
  });

  it('given a first shift on a weekday the pattern does not select, then a refusal naming recurrence_pattern', () => {
    const [wrong] = validateRecurrence({ ...weekly, thu: 0 }, '2027-01-07');
    expect(wrong?.field).toBe('recurrence_pattern');
    expect(wrong?.message).toContain('Thursday');
  });

  it('given a pattern that is not an object, then a refusal naming the pattern; a prefix keys every refusal', () => {
    expect(fields('weekly')).toEqual(['recurrence_pattern']);
    expect(
      fields({ ...weekly, recurrence_period: 'day', thu: 0 }, '2027-01-07', 'shifts.0.recurrence_pattern.'),
    ).toEqual(['shifts.0.recurrence_pattern.recurrence_period', 'shifts.0.recurrence_pattern']);
  });
});

describe('weekdaysOf', () => {
  it("given flags, then the selected weekdays in week order; none set, then the first shift's weekday", () => {
    expect(weekdaysOf({ thu: 1, mon: true, tue: 0 }, '2027-01-07')).toEqual(['mon', 'thu']);
    expect(weekdaysOf({ mon: 0, tue: false }, '2027-12-29')).toEqual(['wed']);
    expect(weekdaysOf({}, '2027-03-28')).toEqual(['sun']);
  });
});
