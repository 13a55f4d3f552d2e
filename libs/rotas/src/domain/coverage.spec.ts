import { describe, expect, it } from '@jest/globals';
import { wallClockToInstant } from '#app/platform';
import {
  type CoverageStatus,
  dateAcrossRotas,
  dayCoverage,
  fewestOnDuty,
  type HourCut,
  hourEntries,
  hourStatuses,
  type Interval,
  lowestStatus,
  requiredFor,
  STATUS,
  statusOf,
  statusText,
} from './coverage.js';
import { type RotaCalendar, type TimeslotOccurrence, timeslotsBetween, timeslotsOn } from './rota-calendar.js';
import { type RotaTimeslot, WEEKDAYS, type Weekday } from './weekly-timeslots.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const at = (iso: string) => Date.parse(iso);
const LONDON = 'Europe/London';
const AUCKLAND = 'Pacific/Auckland';

let nextId = 1;
const slot = (
  weekday_start: Weekday,
  start_time: string,
  weekday_end: Weekday,
  end_time: string,
  staffing = { min: 2, ideal: 3, max: 4 },
): RotaTimeslot => ({
  id: nextId++,
  weekday_start,
  start_time,
  weekday_end,
  end_time,
  ...staffing,
});
const rota = (timeslots: RotaTimeslot[], more: Partial<RotaCalendar> = {}): RotaCalendar => ({
  start_date: '2026-01-01',
  end_date: null,
  archived: false,
  closed_dates: new Set(),
  timeline: [{ from: '2026-01-01', to: null, timeslots }],
  ...more,
});
/** The one occurrence a one-timeslot rota has on a date, as the views get it. */
function occurrenceOn(timeslot: RotaTimeslot, date: string, zone: string): TimeslotOccurrence {
  const occurrences = timeslotsOn(rota([timeslot]), date, zone);
  expect(occurrences).toHaveLength(1);
  return occurrences[0]!;
}
/** A shift as the views pass it: instants of wall clocks in the zone. */
const shift = (date: string, from: string, to: string, zone = LONDON, toDate = date): Interval => ({
  start: wallClockToInstant(date, from, zone).getTime(),
  end: wallClockToInstant(toDate, to, zone).getTime(),
});
const lengthsInHours = (entries: readonly Interval[]) => entries.map((e) => (e.end - e.start) / HOUR);
const walls = (entries: readonly HourCut[]) => entries.map((e) => [e.startWall, e.endWall]);

/** Whether the entries tile the occurrence: first start, last end, each start the previous end, none empty. */
const tiles = (entries: readonly Interval[], occurrence: Interval): boolean =>
  entries.length > 0 &&
  entries[0]!.start === occurrence.start &&
  entries.at(-1)!.end === occurrence.end &&
  entries.every((entry, i) => entry.end > entry.start && (i === 0 || entry.start === entries[i - 1]!.end));
/** The hour entries of a one-timeslot rota's occurrence on a date, checked to tile it. */
function cut(timeslot: RotaTimeslot, date: string, zone: string): HourCut[] {
  const occurrence = occurrenceOn(timeslot, date, zone);
  const entries = hourEntries(occurrence, zone);
  expect(tiles(entries, occurrence)).toBe(true);
  return entries;
}
const realHours = (entries: readonly Interval[]) => entries.reduce((sum, e) => sum + e.end - e.start, 0) / HOUR;

