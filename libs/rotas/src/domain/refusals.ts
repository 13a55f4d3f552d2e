import { type FieldErrors, ValidationError } from '#app/platform';

/**
 * One broken rule, keyed like the API's error keys (`pattern.3.max`, `weekdays.monday.0.end_time`,
 * `data.dates.2`; array items counted from 0), so a route can answer one 422 naming all of them.
 */
export interface Refusal {
  readonly field: string;
  readonly message: string;
}

export const refusal = (field: string, message: string): Refusal => ({ field, message });

/** The 422 body's `errors`: one message a field, the first refusal naming it (the most basic rule it breaks). */
export function toFieldErrors(refusals: readonly Refusal[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const { field, message } of refusals) errors[field] ??= [message];
  return errors;
}

/** For decide functions: nothing refused returns; else a ValidationError naming every field. */
export function throwIfRefused(refusals: readonly Refusal[]): void {
  if (refusals.length) throw new ValidationError(toFieldErrors(refusals));
}

export const requiredMessage = (field: string) => `The ${field} field is required.`;
