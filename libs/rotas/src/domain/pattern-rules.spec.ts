import { describe, expect, it } from '@jest/globals';
import { checkPattern, type PatternBody } from './pattern-rules.js';
import type { Refusal } from './refusals.js';

const item = (
  weekday_start: string,
  start_time: string,
  weekday_end: string,
  end_time: string,
  numbers: object = {},
) => ({ weekday_start, start_time, weekday_end, end_time, ...numbers });
const fieldsOf = (body: PatternBody) => {
  const result = checkPattern(body);
  return result.ok ? [] : result.refusals.map((r: Refusal) => r.field);
};

describe('checkPattern (docs/rota-domain.md#shift-patterns)', () => {
  it("given timeslots with their own numbers or none, then those without take the pattern's, in the order sent, times as HH:MM", () => {
    const result = checkPattern({
      min: 1,
      ideal: 2,
      max: 3,
      pattern: [
        item('tuesday', '09:00:00', 'tuesday', '17:00'),
        item('monday', '22:00', 'tuesday', '06:00', { min: 0, ideal: 0, max: 1 }),
        item('friday', '10:00', 'friday', '12:00', { max: 5 }),
      ],
    });
    expect(result).toEqual({
      ok: true,
      value: [
        {
          weekday_start: 'tuesday',
          start_time: '09:00',
          weekday_end: 'tuesday',
          end_time: '17:00',
          min: 1,
          ideal: 2,
          max: 3,
        },
        {
          weekday_start: 'monday',
          start_time: '22:00',
          weekday_end: 'tuesday',
          end_time: '06:00',
          min: 0,
          ideal: 0,
          max: 1,
        },
        {
          weekday_start: 'friday',
          start_time: '10:00',
          weekday_end: 'friday',
          end_time: '12:00',
          min: 1,
          ideal: 2,
          max: 5,
        },
      ],
    });
  });

  it('given equal numbers (a one-person timeslot), then they are allowed', () => {
    expect(
      checkPattern({ pattern: [item('monday', '09:00', 'monday', '10:00', { min: 1, ideal: 1, max: 1 })] }).ok,
    ).toBe(true);
  });

  it("given min > ideal, ideal > max or max 0 on timeslots, then each is refused under the timeslot's key", () => {
    expect(
      fieldsOf({
        pattern: [
          item('monday', '09:00', 'monday', '10:00', { min: 3, ideal: 2, max: 5 }),
          item('tuesday', '09:00', 'tuesday', '10:00', { min: 1, ideal: 4, max: 3 }),
          item('wednesday', '09:00', 'wednesday', '10:00', { min: 0, ideal: 0, max: 0 }),
        ],
      }),
    ).toEqual(['pattern.0.min', 'pattern.1.ideal', 'pattern.2.max']);
  });

  it('given numbers that are not whole numbers ≥ 0, then each is refused', () => {
    const result = checkPattern({
      min: -1,
      pattern: [item('monday', '09:00', 'monday', '10:00', { min: 1.5, ideal: '2', max: 3 })],
    });
    expect(result).toEqual({
      ok: false,
      refusals: [
        { field: 'min', message: 'The min field must be at least 0.' },
        { field: 'pattern.0.min', message: 'The pattern.0.min field must be an integer.' },
        { field: 'pattern.0.ideal', message: 'The pattern.0.ideal field must be an integer.' },
      ],
    });
  });

  it('given a timeslot without numbers on a pattern without them, then each missing number is required', () => {
    expect(fieldsOf({ max: 2, pattern: [item('monday', '09:00', 'monday', '10:00')] })).toEqual([
      'pattern.0.min',
      'pattern.0.ideal',
    ]);
  });

  it("given the pattern's own numbers out of order, then they are refused once under the pattern's keys, not per inheriting timeslot", () => {
    const result = checkPattern({
      min: 3,
      ideal: 2,
      max: 4,
      pattern: [item('monday', '09:00', 'monday', '10:00'), item('tuesday', '09:00', 'tuesday', '10:00')],
    });
    expect(result).toEqual({
      ok: false,
      refusals: [{ field: 'min', message: 'The min field must not be greater than ideal.' }],
    });
  });

  it("given a timeslot with its own max under the inherited ideal, then the timeslot's own max is blamed, not the pattern's ideal", () => {
    expect(
      checkPattern({ min: 1, ideal: 3, max: 4, pattern: [item('monday', '09:00', 'monday', '10:00', { max: 2 })] }),
    ).toEqual({
      ok: false,
      refusals: [{ field: 'pattern.0.max', message: 'The pattern.0.max field must not be less than ideal.' }],
    });
    expect(
      fieldsOf({ min: 1, ideal: 3, max: 4, pattern: [item('monday', '09:00', 'monday', '10:00', { min: 4 })] }),
    ).toEqual(['pattern.0.min']);
  });

  it('given equal start and end, then the end is refused; given an end earlier the same weekday, then it lasts almost a week', () => {
    expect(fieldsOf({ min: 1, ideal: 1, max: 1, pattern: [item('monday', '09:00', 'monday', '09:00')] })).toEqual([
      'pattern.0.end_time',
    ]);
    expect(checkPattern({ min: 1, ideal: 1, max: 1, pattern: [item('monday', '09:00', 'monday', '08:59')] }).ok).toBe(
      true,
    );
  });

  it("given Sunday 22:00 → Monday 06:00 and Monday 05:00 → 07:00, then the later one is refused for overlapping across the week's end", () => {
    const result = checkPattern({
      min: 1,
      ideal: 1,
      max: 1,
      pattern: [item('sunday', '22:00', 'monday', '06:00'), item('monday', '05:00', 'monday', '07:00')],
    });
    expect(result).toEqual({
      ok: false,
      refusals: [
        {
          field: 'pattern.1',
          message: 'The timeslot pattern.1 overlaps pattern.0 (the week wraps around from Sunday to Monday).',
        },
      ],
    });
  });

  it('given timeslots that only touch (end = next start), then they do not overlap', () => {
    expect(
      checkPattern({
        min: 1,
        ideal: 1,
        max: 1,
        pattern: [
          item('sunday', '22:00', 'monday', '06:00'),
          item('monday', '06:00', 'monday', '07:00'),
          item('sunday', '20:00', 'sunday', '22:00'),
        ],
      }).ok,
    ).toBe(true);
  });

  it('given two timeslots starting at the same minute, then the second overlaps the first', () => {
    expect(
      fieldsOf({
        min: 1,
        ideal: 1,
        max: 1,
        pattern: [item('monday', '09:00', 'monday', '10:00'), item('monday', '09:00', 'monday', '09:30')],
      }),
    ).toEqual(['pattern.1']);
  });

  it('given malformed weekdays and times, then each is refused under its key', () => {
    const result = checkPattern({
      min: 1,
      ideal: 1,
      max: 1,
      pattern: [item('Monday', '24:00', 'mon', '9:00'), { start_time: '09:30:15' }, 'x'],
    });
    expect(result.ok ? [] : result.refusals.map((r) => r.field)).toEqual([
      'pattern.0.weekday_start',
      'pattern.0.start_time',
      'pattern.0.weekday_end',
      'pattern.0.end_time',
      'pattern.1.weekday_start',
      'pattern.1.start_time',
      'pattern.1.weekday_end',
      'pattern.1.end_time',
      'pattern.2',
    ]);
  });

  it('given one bad timeslot among good ones, then the good ones still take part in the overlap check, and every refusal comes back at once', () => {
    expect(
      fieldsOf({
        min: 1,
        ideal: 1,
        max: 1,
        pattern: [
          item('monday', '09:00', 'monday', '12:00'),
          item('monday', '13:00', 'monday', '13:00'),
          item('monday', '11:00', 'monday', '12:30', { max: 0 }),
          item('monday', '11:00', 'monday', '12:30'),
        ],
      }),
    ).toEqual(['pattern.1.end_time', 'pattern.2.max', 'pattern.3']);
  });

  it('given 200 timeslots, then they pass; 201, then the pattern is refused for its size; none or no array, then refused too', () => {
    const hours = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        item(
          ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'][Math.floor(i / 29)]!,
          `${String(i % 29 < 24 ? i % 29 : 0).padStart(2, '0')}:00`,
          'sunday',
          '23:59',
        ),
      );
    const spread = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const minute = i * 50;
        const day = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'][
          Math.floor(minute / 1440)
        ]!;
        const clock = (m: number) =>
          `${String(Math.floor((m % 1440) / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
        const endDay = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'][
          Math.floor((minute + 30) / 1440) % 7
        ]!;
        return item(day, clock(minute), endDay, clock(minute + 30));
      });
    expect(checkPattern({ min: 1, ideal: 1, max: 1, pattern: spread(200) }).ok).toBe(true);
    expect(fieldsOf({ min: 1, ideal: 1, max: 1, pattern: spread(201) })).toEqual(['pattern']);
    expect(fieldsOf({ min: 1, ideal: 1, max: 1, pattern: hours(201) })).toEqual(['pattern']);
    expect(fieldsOf({ min: 1, ideal: 1, max: 1, pattern: [] })).toEqual(['pattern']);
    expect(fieldsOf({ min: 1, ideal: 1, max: 1 })).toEqual(['pattern']);
    expect(fieldsOf({ min: 1, ideal: 1, max: 1, pattern: { monday: [] } })).toEqual(['pattern']);
  });
});
