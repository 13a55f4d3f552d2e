import { describe, expect, it } from '@jest/globals';
import {
  isActiveOn,
  isClosedOn,
  type RotaCalendar,
  type TimeslotOccurrence,
  timeslotsBetween,
  timeslotsOn,
} from './rota-calendar.js';
import type { Timeline } from './timeslot-timeline.js';
import type { RotaTimeslot, Weekday } from './weekly-timeslots.js';

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);
let nextId = 1;
const slot = (weekday_start: Weekday, start_time: string, weekday_end: Weekday, end_time: string): RotaTimeslot => ({
  id: nextId++,
  weekday_start,
  start_time,
  weekday_end,
  end_time,
  min: 1,
  ideal: 2,
  max: 3,
});
const rota = (timeslots: RotaTimeslot[], more: Partial<RotaCalendar> = {}): RotaCalendar => ({
  start_date: '2026-01-01',
  end_date: null,
  archived: false,
  closed_dates: new Set(),
  timeline: [{ from: '2026-01-01', to: null, timeslots }],
  ...more,
});
const hours = (o: TimeslotOccurrence) => (o.end - o.start) / HOUR;
const only = (occurrences: TimeslotOccurrence[]) => {
  expect(occurrences).toHaveLength(1);
  return occurrences[0]!;
};

