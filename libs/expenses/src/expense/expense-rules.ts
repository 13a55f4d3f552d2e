import { type FieldErrors, monthsBefore, todayIn } from '#app/platform';

/** Mileage: miles × rate + miles × passengers × passenger rate, to the penny. */
export function mileageAmount(
  miles: number,
  passengers: number,
  rate: { rate: number; passenger_rate: number },
): number {
  return Math.round((miles * rate.rate + miles * passengers * rate.passenger_rate) * 100) / 100;
}

/** Today's date in the organisation's zone: "the future" and "too old" are the organisation's days. */
export { todayIn };

export interface RateForDate {
  readonly start_date: string | null;
  readonly end_date: string | null;
  readonly max_miles: number | null;
}

/** The date and mileage rules of an expense; every broken rule named. */
export function checkExpense(
  input: { date: string; miles: number | null; rate: RateForDate | null },
  org: { today: string; maxAgeMonths: number | null },
): FieldErrors {
  const errors: FieldErrors = {};
  if (input.date > org.today) errors.date = ['The date may not be in the future.'];
  else if (org.maxAgeMonths && input.date < monthsBefore(org.today, org.maxAgeMonths)) {
    errors.date = [`The date may not be more than ${org.maxAgeMonths} months ago.`];
  }
  if (input.rate) {
    const { start_date, end_date, max_miles } = input.rate;
    if ((start_date && input.date < start_date) || (end_date && input.date > end_date))
      errors['rate.id'] = ['The rate is not valid on the date of the expense.'];
    if (input.miles === null) errors.miles = ['The miles field is required with a rate.'];
    else if (max_miles !== null && input.miles > max_miles)
      errors.miles = [`The miles may not be greater than ${max_miles} for this rate.`];
  }
  return errors;
}
