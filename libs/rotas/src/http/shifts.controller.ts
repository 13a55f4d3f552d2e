import { Body, Controller, Get, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiBody,
  ApiExtraModels,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, OrganisationFactsReader } from '#app/identity';
import {
  ApiData,
  ApiErrors,
  ApiIdListQuery,
  ApiIdParam,
  ApiListQuery,
  ApiPaginated,
  APP_CONFIG,
  type AppConfig,
  calendarDateMessage,
  type FieldErrors,
  IdRef,
  isCalendarDate,
  type Paginated,
  paginate,
  parseListQuery,
  pathId,
  ValidationError,
} from '#app/platform';
import { addDays, dayNumber } from '../domain/calendar-dates.js';
import type { RecurrenceInput } from '../domain/series-dates.js';
import { BookShiftsCommand, type ShiftRequest } from '../shift/book-shifts.command.js';
import { ShiftQueries } from '../shift/shift.queries.js';
import { RotasPolicy } from '../rotas.policy.js';
import { idList } from './rotas.controller.js';
import { CREATE_SHIFTS_BODY_SCHEMA, CreateShiftItem, CreateShiftsBody } from './shift.dto.js';
import { ShiftDto } from './shift.responses.js';

const SINGLE_FIELDS = [
  'start_datetime',
  'end_datetime',
  'user',
  'rota',
  'recurrence_pattern',
  'ignore_on_hold',
  'confirm_role_restriction',
] as const;

export const BOOKING_RULES =
  'The booking rules of rotas.md, checked in this order, each failure a 422 naming the field: 1 the rota is active that date and not closed (rota); ' +
  '2 the shift lies inside one timeslot of that date, or covers it exactly when require_full_timeslot (start_datetime); 3 the user belongs to the ' +
  'organisation and sees the rota (user); 4 the user is not on hold, unless ignore_on_hold and the caller is a manager (user); 5 on a restricted_by_role ' +
  'rota the user holds an allowed role profile, unless confirm_role_restriction and the caller is a manager (user); 6 the user has no other shift ' +
  'overlapping it on any rota (start_datetime); 7 a volunteer booking themselves keeps the timeslot at or under max at every moment (start_datetime); ' +
  '8 a volunteer acting on their own shift: not in the past, on today’s date only with the rota’s allow_same_day_* flag, an overnight shift never on ' +
  'its start date (start_datetime). Managers (manage-rotas or add-user-shifts over the rota’s team) are not bound by 7 and 8. Before the rules: a rota ' +
  'of another organisation or unknown is a 404; one the caller does not see a 403; another user’s shift without being a manager a 403; one’s own on a ' +
  'rota without self_manage, unless a manager, a 403. Concurrent bookings are serialised: the loser of the last place, or of an overlap, gets the 422.';

/** `start_date` / `end_date` of the list: local dates, the end not before the start, at most 365 days apart. */
function listRange(query: Record<string, unknown>, today: string): { startDate: string; endDate: string } {
  const errors: FieldErrors = {};
  const read = (name: string) => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (!isCalendarDate(value)) errors[name] = [calendarDateMessage(name)];
    return String(value);
  };
  const start = read('start_date');
  const end = read('end_date');
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const startDate = start ?? today;
  const endDate = end ?? addDays(startDate, 31);
  if (endDate < startDate) throw new ValidationError({ end_date: ['The end_date must not be before the start_date.'] });
  if (dayNumber(endDate) - dayNumber(startDate) > 365)
    throw new ValidationError({ end_date: ['The end_date must be at most 365 days after the start_date.'] });
  return { startDate, endDate };
}

const requestOf = (item: CreateShiftItem | CreateShiftsBody): ShiftRequest => ({
  start_datetime: item.start_datetime!,
  end_datetime: item.end_datetime!,
  userId: item.user!.id,
  rotaId: item.rota!.id,
  recurrence: (item.recurrence_pattern ?? null) as RecurrenceInput | null,
  ignoreOnHold: item.ignore_on_hold ?? false,
  confirmRoleRestriction: item.confirm_role_restriction ?? false,
});

