import { describe, expect, it } from '@jest/globals';
import { checkExpense, mileageAmount, todayIn } from './expense-rules.js';

describe('expense rules', () => {
  it('computes mileage to the penny: miles × rate + miles × passengers × passenger rate', () => {
    expect(mileageAmount(12.5, 2, { rate: 0.45, passenger_rate: 0.05 })).toBe(6.88);
    expect(mileageAmount(10, 0, { rate: 0.45, passenger_rate: 0.05 })).toBe(4.5);
  });

  // Calendar months and "today" in a zone are the platform time module's (libs/platform/src/time).

  it('takes today in the organisation’s zone (the platform todayIn)', () => {
    expect(todayIn('Pacific/Auckland', new Date('2026-11-21T23:30:00Z'))).toBe('2026-11-22');
  });

  const org = { today: '2026-11-21', maxAgeMonths: 3 };
  const rate = { start_date: '2026-01-01', end_date: '2026-12-31', max_miles: 100 };

  it('given a date in the future or older than the maximum age, then the date is refused', () => {
    expect(checkExpense({ date: '2026-11-22', miles: null, rate: null }, org)).toEqual({
      date: [expect.stringMatching(/future/)],
    });
    expect(checkExpense({ date: '2026-08-20', miles: null, rate: null }, org)).toEqual({
      date: [expect.stringMatching(/3 months/)],
    });
    expect(checkExpense({ date: '2026-08-21', miles: null, rate: null }, org)).toEqual({});
    expect(checkExpense({ date: '2020-01-01', miles: null, rate: null }, { ...org, maxAgeMonths: null })).toEqual({});
    // Months count by the calendar, the day clamped: 3 months before 31 May is 28 February.
    expect(
      checkExpense({ date: '2026-02-27', miles: null, rate: null }, { today: '2026-05-31', maxAgeMonths: 3 }),
    ).toEqual({ date: [expect.stringMatching(/3 months/)] });
    expect(
      checkExpense({ date: '2026-02-28', miles: null, rate: null }, { today: '2026-05-31', maxAgeMonths: 3 }),
    ).toEqual({});
  });

  it('given a rate, then it must be valid on the date, and miles are required and bounded', () => {
    expect(checkExpense({ date: '2026-11-01', miles: 40, rate }, org)).toEqual({});
    expect(checkExpense({ date: '2026-11-01', miles: 101, rate }, org)).toEqual({
      miles: [expect.stringMatching(/100/)],
    });
    expect(checkExpense({ date: '2026-11-01', miles: null, rate }, org)).toEqual({ miles: [expect.any(String)] });
    expect(checkExpense({ date: '2026-11-01', miles: 5, rate: { ...rate, end_date: '2026-10-31' } }, org)).toEqual({
      'rate.id': [expect.any(String)],
    });
  });
});
