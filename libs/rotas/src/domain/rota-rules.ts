import { isCalendarDate } from './calendar-dates.js';
import { type Checked, checked } from './pattern-rules.js';
import { type Refusal, refusal, requiredMessage } from './refusals.js';

/**
 * The pure rules of rota administration (docs/rota-domain.md#rotas, #bulk-actions): names, dates and the bulk actions'
 * data, each returning keyed refusals. `today` is the date in the rota's zone, passed in.
 * Field names default to the bulk body's (`data.date`); create and update pass their own.
 */

export const MAX_NAME = 255;
export const MAX_BULK_ROTAS = 500;
export const MAX_CLOSE_DATES = 366;

/** A rota name: a string of 1–255 characters (code points), not blank. */
export function checkRotaName(name: unknown, field = 'data.name'): Refusal[] {
  if (name === undefined || name === null) return [refusal(field, requiredMessage(field))];
  if (typeof name !== 'string') return [refusal(field, `The ${field} field must be a string.`)];
  if (name.trim() === '') return [refusal(field, requiredMessage(field))];
  if ([...name].length > MAX_NAME)
    return [refusal(field, `The ${field} field must not be longer than ${MAX_NAME} characters.`)];
  return [];
}

/** A bulk or replace body's rota ids: 1–500 positive integers (counted as sent). Whether the caller manages them is the handler's check. */
export function checkRotaIds(ids: unknown, field = 'rota_ids'): Refusal[] {
  if (ids === undefined || ids === null) return [refusal(field, requiredMessage(field))];
  if (!Array.isArray(ids)) return [refusal(field, `The ${field} field must be an array.`)];
  if (ids.length === 0) return [refusal(field, `The ${field} field must have at least 1 item.`)];
  if (ids.length > MAX_BULK_ROTAS)
    return [refusal(field, `The ${field} field must not have more than ${MAX_BULK_ROTAS} items.`)];
  return ids.flatMap((id, i) =>
    Number.isInteger(id) && (id as number) > 0
      ? []
      : [refusal(`${field}.${i}`, `The ${field}.${i} field must be a positive integer.`)],
  );
}

/** A new rota's dates: start a date; end null or a date not before start (naming the end field). */
export function checkRotaDates(
  start: unknown,
  end: unknown,
  fields = { start: 'start_date', end: 'end_date' },
): Refusal[] {
  const refusals: Refusal[] = [];
  if (start === undefined || start === null) refusals.push(refusal(fields.start, requiredMessage(fields.start)));
  else if (!isCalendarDate(start))
    refusals.push(refusal(fields.start, `The ${fields.start} field must be a date (YYYY-MM-DD).`));
  if (end === undefined || end === null) return refusals;
  if (!isCalendarDate(end)) refusals.push(refusal(fields.end, `The ${fields.end} field must be a date (YYYY-MM-DD).`));
  else if (isCalendarDate(start) && end < start)
    refusals.push(refusal(fields.end, `The ${fields.end} field must be a date on or after ${fields.start}.`));
  return refusals;
}

/** A rota as the end-date action needs it. */
export interface EndableRota {
  readonly rota_id: number;
  readonly start_date: string;
  readonly archived: boolean;
}

export interface EndDatePlan {
  /** The rotas that take the end date. */
  readonly end: ReadonlyArray<{ readonly rota_id: number; readonly end_date: string }>;
  /**
   * Archived rotas, left as they are (an interface rule: excluded from this action;
   * docs/rota-domain.md#bulk-actions).
   */
  readonly skipped: readonly number[];
}

/**
 * The bulk end_date action: `data.date` a date, today or later, and not before the start of any
 * rota it applies to; archived rotas are skipped (their start does not count). All or nothing.
 */
export function checkEndDate(
  date: unknown,
  rotas: readonly EndableRota[],
  today: string,
  field = 'data.date',
): Checked<EndDatePlan> {
  if (date === undefined || date === null) return { ok: false, refusals: [refusal(field, requiredMessage(field))] };
  if (!isCalendarDate(date))
    return { ok: false, refusals: [refusal(field, `The ${field} field must be a date (YYYY-MM-DD).`)] };
  const live = rotas.filter((r) => !r.archived);
  const refusals: Refusal[] = [];
  if (date < today) refusals.push(refusal(field, `The ${field} field must be today (${today}) or later.`));
  for (const r of live) {
    if (date < r.start_date)
      refusals.push(
        refusal(field, `The ${field} field must not be before the start of rota ${r.rota_id} (${r.start_date}).`),
      );
  }
  return checked(refusals, () => ({
    end: live.map((r) => ({ rota_id: r.rota_id, end_date: date })),
    skipped: rotas.filter((r) => r.archived).map((r) => r.rota_id),
  }));
}

/**
 * The bulk close and reopen actions' `data.dates`: 1–366 dates (counted as sent), each today or
 * later; the dates come back once each, in order. Reopening a date that is not closed is no error.
 */
export function checkCloseDates(dates: unknown, today: string, field = 'data.dates'): Checked<string[]> {
  if (dates === undefined || dates === null) return { ok: false, refusals: [refusal(field, requiredMessage(field))] };
  if (!Array.isArray(dates)) return { ok: false, refusals: [refusal(field, `The ${field} field must be an array.`)] };
  if (dates.length === 0)
    return { ok: false, refusals: [refusal(field, `The ${field} field must have at least 1 item.`)] };
  if (dates.length > MAX_CLOSE_DATES)
    return {
      ok: false,
      refusals: [refusal(field, `The ${field} field must not have more than ${MAX_CLOSE_DATES} items.`)],
    };
  const refusals = dates.flatMap((date, i) => {
    if (!isCalendarDate(date))
      return [refusal(`${field}.${i}`, `The ${field}.${i} field must be a date (YYYY-MM-DD).`)];
    return date < today ? [refusal(`${field}.${i}`, `The ${field}.${i} field must be today (${today}) or later.`)] : [];
  });
  return checked(refusals, () => [...new Set(dates as string[])].sort());
}

/** The closed dates after a close (evolve's half). */
export const closeDates = (closed: ReadonlySet<string>, dates: readonly string[]): ReadonlySet<string> =>
  new Set([...closed, ...dates]);

/** The closed dates after a reopen: closures lifted (shifts cancelled by the close stay cancelled). */
export const reopenDates = (closed: ReadonlySet<string>, dates: readonly string[]): ReadonlySet<string> => {
  const lifted = new Set(dates);
  return new Set([...closed].filter((d) => !lifted.has(d)));
};
