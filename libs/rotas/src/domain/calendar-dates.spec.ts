import { describe, expect, it } from '@jest/globals';
import { addDays, dateOfDay, dayNumber, isCalendarDate, weekdayOf } from './calendar-dates.js';

describe('calendar dates', () => {
  it('given dates, then day numbers from 1970-01-01 and back', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('1969-12-31')).toBe(-1);
    for (const date of ['2027-03-28', '2028-02-29', '0001-01-01', '0099-12-31', '9999-12-31'])
      expect(dateOfDay(dayNumber(date))).toBe(date);
  });

  it('given days to add, then the calendar is followed across months, leap days and years', () => {
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2027-03-27', 2)).toBe('2027-03-29');
  });

  it('given dates, then their weekdays, DST days and dates before 1970 included', () => {
    expect(weekdayOf('1970-01-01')).toBe('thursday');
    expect(weekdayOf('2027-03-28')).toBe('sunday');
    expect(weekdayOf('2027-03-14')).toBe('sunday');
    expect(weekdayOf('2027-09-26')).toBe('sunday');
    expect(weekdayOf('2026-11-23')).toBe('monday');
    expect(weekdayOf('1969-12-29')).toBe('monday');
  });

  it('given a non-date, then a RangeError, and isCalendarDate says no', () => {
    expect(() => dayNumber('2027-02-29')).toThrow(RangeError);
    expect(isCalendarDate('2027-02-29')).toBe(false);
    expect(isCalendarDate(20270228)).toBe(false);
    expect(isCalendarDate('2027-02-28')).toBe(true);
  });
});
