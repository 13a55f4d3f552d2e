import { DateTime } from 'luxon';
import {
  type FieldErrors,
  instantToWallClock,
  FIRST_CALENDAR_DATE,
  LAST_CALENDAR_DATE,
  NonexistentWallClockError,
  ValidationError,
  wallClockToInstant,
  withinCalendar,
} from '#app/platform';
import { dateOfDay, dayNumber } from '../domain/calendar-dates.js';
import type { ShiftTimesData } from '../rotas.events.js';

/**
 * docs/rota-domain.md#times-in-requests: `YYYY-MM-DD HH:MM` is a wall clock in the rota zone (a time in
 * the spring gap is a 422, an ambiguous one the earlier instant); ISO 8601 with an offset or `Z`
 * is an instant, converted into the zone. Times are whole minutes.
 */
const WALL = /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):([0-5]\d)$/;
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;

/** One input time as an instant, or the reason it is refused (a 422 message for `field`). */
export function parseShiftInstant(text: unknown, zone: string, field: string): Date | string {
  const instant = parseInstant(text, zone, field);
  if (typeof instant === 'string' || withinCalendar(instant, zone)) return instant;
  return pastCalendarMessage(field);
}

/** docs/rota-domain.md#times-in-requests: nothing is stored outside the calendar's years, in UTC or in the zone. */
export const pastCalendarMessage = (field: string) =>
  `The ${field} field must be between ${FIRST_CALENDAR_DATE} and ${LAST_CALENDAR_DATE}, in UTC and in the organisation's time zone.`;

function parseInstant(text: unknown, zone: string, field: string): Date | string {
  if (typeof text !== 'string')
    return `The ${field} field must be a date and time (YYYY-MM-DD HH:MM, or ISO 8601 with an offset).`;
  const wall = WALL.exec(text);
  if (wall) {
    try {
      return wallClockToInstant(wall[1]!, `${wall[2]}:${wall[3]}`, zone);
    } catch (error) {
      if (error instanceof NonexistentWallClockError) return error.messageFor(field);
      return `The ${field} field is not a valid date.`;
    }
  }
  if (!ISO_WITH_OFFSET.test(text))
    return `The ${field} field must be a date and time (YYYY-MM-DD HH:MM, or ISO 8601 with an offset).`;
  const parsed = DateTime.fromISO(text, { setZone: true });
  if (!parsed.isValid) return `The ${field} field is not a valid date.`;
  if (parsed.second !== 0 || parsed.millisecond !== 0) return `The ${field} field must be a whole minute.`;
  return parsed.toJSDate();
}

/** `YYYY-MM-DD HH:MM` of an instant in the zone. */
/** Whole real minutes between two instants: an autumn night counts its extra hour (docs/rota-domain.md#clock-changes). */
export const realMinutes = (start: string, end: string): number =>
  Math.floor((Date.parse(end) - Date.parse(start)) / 60_000);

export const wallOf = (instant: Date, zone: string): string => {
  const w = instantToWallClock(instant, zone);
  return `${w.date} ${w.time}`;
};

/** A shift's times from instants: the local date it starts on and both wall clocks. */
export function timesData(start: Date, end: Date, zone: string): ShiftTimesData {
  const startWall = wallOf(start, zone);
  return {
    date: startWall.slice(0, 10),
    start: start.toISOString(),
    end: end.toISOString(),
    startWall,
    endWall: wallOf(end, zone),
  };
}

/**
 * The body's start and end (`prefix` keys errors of a bulk item: `shifts.3.`): both parsed, the end
 * after the start. Every problem of the pair is reported at once.
 */
export function parseShiftTimes(
  body: { start_datetime?: unknown; end_datetime?: unknown },
  zone: string,
  prefix = '',
): ShiftTimesData {
  const errors: FieldErrors = {};
  const start = parseShiftInstant(body.start_datetime, zone, 'start_datetime');
  const end = parseShiftInstant(body.end_datetime, zone, 'end_datetime');
  if (typeof start === 'string') errors[`${prefix}start_datetime`] = [start];
  if (typeof end === 'string') errors[`${prefix}end_datetime`] = [end];
  if (typeof start !== 'string' && typeof end !== 'string' && end.getTime() <= start.getTime()) {
    errors[`${prefix}end_datetime`] = ['The end_datetime field must be after the start_datetime.'];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return timesData(start as Date, end as Date, zone);
}

/** The local dates a span [start, end) is on duty (its gates: rule 6's clashes share a date). */
export function datesTouched(span: { start: string | number; end: string | number }, zone: string): string[] {
  const first = dayNumber(instantToWallClock(new Date(span.start), zone).date);
  const last = dayNumber(instantToWallClock(new Date(new Date(span.end).getTime() - 1), zone).date);
  // By day number, so no date after the last is ever formed (the day after 9999-12-31 has no YYYY-MM-DD).
  const dates: string[] = [];
  for (let day = first; day <= last; day++) dates.push(dateOfDay(day));
  return dates;
}
