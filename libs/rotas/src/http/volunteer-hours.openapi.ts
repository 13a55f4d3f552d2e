import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiDocs, ApiErrors, ApiIdListQuery } from '#app/platform';
import { GROUPINGS, MAX_REPORT_DAYS } from './volunteer-hours.dto.js';
import { HOURS_CSV_COLUMNS, VolunteerHoursReportDto } from './volunteer-hours.responses.js';

/** What the OpenAPI document says of VolunteerHoursController. */
export const VolunteerHoursDocs = {
  controller: () => ApiDocs(ApiTags('reports'), ApiBearerAuth(), ApiExtraModels(VolunteerHoursReportDto)),
  report: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getVolunteerHoursReport',
        summary: 'Volunteer hours report',
        description:
          'Permission: add-user-shifts or manage-rotas (without either: 403); the report covers the rotas of the teams they reach. ' +
          'Counts the booked, not cancelled shifts dated in [start_date, end_date] that have started (a rota since archived or ended too: ' +
          'hours worked stay worked), grouped by group_by: per group ' +
          'the shifts, how many were recorded attended or no_show or not at all, their scheduled length in real minutes (booked_minutes: ' +
          'an autumn night counts its extra hour) and the minutes of their attended records (attended_minutes). teams (the named teams ' +
          'only, not their sub-teams), rotas and users narrow it; ids the caller does not manage are simply left out. Groups come ordered ' +
          'by name (case-insensitive), then id; a group with no counted shift is left out. start_date / end_date default to the first and ' +
          'last day of the current month in the organisation’s zone (when only one is given and that would make a refused range, the given ' +
          `date’s month gives the other); end_date before start_date or more than ${MAX_REPORT_DAYS} days after it is a 422 naming end_date. ` +
          `With Accept: text/csv the same rows as CSV (RFC 4180), header ${HOURS_CSV_COLUMNS.join(',')}; a name starting with =, +, - or @ ` +
          '(even one that reads as a number, -12) gets a leading apostrophe. An Accept naming neither JSON nor CSV is a 406.',
      }),
      ApiQuery({
        name: 'start_date',
        required: false,
        schema: { type: 'string', format: 'date' },
        description: 'First date (default: the first of the current month)',
      }),
      ApiQuery({
        name: 'end_date',
        required: false,
        schema: { type: 'string', format: 'date' },
        description: `Last date, inclusive (default: the last of the current month); at most ${MAX_REPORT_DAYS} days after start_date`,
      }),
      ApiIdListQuery('teams', 'Comma-separated team ids: only rotas of these teams (not their sub-teams)'),
      ApiIdListQuery('rotas', 'Comma-separated rota ids: only these rotas'),
      ApiIdListQuery('users', 'Comma-separated user ids: only these users’ shifts'),
      ApiQuery({
        name: 'group_by',
        required: false,
        schema: { type: 'string', enum: [...GROUPINGS], default: 'user' },
        description:
          'One row per user (display name), team or rota; a shift’s team is its rota’s, whatever teams its volunteer holds roles in',
      }),
      ApiOkResponse({
        description: 'The report, as JSON or (Accept: text/csv) as CSV',
        content: {
          'application/json': { schema: { $ref: getSchemaPath(VolunteerHoursReportDto) } },
          'text/csv': { schema: { type: 'string', description: `Columns: ${HOURS_CSV_COLUMNS.join(', ')}` } },
        },
      }),
      ApiErrors(400, 401, 403, 406, 422),
    ),
};