/** Shifts: book (one or a bulk), list, get. Changes and cancellations: shift-changes.controller.ts. */
@ApiTags('shifts')
@ApiBearerAuth()
@ApiExtraModels(IdRef, CreateShiftItem, ShiftDto)
@Controller('api/rota/shifts')
export class ShiftsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly shifts: ShiftQueries,
    private readonly policy: RotasPolicy,
    private readonly organisations: OrganisationFactsReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List shifts',
    description:
      'Permission: none: booked shifts on rotas the caller sees (teams and rotas outside it are simply left out), ordered by start then id. ' +
      'start_date (default today in the organisation’s zone) and end_date (default 31 days after start_date) are local dates, both inclusive, a shift ' +
      'belonging to the date it starts on; end_date before start_date or more than 365 days after it is a 422 naming end_date.',
  })
  @ApiListQuery()
  @ApiIdListQuery('teams', 'Comma-separated team ids')
  @ApiIdListQuery('rotas', 'Comma-separated rota ids')
  @ApiIdListQuery('users', 'Comma-separated user ids')
  @ApiQuery({
    name: 'start_date',
    required: false,
    schema: { type: 'string', format: 'date' },
    description: 'First local date (default today)',
  })
  @ApiQuery({
    name: 'end_date',
    required: false,
    schema: { type: 'string', format: 'date' },
    description: 'Last local date (default start_date + 31 days; at most 365 days after it)',
  })
  @ApiPaginated(ShiftDto)
  @ApiErrors(400, 401, 406, 422)
  async list(
    @CurrentCaller() caller: Caller,
    @Query() query: Record<string, unknown>,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ShiftDto>> {
    const page = parseListQuery({ page: query.page, per_page: query.per_page, limit: query.limit });
    const filters = { teams: idList(query, 'teams'), rotas: idList(query, 'rotas'), users: idList(query, 'users') };
    const [facts, reach] = await Promise.all([this.organisations.of(caller), this.policy.reach(caller)]);
    const { items, total } = await this.shifts.list(
      caller,
      reach,
      { ...filters, ...listRange(query, facts.today) },
      page,
    );
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }

  @Post()
  @ApiOperation({
    summary: 'Create shift (one, or a bulk)',
    description:
      'Permission: as the rules below. One shift (201 `{ data: Shift }`) or `{ shifts: [...] }` (1–100, all or nothing, 201 `{ data: [Shift, ...] }`; ' +
      'errors keyed shifts.N.field; shifts of one request must not overlap for one user, and they count towards the same timeslots). ' +
      `${BOOKING_RULES} With a recurrence_pattern, this shift is the first occurrence: the worker books the others up to six calendar months ahead ` +
      '(or the end_date), checked as for a manager, skipping those that cannot be booked (GET /api/rota/repeating-shifts/{id} lists them).',
  })
  @ApiBody({ schema: CREATE_SHIFTS_BODY_SCHEMA })
  @ApiResponse({
    status: 201,
    description: 'The booked shift; a bulk answers `{ data: [Shift, ...] }` in the order sent',
    schema: {
      type: 'object',
      required: ['data'],
      properties: {
        data: {
          oneOf: [{ $ref: getSchemaPath(ShiftDto) }, { type: 'array', items: { $ref: getSchemaPath(ShiftDto) } }],
        },
      },
    },
  })
  @ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, { 409: 'Concurrent bookings kept winning the race; retry.' })
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateShiftsBody,
  ): Promise<{ data: ShiftDto | ShiftDto[] }> {
    if (body.shifts) {
      const mixed = SINGLE_FIELDS.filter((f) => body[f] !== undefined);
      if (mixed.length)
        throw new ValidationError(
          Object.fromEntries(mixed.map((f) => [f, [`The ${f} field is not allowed beside shifts.`]])),
        );
      const ids = await this.commands.execute(new BookShiftsCommand(caller, body.shifts.map(requestOf), true));
      return { data: await this.shifts.views(caller, ids) };
    }
    const [id] = await this.commands.execute(new BookShiftsCommand(caller, [requestOf(body)], false));
    return { data: (await this.shifts.views(caller, [id!]))[0]! };
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Get shift',
    description:
      'Permission: none: a booked shift on a rota the caller sees (403 otherwise); another organisation’s, unknown or cancelled: 404.',
  })
  @ApiIdParam('id', 'Shift id')
  @ApiData(ShiftDto)
  @ApiErrors(401, 403, 404, 406)
  async get(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<{ data: ShiftDto }> {
    const id = pathId(raw, 'Shift');
    const row = await this.shifts.seen(caller, await this.policy.reach(caller), id);
    return { data: (await this.shifts.views(caller, [row.id]))[0]! };
  }
}