describe('timeslotsOn across daylight-saving changes', () => {
  it("given 00:00–04:00 on London's spring day 2027-03-28, then it lasts 3 hours of real time; on its autumn day 2027-10-31, 5", () => {
    const r = rota([slot('sunday', '00:00', 'sunday', '04:00')]);
    const spring = only(timeslotsOn(r, '2027-03-28', 'Europe/London'));
    expect([spring.start, spring.end, hours(spring)]).toEqual([at('2027-03-28T00:00Z'), at('2027-03-28T03:00Z'), 3]);
    expect([spring.start_wall, spring.end_wall, spring.overnight]).toEqual([
      '2027-03-28 00:00',
      '2027-03-28 04:00',
      false,
    ]);
    const autumn = only(timeslotsOn(r, '2027-10-31', 'Europe/London'));
    expect([autumn.start, autumn.end, hours(autumn)]).toEqual([at('2027-10-30T23:00Z'), at('2027-10-31T04:00Z'), 5]);
    expect(hours(only(timeslotsOn(r, '2026-03-29', 'Europe/London')))).toBe(3);
    expect(hours(only(timeslotsOn(r, '2026-10-25', 'Europe/London')))).toBe(5);
    expect(hours(only(timeslotsOn(r, '2027-04-04', 'Europe/London')))).toBe(4);
  });

  it('given the same timeslot in New York (2027-03-14, 2027-11-07) and Auckland (2027-09-26, 2027-04-04), then 3 and 5 hours there too', () => {
    const r = rota([slot('sunday', '00:00', 'sunday', '04:00')]);
    expect(timeslotsOn(r, '2027-03-14', 'America/New_York').map(hours)).toEqual([3]);
    expect(timeslotsOn(r, '2027-11-07', 'America/New_York').map(hours)).toEqual([5]);
    expect(timeslotsOn(r, '2027-09-26', 'Pacific/Auckland').map(hours)).toEqual([3]);
    expect(timeslotsOn(r, '2027-04-04', 'Pacific/Auckland').map(hours)).toEqual([5]);
    expect(timeslotsOn(r, '2026-11-01', 'America/New_York').map(hours)).toEqual([5]);
    expect(timeslotsOn(r, '2026-09-27', 'Pacific/Auckland').map(hours)).toEqual([3]);
  });

  it("given an overnight 22:00–06:00 on the night of a change, then it belongs to the evening's date and lasts 7 hours in spring, 9 in autumn", () => {
    const r = rota([slot('saturday', '22:00', 'sunday', '06:00')]);
    const london = only(timeslotsOn(r, '2027-03-27', 'Europe/London'));
    expect(london).toEqual({
      timeslot_id: r.timeline[0]!.timeslots[0]!.id,
      date: '2027-03-27',
      start: at('2027-03-27T22:00Z'),
      end: at('2027-03-28T05:00Z'),
      start_wall: '2027-03-27 22:00',
      end_wall: '2027-03-28 06:00',
      overnight: true,
      min: 1,
      ideal: 2,
      max: 3,
    });
    expect(timeslotsOn(r, '2027-03-28', 'Europe/London')).toEqual([]);
    expect(timeslotsOn(r, '2027-10-30', 'Europe/London').map(hours)).toEqual([9]);
    expect(timeslotsOn(r, '2027-03-13', 'America/New_York').map(hours)).toEqual([7]);
    expect(timeslotsOn(r, '2027-11-06', 'America/New_York').map(hours)).toEqual([9]);
    expect(timeslotsOn(r, '2027-09-25', 'Pacific/Auckland').map(hours)).toEqual([7]);
    expect(timeslotsOn(r, '2027-04-03', 'Pacific/Auckland').map(hours)).toEqual([9]);
    expect(timeslotsOn(r, '2026-10-31', 'America/New_York').map(hours)).toEqual([9]);
  });

  it('given a timeslot starting inside the spring gap, then it starts at the first minute after the gap and shows that wall clock', () => {
    const london = only(timeslotsOn(rota([slot('sunday', '01:30', 'sunday', '03:00')]), '2027-03-28', 'Europe/London'));
    expect([london.start, london.start_wall, london.end, london.end_wall]).toEqual([
      at('2027-03-28T01:00Z'),
      '2027-03-28 02:00',
      at('2027-03-28T02:00Z'),
      '2027-03-28 03:00',
    ]);
    const newYork = only(
      timeslotsOn(rota([slot('sunday', '02:30', 'sunday', '04:00')]), '2027-03-14', 'America/New_York'),
    );
    expect([newYork.start, newYork.start_wall, hours(newYork)]).toEqual([
      at('2027-03-14T07:00Z'),
      '2027-03-14 03:00',
      1,
    ]);
    const auckland = only(
      timeslotsOn(rota([slot('sunday', '02:15', 'sunday', '05:00')]), '2027-09-26', 'Pacific/Auckland'),
    );
    expect([auckland.start, auckland.start_wall, hours(auckland)]).toEqual([
      at('2027-09-25T14:00Z'),
      '2027-09-26 03:00',
      2,
    ]);
  });

  it(
    "given a timeslot ending inside the gap, then it ends at the gap's end; given one wholly inside it, " +
      'then it has no occurrence but the day is not closed',
    () => {
      const ending = only(
        timeslotsOn(rota([slot('sunday', '00:00', 'sunday', '01:30')]), '2027-03-28', 'Europe/London'),
      );
      expect([ending.end, ending.end_wall, hours(ending)]).toEqual([at('2027-03-28T01:00Z'), '2027-03-28 02:00', 1]);
      const vanished = rota([slot('sunday', '01:10', 'sunday', '01:50')]);
      expect(timeslotsOn(vanished, '2027-03-28', 'Europe/London')).toEqual([]);
      expect(isClosedOn(vanished, '2027-03-28')).toBe(false);
      expect(timeslotsOn(vanished, '2027-04-04', 'Europe/London').map(hours)).toEqual([40 / 60]);
    },
  );

  it('given a timeslot starting in the autumn repeat, then it starts at the earlier instant', () => {
    const london = only(timeslotsOn(rota([slot('sunday', '01:30', 'sunday', '02:30')]), '2027-10-31', 'Europe/London'));
    expect([london.start, london.end, hours(london)]).toEqual([at('2027-10-31T00:30Z'), at('2027-10-31T02:30Z'), 2]);
    const newYork = only(
      timeslotsOn(rota([slot('sunday', '01:30', 'sunday', '03:00')]), '2027-11-07', 'America/New_York'),
    );
    expect([newYork.start, newYork.end]).toEqual([at('2027-11-07T05:30Z'), at('2027-11-07T08:00Z')]);
    const auckland = only(
      timeslotsOn(rota([slot('sunday', '02:30', 'sunday', '04:00')]), '2027-04-04', 'Pacific/Auckland'),
    );
    expect([auckland.start, auckland.end]).toEqual([at('2027-04-03T13:30Z'), at('2027-04-03T16:00Z')]);
  });

  it("given a multi-day timeslot, then it ends on the later weekday's date", () => {
    const weekend = only(
      timeslotsOn(rota([slot('friday', '18:00', 'monday', '08:00')]), '2027-03-26', 'Europe/London'),
    );
    expect([weekend.end_wall, weekend.overnight, hours(weekend)]).toEqual(['2027-03-29 08:00', true, 62 - 1]);
  });
});

