import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type Caller, CurrentCaller, OrganisationFactsReader } from '#app/identity';
import {
  addCalendarMonths,
  ApiBooleanQuery,
  ApiErrors,
  ApiIdListQuery,
  calendarDateMessage,
  isCalendarDate,
  parseBooleanQuery,
  ValidationError,
} from '#app/platform';
import { addDays, dayNumber } from '../domain/calendar-dates.js';
import { RotasPolicy } from '../rotas.policy.js';
import { MAX_ROTAS } from '../views/day-view.js';
import { MAX_DETAILED_SHIFTS } from '../views/period-view.js';
import { RotaViewQueries } from '../views/rota-views.queries.js';
import { idList } from './rotas.controller.js';
import { DayViewDto, PeriodViewDto } from './rota-views.responses.js';

/** The longest period: end_date − start_date at most 91 days (92 dates). */
const MAX_PERIOD_DAYS = 91;
const LISTS = ['basic', 'detailed'] as const;

const firstOfMonth = (date: string) => `${date.slice(0, 8)}01`;
const lastOfMonth = (date: string) => addDays(addCalendarMonths(firstOfMonth(date), 1), -1);

/**
 * `start_date` / `end_date` of the period view. Absent, each takes the spec's default: the first
 * and the last day of the current month in the organisation's zone. When one is given and that
 * default would make a range the view refuses (an end before the start, or more than 91 days), the
 * given date's own month fills the other instead: a request that names one valid date is answered.
 * Both given: an end before the start, or more than 91 days after it, is a 422 naming end_date.
 */
function periodRange(query: Record<string, unknown>, today: string): { from: string; to: string } {
  const malformed = ['start_date', 'end_date'].filter(
    (name) => query[name] !== undefined && !isCalendarDate(query[name]),
  );
  if (malformed.length)
    throw new ValidationError(Object.fromEntries(malformed.map((name) => [name, [calendarDateMessage(name)]])));
  const [start, end] = [query.start_date as string | undefined, query.end_date as string | undefined];
  const valid = (from: string, to: string) => to >= from && dayNumber(to) - dayNumber(from) <= MAX_PERIOD_DAYS;
  let [from, to] = [start ?? firstOfMonth(today), end ?? lastOfMonth(today)];
  if (start === undefined && end !== undefined && !valid(from, to)) from = firstOfMonth(end);
  if (end === undefined && start !== undefined && !valid(from, to)) to = lastOfMonth(start);
  if (to < from) throw new ValidationError({ end_date: ['The end_date must not be before the start_date.'] });
  if (dayNumber(to) - dayNumber(from) > MAX_PERIOD_DAYS)
    throw new ValidationError({
      end_date: [`The end_date must be at most ${MAX_PERIOD_DAYS} days after the start_date.`],
    });
  return { from, to };
}

function listOf(query: Record<string, unknown>): 'basic' | 'detailed' {
  const list = query.list ?? 'basic';
  if (!(LISTS as readonly unknown[]).includes(list))
    throw new ValidationError({ list: ['The list field must be basic or detailed.'] });
  return list as 'basic' | 'detailed';
}

const VISIBILITY =
  'Permission: none: the rotas of teams the caller sees (a role in the team or a team above it); teams and rotas filters naming others are simply ' +
  'left out. A rota matches when it is not archived, passes the filters and is active on a day asked for; rotas come ordered by team name, rota name ' +
  `(case-insensitive), then id, and past ${MAX_ROTAS} only the first ${MAX_ROTAS} with truncated true. Statuses (rotas.md "Views and statuses"): each ` +
  'timeslot is cut into hours at whole wall-clock hours from its start; shift_count is the fewest volunteers on duty at any moment of the hour, required ' +
  'max(0, min − shift_count), status −2 below-minimum, −1 below-ideal, 0 ideal, 1 full, 2 over-maximum; a timeslot, a rota-day and a date take the ' +
  'lowest status of their parts; a closed rota-day has closed true, no hours and status 0.';

/** The rota views: period (basic and detailed) and day. */
@ApiTags('rota views')
@ApiBearerAuth()
@Controller('api/rota')
export class RotaViewsController {
  constructor(
    private readonly views: RotaViewQueries,
    private readonly policy: RotasPolicy,
    private readonly organisations: OrganisationFactsReader,
  ) {}

