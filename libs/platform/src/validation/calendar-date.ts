import { ValidateBy, type ValidationOptions } from 'class-validator';
import { parseCalendarDate } from '../time/zoned-time.js';

/**
 * A `YYYY-MM-DD` date that exists in the (proleptic Gregorian) calendar: 2024-02-29 but not
 * 2025-02-29, 2026-02-30, 2026-13-01 or 0000-00-00. Year 0 is refused too: PostgreSQL has none.
 * One implementation: the time module's parseCalendarDate.
 */
export function isCalendarDate(value: unknown): value is string {
  return typeof value === 'string' && parseCalendarDate(value) !== null;
}

export const calendarDateMessage = (field: string) => `The ${field} field must be a date (YYYY-MM-DD) that exists.`;

/** class-validator: a calendar-checked `YYYY-MM-DD` date (see isCalendarDate), for bodies and query DTOs. */
export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCalendarDate',
      validator: {
        validate: (value) => isCalendarDate(value),
        defaultMessage: (args) => calendarDateMessage(args!.property),
      },
    },
    options,
  );
}

const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/i;

/** An ISO 8601 date-time with an offset (`2026-11-20T09:00:00Z`, `…T09:00+01:00`) on a date that exists. */
export function isDateTimeWithOffset(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE_TIME.exec(value);
  return !!match && isCalendarDate(match[1]) && Number.isFinite(Date.parse(value));
}

/** class-validator: see isDateTimeWithOffset. */
export function IsDateTimeWithOffset(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDateTimeWithOffset',
      validator: {
        validate: (value) => isDateTimeWithOffset(value),
        defaultMessage: (args) =>
          `The ${args!.property} field must be an ISO 8601 date-time with an offset, on a date that exists.`,
      },
    },
    options,
  );
}