describe('the same-day boundary', () => {
  it(
    'given a timeslot ending exactly at midnight, then it belongs to the day it starts, ends at the next ' +
      '00:00 with a positive length, and counts as ending on a later date',
    () => {
      const r = rota([slot('monday', '18:00', 'tuesday', '00:00')]);
      const evening = only(timeslotsOn(r, '2027-03-29', 'Pacific/Auckland'));
      expect([evening.end_wall, evening.overnight, hours(evening)]).toEqual(['2027-03-30 00:00', true, 6]);
      expect(timeslotsOn(r, '2027-03-30', 'Pacific/Auckland')).toEqual([]);
    },
  );

  it('given a timeslot starting at 00:00, then it belongs to that date, not the one before', () => {
    const r = rota([slot('tuesday', '00:00', 'tuesday', '06:00')]);
    expect(timeslotsOn(r, '2027-03-30', 'Pacific/Auckland').map((o) => o.start_wall)).toEqual(['2027-03-30 00:00']);
    expect(timeslotsOn(r, '2027-03-29', 'Pacific/Auckland')).toEqual([]);
  });
});

describe("versions, closures and the rota's range", () => {
  const a = [slot('monday', '09:00', 'monday', '17:00'), slot('wednesday', '22:00', 'thursday', '06:00')];
  const b = [slot('monday', '10:00', 'monday', '12:00'), slot('thursday', '08:00', 'thursday', '09:00')];
  const timeline: Timeline = [
    { from: '2026-01-01', to: '2027-03-31', timeslots: a },
    { from: '2027-04-01', to: null, timeslots: b },
  ];
  const versioned = rota([], { timeline });

  it('given versions switching on 2027-04-01, then each date takes the version in force on it, an overnight timeslot of the last day included', () => {
    expect(timeslotsOn(versioned, '2027-03-29', 'Europe/London').map((o) => o.timeslot_id)).toEqual([a[0]!.id]);
    expect(timeslotsOn(versioned, '2027-04-05', 'Europe/London').map((o) => o.timeslot_id)).toEqual([b[0]!.id]);
    const lastNight = only(timeslotsOn(versioned, '2027-03-31', 'Europe/London'));
    expect([lastNight.timeslot_id, lastNight.end_wall]).toEqual([a[1]!.id, '2027-04-01 06:00']);
    expect(timeslotsOn(versioned, '2027-04-01', 'Europe/London').map((o) => o.timeslot_id)).toEqual([b[1]!.id]);
  });

  it('given a weekday without timeslots, then the active rota is closed that day; a date no version covers is closed too', () => {
    expect(isClosedOn(versioned, '2027-03-30')).toBe(true);
    expect(timeslotsOn(versioned, '2027-03-30', 'Europe/London')).toEqual([]);
    expect(isClosedOn(versioned, '2027-03-29')).toBe(false);
    const gap = rota([], { timeline: [{ from: '2027-05-01', to: null, timeslots: a }] });
    expect(isClosedOn(gap, '2027-04-26')).toBe(true);
    expect(isClosedOn(gap, '2027-05-03')).toBe(false);
  });

  it('given a date closed by close, then the rota is closed that date and has no timeslots, the days around it untouched', () => {
    const closed = { ...versioned, closed_dates: new Set(['2027-04-05']) };
    expect(isClosedOn(closed, '2027-04-05')).toBe(true);
    expect(timeslotsOn(closed, '2027-04-05', 'Europe/London')).toEqual([]);
    expect(timeslotsOn(closed, '2027-04-12', 'Europe/London')).toHaveLength(1);
  });

  it('given dates before the start, after the end, or an archived rota, then not active, not closed, no timeslots', () => {
    const ranged = rota(a, { start_date: '2027-03-08', end_date: '2027-03-22' });
    for (const date of ['2027-03-01', '2027-03-29']) {
      expect([isActiveOn(ranged, date), isClosedOn(ranged, date), timeslotsOn(ranged, date, 'Europe/London')]).toEqual([
        false,
        false,
        [],
      ]);
    }
    for (const date of ['2027-03-08', '2027-03-22'])
      expect([isActiveOn(ranged, date), timeslotsOn(ranged, date, 'Europe/London').length]).toEqual([true, 1]);
    const archived = { ...ranged, archived: true };
    expect([
      isActiveOn(archived, '2027-03-15'),
      isClosedOn(archived, '2027-03-15'),
      timeslotsOn(archived, '2027-03-15', 'Europe/London'),
    ]).toEqual([false, false, []]);
  });
});

