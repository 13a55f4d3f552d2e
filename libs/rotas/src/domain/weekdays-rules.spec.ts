import { describe, expect, it } from '@jest/globals';
import { checkWeekdays } from './weekdays-rules.js';

const ts = (start_time: string, end_time: string, numbers: object = { min: 1, ideal: 2, max: 3 }) => ({
  start_time,
  end_time,
  ...numbers,
});
const fieldsOf = (weekdays: unknown) => {
  const result = checkWeekdays(weekdays);
  return result.ok ? [] : result.refusals.map((r) => r.field);
};

describe('checkWeekdays (the update-timeslots body)', () => {
  it('given an end not after the start, then the timeslot ends the next day; the result is in week order', () => {
    const result = checkWeekdays({
      sunday: [ts('22:00', '06:00')],
      monday: [ts('13:00', '17:00'), ts('09:00', '12:00')],
    });
    expect(result).toEqual({
      ok: true,
      value: [
        {
          weekday_start: 'monday',
          start_time: '09:00',
          weekday_end: 'monday',
          end_time: '12:00',
          min: 1,
          ideal: 2,
          max: 3,
        },
        {
          weekday_start: 'monday',
          start_time: '13:00',
          weekday_end: 'monday',
          end_time: '17:00',
          min: 1,
          ideal: 2,
          max: 3,
        },
        {
          weekday_start: 'sunday',
          start_time: '22:00',
          weekday_end: 'monday',
          end_time: '06:00',
          min: 1,
          ideal: 2,
          max: 3,
        },
      ],
    });
  });

  it('given an end equal to the start, then the timeslot lasts 24 hours, to the same time the next day', () => {
    const result = checkWeekdays({ friday: [ts('08:00', '08:00')] });
    expect(result.ok && result.value).toEqual([
      {
        weekday_start: 'friday',
        start_time: '08:00',
        weekday_end: 'saturday',
        end_time: '08:00',
        min: 1,
        ideal: 2,
        max: 3,
      },
    ]);
  });

  it('given weekdays omitted, null or empty, then they have no timeslots; all of them so: an empty set', () => {
    expect(checkWeekdays({ monday: [], tuesday: null })).toEqual({ ok: true, value: [] });
    expect(checkWeekdays({})).toEqual({ ok: true, value: [] });
  });

  it('given Monday 22:00–06:00 and Tuesday 05:00–09:00, then the Tuesday one overlaps', () => {
    expect(checkWeekdays({ monday: [ts('22:00', '06:00')], tuesday: [ts('05:00', '09:00')] })).toEqual({
      ok: false,
      refusals: [
        {
          field: 'weekdays.tuesday.0',
          message:
            'The timeslot weekdays.tuesday.0 overlaps weekdays.monday.0 (the week wraps around from Sunday to Monday).',
        },
      ],
    });
  });

  it("given Sunday 23:00–02:00 and Monday 01:00–03:00, then they overlap across the week's end; Monday 02:00 just touches", () => {
    expect(fieldsOf({ sunday: [ts('23:00', '02:00')], monday: [ts('01:00', '03:00')] })).toEqual(['weekdays.sunday.0']);
    expect(fieldsOf({ sunday: [ts('23:00', '02:00')], monday: [ts('02:00', '03:00')] })).toEqual([]);
  });

  it('given missing or bad numbers and times, then each is refused under weekdays.<day>.<i>.<field>', () => {
    expect(
      fieldsOf({
        monday: [{ start_time: '09:00' }, ts('9:00', '10:00', { min: 2, ideal: 1, max: 3 })],
        wednesday: [ts('09:00', '10:00', { min: 0, ideal: 0, max: 0 })],
      }),
    ).toEqual([
      'weekdays.monday.0.end_time',
      'weekdays.monday.0.min',
      'weekdays.monday.0.ideal',
      'weekdays.monday.0.max',
      'weekdays.monday.1.start_time',
      'weekdays.wednesday.0.max',
    ]);
  });

  it('given an unknown weekday key, a weekday that is not an array or no weekdays object, then each is refused', () => {
    expect(fieldsOf({ funday: [ts('09:00', '10:00')], mon: [] })).toEqual(['weekdays.funday', 'weekdays.mon']);
    expect(fieldsOf({ monday: ts('09:00', '10:00') })).toEqual(['weekdays.monday']);
    expect(fieldsOf([ts('09:00', '10:00')])).toEqual(['weekdays']);
    expect(fieldsOf(undefined)).toEqual(['weekdays']);
    expect(fieldsOf({ monday: ['x'] })).toEqual(['weekdays.monday.0']);
  });

  it('given more than 200 timeslots over the week, then the weekdays field is refused for its size', () => {
    const day = Array.from({ length: 29 }, (_, i) =>
      ts(
        `${String(Math.floor((i * 49) / 60)).padStart(2, '0')}:${String((i * 49) % 60).padStart(2, '0')}`,
        `${String(Math.floor((i * 49 + 30) / 60)).padStart(2, '0')}:${String((i * 49 + 30) % 60).padStart(2, '0')}`,
      ),
    );
    const week = { monday: day, tuesday: day, wednesday: day, thursday: day, friday: day, saturday: day, sunday: day };
    expect(fieldsOf(week)).toEqual(['weekdays']);
    expect(fieldsOf({ ...week, sunday: day.slice(0, 26) })).toEqual([]);
  });
});
