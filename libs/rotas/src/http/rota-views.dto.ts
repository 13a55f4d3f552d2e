import {
  addCalendarMonths,
  calendarDateMessage,
  isCalendarDate,
  parseBooleanQuery,
  parseIdList,
  type RawQuery,
  ValidationError,
} from '#app/platform';
import { addDays, dayNumber } from '../domain/calendar-dates.js';

/** The longest period: end_date − start_date at most 91 days (92 dates). */
export const MAX_PERIOD_DAYS = 91;
export const LISTS = ['basic', 'detailed'] as const;

/**
 * `GET /api/rota/period`: start_date and end_date (each a date; both given, the end not before the
 * start and at most 91 days after it, else a 422 naming end_date), then list, user_flags, teams,
 * rotas. What an absent date stands for depends on the organisation's today: periodRange.
 */
export class PeriodViewQuery {
  static readonly listParameters = ['teams', 'rotas'];
  readonly startDate?: string;
  readonly endDate?: string;
  readonly detailed!: boolean;
  readonly userFlags!: boolean;
  readonly teams?: number[];
  readonly rotas?: number[];

  static fromQuery(query: RawQuery): PeriodViewQuery {
    return {
      ...parsePeriodDates(query, MAX_PERIOD_DAYS),
      detailed: listOf(query) === 'detailed',
      userFlags: parseBooleanQuery(query, 'user_flags') ?? false,
      teams: parseIdList(query, 'teams'),
      rotas: parseIdList(query, 'rotas'),
    };
  }
}

/** `GET /api/rota/day/{date}`: user_flags, teams, rotas, users. */
export class DayViewQuery {
  static readonly listParameters = ['teams', 'rotas', 'users'];
  readonly userFlags!: boolean;
  readonly teams?: number[];
  readonly rotas?: number[];
  readonly users?: number[];

  static fromQuery(query: RawQuery): DayViewQuery {
    return {
      userFlags: parseBooleanQuery(query, 'user_flags') ?? false,
      teams: parseIdList(query, 'teams'),
      rotas: parseIdList(query, 'rotas'),
      users: parseIdList(query, 'users'),
    };
  }
}

/**
 * start_date and end_date of a period query (the views', the hours report's): each a date; both
 * given, the end not before the start and at most `maxDays` after it, else a 422 naming end_date.
 */
export function parsePeriodDates(query: RawQuery, maxDays: number): { startDate?: string; endDate?: string } {
  const malformed = ['start_date', 'end_date'].filter(
    (name) => query[name] !== undefined && !isCalendarDate(query[name]),
  );
  if (malformed.length)
    throw new ValidationError(Object.fromEntries(malformed.map((name) => [name, [calendarDateMessage(name)]])));
  const [startDate, endDate] = [query.start_date as string | undefined, query.end_date as string | undefined];
  if (startDate !== undefined && endDate !== undefined) checkPeriod(startDate, endDate, maxDays);
  return { startDate, endDate };
}

const firstOfMonth = (date: string) => `${date.slice(0, 8)}01`;
const lastOfMonth = (date: string) => addDays(addCalendarMonths(firstOfMonth(date), 1), -1);
const validPeriod = (from: string, to: string, maxDays: number) =>
  to >= from && dayNumber(to) - dayNumber(from) <= maxDays;

function checkPeriod(from: string, to: string, maxDays: number): void {
  if (to < from) throw new ValidationError({ end_date: ['The end_date must not be before the start_date.'] });
  if (dayNumber(to) - dayNumber(from) > maxDays)
    throw new ValidationError({
      end_date: [`The end_date must be at most ${maxDays} days after the start_date.`],
    });
}

/**
 * The period of the view (docs/rota-domain.md#period-view). Absent, start_date and end_date take the
 * interface's default: the first and the last day of the current month in the organisation's zone.
 * When one is given and that default would make a range the view refuses (an end before the start,
 * or more than `maxDays`), the given date's own month fills the other instead: a request that names
 * one valid date is answered.
 * (Both given, PeriodViewQuery has checked them.)
 */
export function periodRange(
  query: { readonly startDate?: string; readonly endDate?: string },
  today: string,
  maxDays = MAX_PERIOD_DAYS,
): { from: string; to: string } {
  const { startDate: start, endDate: end } = query;
  let [from, to] = [start ?? firstOfMonth(today), end ?? lastOfMonth(today)];
  if (start === undefined && end !== undefined && !validPeriod(from, to, maxDays)) from = firstOfMonth(end);
  if (end === undefined && start !== undefined && !validPeriod(from, to, maxDays)) to = lastOfMonth(start);
  return { from, to };
}

function listOf(query: RawQuery): 'basic' | 'detailed' {
  const list = query.list ?? 'basic';
  if (!(LISTS as readonly unknown[]).includes(list))
    throw new ValidationError({ list: ['The list field must be basic or detailed.'] });
  return list as 'basic' | 'detailed';
}
