import type { FieldErrors } from '#app/platform';

/** Mileage: miles × rate + miles × passengers × passenger rate, to the penny. */
export function mileageAmount(miles: number, passengers: number, rate: { rate: number; passenger_rate: number }): number {
  return Math.round((miles * rate.rate + miles * passengers * rate.passenger_rate) * 100) / 100;
}

const formats = new Map<string, Intl.DateTimeFormat>();
const todays = new Map<string, { minute: number; date: string }>();

/** Today's date (YYYY-MM-DD) in a time zone: "the future" and "too old" are the organisation's days. */
export function todayIn(timeZone: string, now = new Date()): string {
  // Formatting is costly (a measurable share of a request), so the answer is kept for the current
  // minute: every zone's offset is a whole number of minutes, so its days begin on a UTC minute.
  const minute = Math.floor(now.getTime() / 60_000);
  const known = todays.get(timeZone);
  if (known?.minute === minute) return known.date;
  let format = formats.get(timeZone);
  if (!format) formats.set(timeZone, (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  const date = format.format(now);
  todays.set(timeZone, { minute, date });
  return date;
}

/** `date` minus whole calendar months, the day clamped to the shorter month (31 March − 1 = 28/29 Feb). */
export function monthsBefore(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) - months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export interface RateForDate {
  readonly start_date: string | null;
  readonly end_date: string | null;
  readonly max_miles: number | null;
}

/** The date and mileage rules of an expense; every broken rule named. */
export function checkExpense(input: { date: string; miles: number | null; rate: RateForDate | null }, org: { today: string; maxAgeMonths: number | null }): FieldErrors {
  const errors: FieldErrors = {};
  if (input.date > org.today) errors.date = ['The date may not be in the future.'];
  else if (org.maxAgeMonths && input.date < monthsBefore(org.today, org.maxAgeMonths)) {
    errors.date = [`The date may not be more than ${org.maxAgeMonths} months ago.`];
  }
  if (input.rate) {
    const { start_date, end_date, max_miles } = input.rate;
    if ((start_date && input.date < start_date) || (end_date && input.date > end_date)) errors['rate.id'] = ['The rate is not valid on the date of the expense.'];
    if (input.miles === null) errors.miles = ['The miles field is required with a rate.'];
    else if (max_miles !== null && input.miles > max_miles) errors.miles = [`The miles may not be greater than ${max_miles} for this rate.`];
  }
  return errors;
}
