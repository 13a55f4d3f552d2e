import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiBooleanQuery, ApiErrors, ApiIdListQuery, ApiDocs } from '#app/platform';
import { MAX_ROTAS } from '../views/day-view.js';
import { MAX_DETAILED_SHIFTS } from '../views/period-view.js';
import { LISTS, MAX_PERIOD_DAYS } from './rota-views.dto.js';
import { DayViewDto, PeriodViewDto } from './rota-views.responses.js';

const VISIBILITY =
  'Permission: none: the rotas of teams the caller sees (a role in the team or a team above it); teams and rotas filters naming others are simply ' +
  'left out. A rota matches when it is not archived, passes the filters and is active on a day asked for; rotas come ordered by team name, rota name ' +
  `(case-insensitive), then id, and past ${MAX_ROTAS} only the first ${MAX_ROTAS} with truncated true. ` +
  'Statuses (docs/rota-domain.md#statuses-and-views): each ' +
  'timeslot is cut into hours at whole wall-clock hours from its start; shift_count is the fewest volunteers on duty at any moment of the hour, required ' +
  'max(0, min − shift_count), status −2 below-minimum, −1 below-ideal, 0 ideal, 1 full, 2 over-maximum; a timeslot, a rota-day and a date take the ' +
  'lowest status of their parts; a closed rota-day has closed true, no hours and status 0.';

/** What the OpenAPI document says of RotaViewsController: one composed decorator per route. */
export const RotaViewsDocs = {
  controller: () => ApiDocs(ApiTags('rota views'), ApiBearerAuth()),
  period: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getRotaPeriod',
        summary: 'Rota period view',
        description:
          `${VISIBILITY} One Date entry a date: its status is the lowest of the open rota-days, closed when every returned rota is closed or inactive. ` +
          'basic: hours and shift_patterns empty. detailed: each Date entry also carries rotas (the Day-view rota records of the rotas active that date) ' +
          `and lists every rota’s hours and timeslots with a rota_id; past ${MAX_DETAILED_SHIFTS} shifts the shift arrays are empty and truncated is true. ` +
          'own_shift only with user_flags=true. data_ready is false while a returned rota has a repeating shift the worker is still booking. ' +
          'start_date / end_date default to the first and last day of the current month in the organisation’s ' +
          'zone; when only one is given and that default would make a refused range, the given date’s month ' +
          'gives the other. end_date before ' +
          `start_date or more than ${MAX_PERIOD_DAYS} days after it is a 422 naming end_date.`,
      }),
      ApiQuery({
        name: 'start_date',
        required: false,
        schema: { type: 'string', format: 'date' },
        description:
          'First date (default: the first of the current month; of end_date’s month when the current month’s would be refused)',
      }),
      ApiQuery({
        name: 'end_date',
        required: false,
        schema: { type: 'string', format: 'date' },
        description:
          'Last date, inclusive (default: the last of the current month; of start_date’s month when the ' +
          `current month’s would be refused); at most ${MAX_PERIOD_DAYS} days after start_date`,
      }),
      ApiQuery({
        name: 'list',
        required: false,
        schema: { type: 'string', enum: [...LISTS], default: 'basic' },
        description: 'basic: a status per date; detailed: also each rota’s hours, timeslots and shifts',
      }),
      ApiBooleanQuery('user_flags', 'Fill own_shift (default false)'),
      ApiIdListQuery('teams', 'Comma-separated team ids: only rotas of these teams'),
      ApiIdListQuery('rotas', 'Comma-separated rota ids: only these rotas'),
      ApiOkResponse({ type: PeriodViewDto }),
      ApiErrors(400, 401, 406, 422),
    ),
  day: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getRotaDay',
        summary: 'Rota day view',
        description:
          `${VISIBILITY} start_time / end_time: the earliest timeslot start and latest timeslot end of the returned rotas that day, HH:MM in UTC (null ` +
          'when none). Each rota’s shifts carry the caller’s permissions; own_shifts lists the caller’s shifts (own_shift is filled only with ' +
          'user_flags=true). users (organisations with the rota_v2 feature only, else a 422 naming users): only rotas with a shift of those users that day ' +
          'are returned, and only those shifts are listed (own_shifts included); hours, statuses and total_users still count every shift. A date that is ' +
          'not YYYY-MM-DD is a 422 naming date (the path names a day, not a record, so a malformed one is bad input rather than an unknown id).',
      }),
      ApiParam({
        name: 'date',
        required: true,
        schema: { type: 'string', format: 'date' },
        description: 'The local date (YYYY-MM-DD)',
      }),
      ApiBooleanQuery('user_flags', 'Fill own_shift (default false)'),
      ApiIdListQuery('teams', 'Comma-separated team ids: only rotas of these teams'),
      ApiIdListQuery('rotas', 'Comma-separated rota ids: only these rotas'),
      ApiIdListQuery(
        'users',
        'Comma-separated user ids: only rotas with a shift of these users that day, and only their shifts (needs the rota_v2 feature)',
      ),
      ApiOkResponse({ type: DayViewDto }),
      ApiErrors(400, 401, 406, 414, 422),
    ),
};
