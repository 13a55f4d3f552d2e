import { describe, expect, it } from '@jest/globals';
import { checkExpense, mileageAmount, monthsBefore, todayIn } from './expense-rules.js';

describe('expense rules', () => {
  it('computes mileage to the penny: miles × rate + miles × passengers × passenger rate', () => {
    expect(mileageAmount(12.5, 2, { rate: 0.45, passenger_rate: 0.05 })).toBe(6.88);
    expect(mileageAmount(10, 0, { rate: 0.45, passenger_rate: 0.05 })).toBe(4.5);
  });

  it('counts months back by the calendar, clamping the day', () => {
    expect(monthsBefore('2026-03-31', 1)).toBe('2026-02-28');
    expect(monthsBefore('2028-03-31', 1)).toBe('2028-02-29');
    expect(monthsBefore('2026-01-15', 3)).toBe('2025-10-15');
    expect(monthsBefore('2026-11-21', 12)).toBe('2025-11-21');
  });

  it('takes today in the organisation’s zone', () => {
    const lateEvening = new Date('2026-11-21T23:30:00Z');
    expect(todayIn('Europe/London', lateEvening)).toBe('2026-11-21');
    expect(todayIn('Pacific/Auckland', lateEvening)).toBe('2026-11-22');
    expect(todayIn('America/New_York', lateEvening)).toBe('2026-11-21');
  });

  it('given the last and the first millisecond of a day, then today changes at the zone\'s midnight, also at a :45 offset', () => {
    expect(todayIn('Europe/London', new Date('2026-11-21T23:59:59.999Z'))).toBe('2026-11-21');
    expect(todayIn('Europe/London', new Date('2026-11-22T00:00:00.000Z'))).toBe('2026-11-22');
    // Kathmandu is UTC+05:45: its midnight is 18:15 UTC.
    expect(todayIn('Asia/Kathmandu', new Date('2026-11-21T18:14:59.999Z'))).toBe('2026-11-21');
    expect(todayIn('Asia/Kathmandu', new Date('2026-11-21T18:15:00.000Z'))).toBe('2026-11-22');
    expect(todayIn('Asia/Kathmandu', new Date('2026-11-21T18:14:30.000Z'))).toBe('2026-11-21');
  });

  const org = { today: '2026-11-21', maxAgeMonths: 3 };
  const rate = { start_date: '2026-01-01', end_date: '2026-12-31', max_miles: 100 };

  it('given a date in the future or older than the maximum age, then the date is refused', () => {
    expect(checkExpense({ date: '2026-11-22', miles: null, rate: null }, org)).toEqual({ date: [expect.stringMatching(/future/)] });
    expect(checkExpense({ date: '2026-08-20', miles: null, rate: null }, org)).toEqual({ date: [expect.stringMatching(/3 months/)] });
    expect(checkExpense({ date: '2026-08-21', miles: null, rate: null }, org)).toEqual({});
    expect(checkExpense({ date: '2020-01-01', miles: null, rate: null }, { ...org, maxAgeMonths: null })).toEqual({});
  });

  it('given a rate, then it must be valid on the date, and miles are required and bounded', () => {
    expect(checkExpense({ date: '2026-11-01', miles: 40, rate }, org)).toEqual({});
    expect(checkExpense({ date: '2026-11-01', miles: 101, rate }, org)).toEqual({ miles: [expect.stringMatching(/100/)] });
    expect(checkExpense({ date: '2026-11-01', miles: null, rate }, org)).toEqual({ miles: [expect.any(String)] });
    expect(checkExpense({ date: '2026-11-01', miles: 5, rate: { ...rate, end_date: '2026-10-31' } }, org)).toEqual({ 'rate.id': [expect.any(String)] });
  });
});
