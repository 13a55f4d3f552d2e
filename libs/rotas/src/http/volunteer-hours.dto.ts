import { parseIdList, type RawQuery, ValidationError } from '#app/platform';
import { parsePeriodDates } from './rota-views.dto.js';

/** The longest report: end_date − start_date at most 366 days (docs/rota-domain.md#volunteer-hours). */
export const MAX_REPORT_DAYS = 366;
export const GROUPINGS = ['user', 'team', 'rota'] as const;
export type Grouping = (typeof GROUPINGS)[number];

/**
 * `GET /api/reports/volunteer-hours`: start_date and end_date (as the period view's, at most 366
 * days apart), then teams, rotas, users (id lists, as the views') and group_by. An absent date
 * takes the organisation's current month (periodRange, in the controller).
 */
export class VolunteerHoursQuery {
  static readonly listParameters = ['teams', 'rotas', 'users'];
  readonly startDate?: string;
  readonly endDate?: string;
  readonly teams?: number[];
  readonly rotas?: number[];
  readonly users?: number[];
  readonly groupBy!: Grouping;

  static fromQuery(query: RawQuery): VolunteerHoursQuery {
    return {
      ...parsePeriodDates(query, MAX_REPORT_DAYS),
      teams: parseIdList(query, 'teams'),
      rotas: parseIdList(query, 'rotas'),
      users: parseIdList(query, 'users'),
      groupBy: groupingOf(query),
    };
  }
}

function groupingOf(query: RawQuery): Grouping {
  const value = query.group_by ?? 'user';
  if (!(GROUPINGS as readonly unknown[]).includes(value))
    throw new ValidationError({ group_by: ['The group_by field must be user, team or rota.'] });
  return value as Grouping;
}