describe('timeslotsBetween', () => {
  const week = rota(
    [
      slot('monday', '09:00', 'monday', '17:00'),
      slot('monday', '18:00', 'tuesday', '01:00'),
      slot('saturday', '22:00', 'sunday', '06:00'),
      slot('sunday', '00:00', 'sunday', '04:00'),
    ],
    {
      start_date: '2027-03-23',
      end_date: '2027-04-30',
      closed_dates: new Set(['2027-04-05']),
    },
  );

  it("given a range, then the occurrences of each date in order, clamped to the rota's range and skipping closed dates, as timeslotsOn day by day", () => {
    const range = timeslotsBetween(week, '2027-03-01', '2027-04-12', 'Europe/London');
    const dayByDay: TimeslotOccurrence[] = [];
    for (let d = Date.UTC(2027, 2, 1); d <= Date.UTC(2027, 3, 12); d += 24 * HOUR)
      dayByDay.push(...timeslotsOn(week, new Date(d).toISOString().slice(0, 10), 'Europe/London'));
    expect(range).toEqual(dayByDay);
    expect(range.map((o) => `${o.date} ${o.start_wall.slice(11)}`)).toEqual([
      '2027-03-27 22:00',
      '2027-03-28 00:00',
      '2027-03-29 09:00',
      '2027-03-29 18:00',
      '2027-04-03 22:00',
      '2027-04-04 00:00',
      '2027-04-10 22:00',
      '2027-04-11 00:00',
      '2027-04-12 09:00',
      '2027-04-12 18:00',
    ]);
    expect(range.map(hours).slice(0, 2)).toEqual([7, 3]);
  });

  it('given a range ending before it starts, or an archived rota, then nothing', () => {
    expect(timeslotsBetween(week, '2027-04-12', '2027-04-11', 'Europe/London')).toEqual([]);
    expect(timeslotsBetween({ ...week, archived: true }, '2027-03-01', '2027-04-12', 'Europe/London')).toEqual([]);
  });

  it('given 25 rotas over 92 days, then it is quick (no per-minute work, one luxon question per zone and day)', () => {
    const busy = rota(
      Array.from(
        { length: 7 },
        (_, i) => ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'][i] as Weekday,
      ).flatMap((day) => [
        slot(day, '08:00', day, '12:00'),
        slot(day, '12:00', day, '16:00'),
        slot(day, '16:00', day, '20:00'),
      ]),
    );
    const started = performance.now();
    let count = 0;
    for (let r = 0; r < 25; r++) count += timeslotsBetween(busy, '2027-02-01', '2027-05-03', 'America/New_York').length;
    expect(count).toBe(25 * 92 * 3);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