describe('hourEntries', () => {
  it('given 09:30–13:15 on a steady day, when cut, then whole hours from the start and a last entry that ends at the end', () => {
    const entries = cut(slot('wednesday', '09:30', 'wednesday', '13:15'), '2027-06-16', LONDON);
    expect(walls(entries)).toEqual([
      ['2027-06-16 09:30:00', '2027-06-16 10:30:00'],
      ['2027-06-16 10:30:00', '2027-06-16 11:30:00'],
      ['2027-06-16 11:30:00', '2027-06-16 12:30:00'],
      ['2027-06-16 12:30:00', '2027-06-16 13:15:00'],
    ]);
    expect(entries[0]!.start).toBe(at('2027-06-16T08:30Z'));
    expect(lengthsInHours(entries)).toEqual([1, 1, 1, 0.75]);
  });

  it('given a timeslot shorter than an hour, then one entry', () => {
    const entries = cut(slot('wednesday', '09:00', 'wednesday', '09:40'), '2027-06-16', LONDON);
    expect(walls(entries)).toEqual([['2027-06-16 09:00:00', '2027-06-16 09:40:00']]);
  });

  it.each([
    // 01:00 does not exist: that cut moves forward to 02:00 BST, where the 02:00 cut already is.
    [LONDON, '2027-03-28', 3, ['00:00', '02:00', '03:00'], [1, 1, 1]],
    // 01:00 is repeated: the earlier instant (BST), so its entry holds both passes of the hour.
    [LONDON, '2027-10-31', 5, ['00:00', '01:00', '02:00', '03:00'], [1, 2, 1, 1]],
    [AUCKLAND, '2027-09-26', 3, ['00:00', '01:00', '03:00'], [1, 1, 1]],
    [AUCKLAND, '2027-04-04', 5, ['00:00', '01:00', '02:00', '03:00'], [1, 1, 2, 1]],
  ])(
    'given 00:00–04:00 in %s on %s, then the entries cover %i hours of real time with no gap or overlap',
    (zone, date, hours, startClocks, lengths) => {
      const entries = cut(slot('sunday', '00:00', 'sunday', '04:00'), date, zone);
      expect(realHours(entries)).toBe(hours);
      expect(entries.map((e) => e.startWall)).toEqual(startClocks.map((clock) => `${date} ${clock}:00`));
      expect(entries.at(-1)!.endWall).toBe(`${date} 04:00:00`);
      expect(lengthsInHours(entries)).toEqual(lengths);
    },
  );

  it("given 00:00–04:00 on London's change days, then the entries start at the instants London's clocks show those times (the earlier of a repeat)", () => {
    const spring = cut(slot('sunday', '00:00', 'sunday', '04:00'), '2027-03-28', LONDON);
    expect(spring.map((e) => e.start)).toEqual([
      at('2027-03-28T00:00Z'),
      at('2027-03-28T01:00Z'),
      at('2027-03-28T02:00Z'),
    ]);
    const autumn = cut(slot('sunday', '00:00', 'sunday', '04:00'), '2027-10-31', LONDON);
    expect(autumn.map((e) => e.start)).toEqual([
      at('2027-10-30T23:00Z'),
      at('2027-10-31T00:00Z'),
      at('2027-10-31T02:00Z'),
      at('2027-10-31T03:00Z'),
    ]);
    const auckland = cut(slot('sunday', '00:00', 'sunday', '04:00'), '2027-04-04', AUCKLAND);
    expect(auckland[2]!.start).toBe(at('2027-04-03T13:00Z')); // 02:00 NZDT, the earlier pass
  });

  it("given 00:30–04:00 on London's spring day, then the 01:30 cut moves forward by the gap and the entries still cover 2½ hours", () => {
    const entries = cut(slot('sunday', '00:30', 'sunday', '04:00'), '2027-03-28', LONDON);
    expect(walls(entries)).toEqual([
      ['2027-03-28 00:30:00', '2027-03-28 02:30:00'],
      ['2027-03-28 02:30:00', '2027-03-28 03:30:00'],
      ['2027-03-28 03:30:00', '2027-03-28 04:00:00'],
    ]);
    expect(lengthsInHours(entries)).toEqual([1, 1, 0.5]);
  });

  it('given an overnight 22:00–06:00 on a steady night, then eight entries that run into the next date', () => {
    const entries = cut(slot('friday', '22:00', 'saturday', '06:00'), '2027-06-18', LONDON);
    expect(entries.map((e) => e.startWall)).toEqual([
      '2027-06-18 22:00:00',
      '2027-06-18 23:00:00',
      '2027-06-19 00:00:00',
      '2027-06-19 01:00:00',
      '2027-06-19 02:00:00',
      '2027-06-19 03:00:00',
      '2027-06-19 04:00:00',
      '2027-06-19 05:00:00',
    ]);
    expect(entries.at(-1)!.endWall).toBe('2027-06-19 06:00:00');
    expect(lengthsInHours(entries)).toEqual(Array(8).fill(1));
  });

  it.each([
    [LONDON, '2027-03-27', 7, ['22:00', '23:00', '00:00', '02:00', '03:00', '04:00', '05:00'], [1, 1, 1, 1, 1, 1, 1]],
    [
      LONDON,
      '2027-10-30',
      9,
      ['22:00', '23:00', '00:00', '01:00', '02:00', '03:00', '04:00', '05:00'],
      [1, 1, 1, 2, 1, 1, 1, 1],
    ],
    [AUCKLAND, '2027-09-25', 7, ['22:00', '23:00', '00:00', '01:00', '03:00', '04:00', '05:00'], [1, 1, 1, 1, 1, 1, 1]],
    [
      AUCKLAND,
      '2027-04-03',
      9,
      ['22:00', '23:00', '00:00', '01:00', '02:00', '03:00', '04:00', '05:00'],
      [1, 1, 1, 1, 2, 1, 1, 1],
    ],
  ])(
    'given an overnight 22:00–06:00 in %s on the night of %s, then the entries cover %i real hours with no gap or overlap',
    (zone, date, hours, startClocks, lengths) => {
      const entries = cut(slot('saturday', '22:00', 'sunday', '06:00'), date, zone);
      expect(realHours(entries)).toBe(hours);
      expect(entries.map((e) => e.startWall.slice(11, 16))).toEqual(startClocks);
      expect(entries.at(-1)!.endWall.slice(11)).toBe('06:00:00');
      expect(lengthsInHours(entries)).toEqual(lengths);
    },
  );

  it(
    'given every night of 2026 and 2027 in zones with whole-hour, half-hour and midnight changes, then ' +
      'each cut is its wall clock resolved in the zone (gap: forward)',
    () => {
      // The oracle asks the platform for every cut, as a view would without the steady-day shortcut.
      const zones = [
        LONDON,
        AUCKLAND,
        'America/New_York',
        'Australia/Lord_Howe',
        'America/Santiago',
        'America/Havana',
        'Asia/Kathmandu',
      ];
      const calendar = rota(WEEKDAYS.map((day, i) => slot(day, '21:30', WEEKDAYS[(i + 1) % 7]!, '07:15')));
      const wrong: string[] = [];
      for (const zone of zones) {
        for (const occurrence of timeslotsBetween(calendar, '2026-01-01', '2027-12-31', zone)) {
          const entries = hourEntries(occurrence, zone);
          if (!tiles(entries, occurrence)) wrong.push(`${zone} ${occurrence.date}: no tiling`);
          const expected: number[] = [];
          for (let k = 1; k * 60 < 9 * 60 + 45; k++) {
            const wall = new Date(at(`${occurrence.date}T21:30Z`) + k * HOUR).toISOString();
            const cut = wallClockToInstant(wall.slice(0, 10), wall.slice(11, 16), zone, { gap: 'forward' }).getTime();
            if (cut > (expected.at(-1) ?? occurrence.start) && cut < occurrence.end) expected.push(cut);
          }
          const actual = entries.slice(1).map((e) => e.start);
          if (JSON.stringify(actual) !== JSON.stringify(expected)) wrong.push(`${zone} ${occurrence.date}`);
          // Each wall clock shown is one that exists and means that instant (the earlier one, if repeated).
          for (const { start, startWall } of entries) {
            if (wallClockToInstant(startWall.slice(0, 10), startWall.slice(11, 16), zone).getTime() !== start)
              wrong.push(`${zone} ${startWall}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    },
  );
});

describe('fewestOnDuty', () => {
  const hour = { start: at('2027-06-16T09:00Z'), end: at('2027-06-16T10:00Z') };
  const utcShift = (from: string, to: string): Interval => ({
    start: at(`2027-06-16T${from}Z`),
    end: at(`2027-06-16T${to}Z`),
  });

  it('given 09:00–09:30 and 09:30–10:00, when counting 09:00–10:00, then 1: someone is on duty at every moment', () => {
    expect(fewestOnDuty(hour, [utcShift('09:00', '09:30'), utcShift('09:30', '10:00')])).toBe(1);
  });

  it('given a shift ending mid-hour and nobody after it, then 0 for that hour', () => {
    expect(fewestOnDuty(hour, [utcShift('08:00', '09:45')])).toBe(0);
    expect(fewestOnDuty(hour, [utcShift('09:15', '10:00')])).toBe(0);
  });

  it('given two all-hour shifts and a third for part of it, then 2', () => {
    expect(
      fewestOnDuty(hour, [utcShift('08:00', '11:00'), utcShift('09:00', '10:00'), utcShift('09:20', '09:40')]),
    ).toBe(2);
  });

  it('given shifts that only touch the hour (ending at its start, starting at its end), then they do not count', () => {
    expect(fewestOnDuty(hour, [utcShift('08:00', '09:00'), utcShift('10:00', '11:00')])).toBe(0);
    expect(
      fewestOnDuty(hour, [utcShift('08:00', '09:00'), utcShift('09:00', '10:00'), utcShift('10:00', '11:00')]),
    ).toBe(1);
  });

  it('given no shifts, or only an empty one, then 0', () => {
    expect(fewestOnDuty(hour, [])).toBe(0);
    expect(fewestOnDuty(hour, [utcShift('09:00', '09:00')])).toBe(0);
  });

  it('given many random shifts, then the answer is the minimum of a minute-by-minute count', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 50; round++) {
      const shifts = Array.from({ length: 1 + Math.floor(random() * 12) }, () => {
        const start = hour.start + Math.floor(random() * 180 - 60) * MINUTE;
        return { start, end: start + Math.floor(random() * 120) * MINUTE };
      });
      let fewest = Infinity;
      for (let t = hour.start; t < hour.end; t += MINUTE)
        fewest = Math.min(fewest, shifts.filter((s) => s.start <= t && t < s.end).length);
      expect(fewestOnDuty(hour, shifts)).toBe(fewest);
    }
  });
});

describe('statusOf, statusText, requiredFor and lowestStatus', () => {
  const staffing = { min: 2, ideal: 3, max: 4 };

  it.each([
    [0, -2, 'below-minimum', 2],
    [1, -2, 'below-minimum', 1],
    [2, -1, 'below-ideal', 0],
    [3, 0, 'ideal', 0],
    [4, 1, 'full', 0],
    [5, 2, 'over-maximum', 0],
  ] as const)(
    'given %i on duty against min 2, ideal 3, max 4, then status %i (%s) and %i required',
    (count, status, text, required) => {
      expect(statusOf(count, staffing)).toBe(status);
      expect(statusText(status)).toBe(text);
      expect(STATUS[status]).toBe(text);
      expect(requiredFor(count, staffing)).toBe(required);
    },
  );

  it('given equal numbers (min = ideal = max = 2), then 1 is below the minimum, 2 full and 3 over', () => {
    const equal = { min: 2, ideal: 2, max: 2 };
    expect([1, 2, 3].map((n) => statusOf(n, equal))).toEqual([-2, 1, 2]);
  });

  it('given a timeslot wanting nobody (all 0), then nobody on duty is full, one is over', () => {
    const none = { min: 0, ideal: 0, max: 0 };
    expect([statusOf(0, none), statusOf(1, none), requiredFor(0, none)]).toEqual([1, 2, 0]);
  });

  it('given statuses, then the lowest; given none, then 0', () => {
    expect(lowestStatus([1, -1, 2, 0])).toBe(-1);
    expect(lowestStatus([2, 1])).toBe(1);
    expect(lowestStatus([])).toBe(0);
  });
});

describe('hourStatuses', () => {
  it("given an occurrence and shifts from any timeslot of the rota, then the Hour entries with the timeslot's numbers", () => {
    const occurrence = occurrenceOn(
      slot('wednesday', '09:00', 'wednesday', '11:00', { min: 1, ideal: 2, max: 2 }),
      '2027-06-16',
      LONDON,
    );
    const hours = hourStatuses(
      occurrence,
      [shift('2027-06-16', '08:00', '12:00'), shift('2027-06-16', '10:00', '10:30')],
      LONDON,
    );
    expect(hours).toEqual([
      {
        start_time: '2027-06-16 09:00:00',
        end_time: '2027-06-16 10:00:00',
        required: 0,
        shift_count: 1,
        status: -1,
        status_text: 'below-ideal',
        min: 1,
        ideal: 2,
        max: 2,
      },
      {
        start_time: '2027-06-16 10:00:00',
        end_time: '2027-06-16 11:00:00',
        required: 0,
        shift_count: 1,
        status: -1,
        status_text: 'below-ideal',
        min: 1,
        ideal: 2,
        max: 2,
      },
    ]);
  });

  it('given a shift ending mid-hour with nobody after it, then that hour counts 0 and is below the minimum', () => {
    const occurrence = occurrenceOn(
      slot('wednesday', '09:00', 'wednesday', '11:00', { min: 1, ideal: 1, max: 2 }),
      '2027-06-16',
      LONDON,
    );
    const hours = hourStatuses(occurrence, [shift('2027-06-16', '09:00', '10:40')], LONDON);
    expect(hours.map((h) => [h.shift_count, h.required, h.status_text])).toEqual([
      [1, 0, 'ideal'],
      [0, 1, 'below-minimum'],
    ]);
  });

  it('given more on duty than the maximum all hour, then over-maximum, nobody required', () => {
    const occurrence = occurrenceOn(
      slot('wednesday', '09:00', 'wednesday', '10:00', { min: 1, ideal: 1, max: 2 }),
      '2027-06-16',
      LONDON,
    );
    const hours = hourStatuses(
      occurrence,
      [1, 2, 3].map(() => shift('2027-06-16', '09:00', '10:00')),
      LONDON,
    );
    expect(hours.map((h) => [h.shift_count, h.required, h.status, h.status_text])).toEqual([[3, 0, 2, 'over-maximum']]);
  });

  it("given an overnight 22:00–06:00 on London's spring night and one volunteer all night, then seven hours, each counting 1", () => {
    const occurrence = occurrenceOn(
      slot('saturday', '22:00', 'sunday', '06:00', { min: 1, ideal: 1, max: 1 }),
      '2027-03-27',
      LONDON,
    );
    const hours = hourStatuses(occurrence, [shift('2027-03-27', '22:00', '06:00', LONDON, '2027-03-28')], LONDON);
    expect(hours).toHaveLength(7);
    expect(hours.every((h) => h.shift_count === 1 && h.status === 1)).toBe(true);
    expect(hours.at(-1)!.end_time).toBe('2027-03-28 06:00:00');
  });

  it("given London's autumn day and a shift for the first pass of 01:00–02:00 only, then the 01:00 entry (both passes) counts 0", () => {
    const occurrence = occurrenceOn(
      slot('sunday', '00:00', 'sunday', '04:00', { min: 1, ideal: 1, max: 1 }),
      '2027-10-31',
      LONDON,
    );
    const firstPassOnly = { start: at('2027-10-30T23:00Z'), end: at('2027-10-31T01:00Z') }; // 00:00 BST to 01:00 GMT
    expect(hourStatuses(occurrence, [firstPassOnly], LONDON).map((h) => h.shift_count)).toEqual([1, 0, 0, 0]);
  });
});

describe('dayCoverage', () => {
  // One 09:00–14:00 timeslot, min 2, ideal 3, max 4, and shifts that put 1, 2, 3, 4 and 5 on duty
  // in its five hours: every status once.
  const staffing = { min: 2, ideal: 3, max: 4 };
  const everyStatus = rota([slot('wednesday', '09:00', 'wednesday', '14:00', staffing)]);
  const date = '2027-06-16';
  const shifts = [
    shift(date, '09:00', '14:00'),
    shift(date, '10:00', '14:00'),
    shift(date, '11:00', '14:00'),
    shift(date, '12:00', '14:00'),
    shift(date, '13:00', '14:00'),
  ];

  it(
    'given a day whose hours run through every status, then exactly the expected shift_count, required ' +
      'and status per hour, and the day is below the minimum',
    () => {
      const day = dayCoverage(everyStatus, date, LONDON, shifts);
      expect(
        day.hours.map((h) => [h.start_time.slice(11, 16), h.shift_count, h.required, h.status, h.status_text]),
      ).toEqual([
        ['09:00', 1, 1, -2, 'below-minimum'],
        ['10:00', 2, 0, -1, 'below-ideal'],
        ['11:00', 3, 0, 0, 'ideal'],
        ['12:00', 4, 0, 1, 'full'],
        ['13:00', 5, 0, 2, 'over-maximum'],
      ]);
      expect([day.closed, day.status, day.below_minimum]).toEqual([false, -2, true]);
      expect(day.timeslots).toHaveLength(1);
      expect([day.timeslots[0]!.pattern_status, day.timeslots[0]!.pattern_status_text]).toEqual([-2, 'below-minimum']);
      expect(day.timeslots[0]!.hours).toEqual(day.hours);
    },
  );

  it('given the first hour filled to the minimum, then the day takes the next lowest status', () => {
    const day = dayCoverage(everyStatus, date, LONDON, [...shifts, shift(date, '09:00', '10:00')]);
    expect(day.hours.map((h) => h.status)).toEqual([-1, -1, 0, 1, 2]);
    expect([day.status, day.below_minimum]).toEqual([-1, false]);
  });

  it('given the caller leaves a cancelled shift out (it must: nothing here can tell), then the hour counts without it', () => {
    const booked = [
      { ...shift(date, '09:00', '14:00'), cancelled: false },
      { ...shift(date, '09:00', '14:00'), cancelled: true },
    ];
    const counted = dayCoverage(
      everyStatus,
      date,
      LONDON,
      booked.filter((s) => !s.cancelled),
    );
    expect(counted.hours.map((h) => h.shift_count)).toEqual([1, 1, 1, 1, 1]);
  });

  it(
    'given a date closed by the close action, a weekday without timeslots, a date before the rota starts ' +
      'or an archived rota, then closed, no hours, status 0',
    () => {
      const closedDates = rota(everyStatus.timeline[0]!.timeslots.slice(), { closed_dates: new Set([date]) });
      for (const [calendar, day] of [
        [closedDates, date],
        [everyStatus, '2027-06-17'],
        [everyStatus, '2025-12-31'],
        [{ ...everyStatus, archived: true }, date],
      ] as const) {
        expect(dayCoverage(calendar, day, LONDON, shifts)).toEqual({
          closed: true,
          status: 0,
          below_minimum: false,
          hours: [],
          timeslots: [],
        });
      }
    },
  );

  it("given two overlapping timeslots, then each has its own hours and pattern_status, and the day's hours are in start order", () => {
    const calendar = rota([
      slot('wednesday', '09:00', 'wednesday', '11:00', { min: 1, ideal: 1, max: 1 }),
      slot('wednesday', '09:30', 'wednesday', '10:30', { min: 2, ideal: 2, max: 2 }),
    ]);
    const day = dayCoverage(calendar, date, LONDON, [shift(date, '09:00', '11:00')]);
    expect(day.timeslots.map((t) => [t.hours.length, t.pattern_status])).toEqual([
      [2, 1],
      [1, -2],
    ]);
    expect(day.hours.map((h) => [h.start_time.slice(11, 16), h.status])).toEqual([
      ['09:00', 1],
      ['09:30', -2],
      ['10:00', 1],
    ]);
    expect(day.status).toBe(-2);
  });

  it("given an overnight timeslot, then it belongs to its evening's date, counts shifts into the next date, and the next date has no hours of it", () => {
    const calendar = rota([slot('friday', '22:00', 'saturday', '02:00', { min: 1, ideal: 1, max: 1 })]);
    const night = [shift('2027-06-18', '22:00', '01:00', LONDON, '2027-06-19'), shift('2027-06-19', '01:00', '02:00')];
    const friday = dayCoverage(calendar, '2027-06-18', LONDON, night);
    expect(friday.hours.map((h) => [h.start_time, h.shift_count])).toEqual([
      ['2027-06-18 22:00:00', 1],
      ['2027-06-18 23:00:00', 1],
      ['2027-06-19 00:00:00', 1],
      ['2027-06-19 01:00:00', 1],
    ]);
    expect(friday.status).toBe(1);
    expect(dayCoverage(calendar, '2027-06-19', LONDON, night)).toMatchObject({ closed: true, hours: [] });
  });

  it('given the occurrences of a range from timeslotsBetween, then each date answers as when they are looked up by date', () => {
    const calendar = rota([slot('saturday', '22:00', 'sunday', '06:00'), slot('sunday', '09:00', 'sunday', '12:00')]);
    const range = timeslotsBetween(calendar, '2027-03-26', '2027-03-29', LONDON);
    for (const day of ['2027-03-26', '2027-03-27', '2027-03-28', '2027-03-29']) {
      const given = range.filter((o) => o.date === day);
      expect(dayCoverage(calendar, day, LONDON, [], given)).toEqual(dayCoverage(calendar, day, LONDON, []));
    }
  });

  it("given a day whose only timeslot lies in London's spring gap, then it is open with no hours and status 0", () => {
    const calendar = rota([slot('sunday', '01:00', 'sunday', '01:30')]);
    expect(dayCoverage(calendar, '2027-03-28', LONDON, [])).toEqual({
      closed: false,
      status: 0,
      below_minimum: false,
      hours: [],
      timeslots: [],
    });
  });
});

describe('dateAcrossRotas', () => {
  const day = (status: CoverageStatus, closed = false, active = true) => ({ status, closed, active });

  it('given open rota-days, then the lowest of their statuses', () => {
    expect(dateAcrossRotas([day(1), day(-1), day(2)])).toEqual({ status: -1, closed: false, below_minimum: false });
    expect(dateAcrossRotas([day(0), day(-2)])).toEqual({ status: -2, closed: false, below_minimum: true });
  });

  it('given closed and inactive rota-days among open ones, then only the open ones count', () => {
    expect(dateAcrossRotas([day(-2, true), day(-2, false, false), day(1)])).toEqual({
      status: 1,
      closed: false,
      below_minimum: false,
    });
  });

  it('given every rota closed or inactive that date (or no rotas), then closed with status 0', () => {
    expect(dateAcrossRotas([day(0, true), day(0, false, false)])).toEqual({
      status: 0,
      closed: true,
      below_minimum: false,
    });
    expect(dateAcrossRotas([])).toEqual({ status: 0, closed: true, below_minimum: false });
  });
});