  @Get('period')
  @ApiOperation({
    summary: 'Rota period view',
    description:
      `${VISIBILITY} One Date entry a date: its status is the lowest of the open rota-days, closed when every returned rota is closed or inactive. ` +
      'basic: hours and shift_patterns empty. detailed: each Date entry also carries rotas (the Day-view rota records of the rotas active that date) ' +
      `and lists every rota’s hours and timeslots with a rota_id; past ${MAX_DETAILED_SHIFTS} shifts the shift arrays are empty and truncated is true. ` +
      'own_shift only with user_flags=true. data_ready is false while a returned rota has a repeating shift the worker is still booking. ' +
      'start_date / end_date default to the first and last day of the current month in the organisation’s zone; when only one is given and that default would make a refused range, the given date’s month gives the other. end_date before ' +
      `start_date or more than ${MAX_PERIOD_DAYS} days after it is a 422 naming end_date.`,
  })
  @ApiQuery({
    name: 'start_date',
    required: false,
    schema: { type: 'string', format: 'date' },
    description:
      'First date (default: the first of the current month; of end_date’s month when the current month’s would be refused)',
  })
  @ApiQuery({
    name: 'end_date',
    required: false,
    schema: { type: 'string', format: 'date' },
    description: `Last date, inclusive (default: the last of the current month; of start_date’s month when the current month’s would be refused); at most ${MAX_PERIOD_DAYS} days after start_date`,
  })
  @ApiQuery({
    name: 'list',
    required: false,
    schema: { type: 'string', enum: [...LISTS], default: 'basic' },
    description: 'basic: a status per date; detailed: also each rota’s hours, timeslots and shifts',
  })
  @ApiBooleanQuery('user_flags', 'Fill own_shift (default false)')
  @ApiIdListQuery('teams', 'Comma-separated team ids: only rotas of these teams')
  @ApiIdListQuery('rotas', 'Comma-separated rota ids: only these rotas')
  @ApiOkResponse({ type: PeriodViewDto })
  @ApiErrors(400, 401, 406, 422)
  async period(@CurrentCaller() caller: Caller, @Query() query: Record<string, unknown>): Promise<PeriodViewDto> {
    const [facts, reach] = await Promise.all([this.organisations.of(caller), this.policy.reach(caller)]);
    const { from, to } = periodRange(query, facts.today);
    const request = {
      from,
      to,
      detailed: listOf(query) === 'detailed',
      userFlags: parseBooleanQuery(query, 'user_flags') ?? false,
      teams: idList(query, 'teams'),
      rotas: idList(query, 'rotas'),
    };
    return this.views.period(caller, reach, facts, request);
  }

  @Get('day/:date')
  @ApiOperation({
    summary: 'Rota day view',
    description:
      `${VISIBILITY} start_time / end_time: the earliest timeslot start and latest timeslot end of the returned rotas that day, HH:MM in UTC (null ` +
      'when none). Each rota’s shifts carry the caller’s permissions; own_shifts lists the caller’s shifts (own_shift is filled only with ' +
      'user_flags=true). users (organisations with the rota_v2 feature only, else a 422 naming users): only rotas with a shift of those users that day ' +
      'are returned, and only those shifts are listed (own_shifts included); hours, statuses and total_users still count every shift. A date that is ' +
      'not YYYY-MM-DD is a 422 naming date (the path names a day, not a record, so a malformed one is bad input rather than an unknown id).',
  })
  @ApiParam({
    name: 'date',
    required: true,
    schema: { type: 'string', format: 'date' },
    description: 'The local date (YYYY-MM-DD)',
  })
  @ApiBooleanQuery('user_flags', 'Fill own_shift (default false)')
  @ApiIdListQuery('teams', 'Comma-separated team ids: only rotas of these teams')
  @ApiIdListQuery('rotas', 'Comma-separated rota ids: only these rotas')
  @ApiIdListQuery(
    'users',
    'Comma-separated user ids: only rotas with a shift of these users that day, and only their shifts (needs the rota_v2 feature)',
  )
  @ApiOkResponse({ type: DayViewDto })
  @ApiErrors(400, 401, 406, 414, 422)
  async day(
    @CurrentCaller() caller: Caller,
    @Param('date') date: string,
    @Query() query: Record<string, unknown>,
  ): Promise<DayViewDto> {
    if (!isCalendarDate(date)) throw new ValidationError({ date: [calendarDateMessage('date')] });
    const [facts, reach] = await Promise.all([this.organisations.of(caller), this.policy.reach(caller)]);
    const userFlags = parseBooleanQuery(query, 'user_flags') ?? false;
    const [teams, rotas, users] = [idList(query, 'teams'), idList(query, 'rotas'), idList(query, 'users')];
    if (users && !facts.features.has('rota_v2'))
      throw new ValidationError({ users: ['The users filter needs the second rota version (the rota_v2 feature).'] });
    return this.views.day(caller, reach, facts, { date, userFlags, teams, rotas, users });
  }
}
