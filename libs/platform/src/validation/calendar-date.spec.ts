import { describe, expect, it } from '@jest/globals';
import { IsOptional, validateSync } from 'class-validator';
import { IsCalendarDate, isCalendarDate, IsDateTimeWithOffset, isDateTimeWithOffset } from './calendar-date.js';

describe('isCalendarDate', () => {
  it.each(['2024-02-29', '2000-02-29', '2026-01-31', '2026-04-30', '2026-12-31', '0001-01-01', '9999-12-31'])(
    'accepts %s',
    (date) => expect(isCalendarDate(date)).toBe(true),
  );

  it.each([
    ['2025-02-29', 'not a leap year'],
    ['1900-02-29', 'a century that is not a leap year'],
    ['2026-02-30', 'February has no 30th'],
    ['2026-04-31', 'April has 30 days'],
    ['2026-13-01', 'no 13th month'],
    ['2026-00-10', 'no month 0'],
    ['2026-01-00', 'no day 0'],
    ['0000-00-00', 'the zero date'],
    ['0000-01-01', 'PostgreSQL has no year 0'],
    ['2026-1-01', 'not zero-padded'],
    ['20260101', 'no dashes'],
    ['2026-01-01T00:00:00Z', 'a date-time'],
    [' 2026-01-01', 'padded'],
    ['２０２６-01-01', 'non-ASCII digits'],
  ])('refuses %s (%s)', (date) => expect(isCalendarDate(date)).toBe(false));

  it('refuses what is not a string', () => {
    for (const value of [null, undefined, 20260101, new Date(), ['2026-01-01']])
      expect(isCalendarDate(value)).toBe(false);
  });
});

describe('isDateTimeWithOffset', () => {
  it.each(['2026-11-20T09:00:00Z', '2026-11-20T09:00Z', '2024-02-29T23:59:59.123+01:00', '2026-11-20T09:00:00-0500'])(
    'accepts %s',
    (value) => expect(isDateTimeWithOffset(value)).toBe(true),
  );
  it.each([
    '2026-02-30T09:00:00Z',
    '2025-02-29T09:00:00Z',
    '2026-11-20T24:00:00Z',
    '2026-11-20T09:00:00',
    '2026-W47',
    '2026-324',
    '2026-11-20',
  ])('refuses %s', (value) => expect(isDateTimeWithOffset(value)).toBe(false));
});

describe('@IsCalendarDate() and @IsDateTimeWithOffset()', () => {
  class Body {
    @IsOptional() @IsCalendarDate() date?: string | null;
    @IsOptional() @IsDateTimeWithOffset() at?: string;
  }
  const errors = (values: Partial<Body>) =>
    validateSync(Object.assign(new Body(), values)).map((e) => [e.property, Object.values(e.constraints ?? {})]);

  it('names the field of a date that does not exist', () => {
    expect(errors({ date: '2026-02-30', at: '2026-02-30T00:00:00Z' })).toEqual([
      ['date', ['The date field must be a date (YYYY-MM-DD) that exists.']],
      ['at', [expect.stringMatching(/^The at field must be an ISO 8601 date-time/)]],
    ]);
    expect(errors({ date: '2024-02-29', at: '2024-02-29T12:00:00Z' })).toEqual([]);
  });
});
