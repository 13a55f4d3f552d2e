import { Body, Controller, Get, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, OrganisationFactsReader } from '#app/identity';
import { APP_CONFIG, type AppConfig, type Paginated, paginate, pathId, ValidationError } from '#app/platform';
import type { RecurrenceInput } from '../domain/series-dates.js';
import { BookShiftsCommand, type ShiftRequest } from '../booking/book-shifts.command.js';
import { RecordAttendanceCommand } from '../booking/record-attendance.command.js';
import { ShiftQueries } from '../booking/shift.queries.js';
import { RotasPolicy } from '../rotas.policy.js';
import { AttendanceBody, CreateShiftItem, CreateShiftsBody, ShiftListQuery, shiftListRange } from './shift.dto.js';
import { ShiftDto } from './shift.responses.js';
import { ShiftsDocs } from './shifts.openapi.js';

const SINGLE_FIELDS = [
  'start_datetime',
  'end_datetime',
  'user',
  'rota',
  'recurrence_pattern',
  'ignore_on_hold',
  'confirm_role_restriction',
] as const;

const requestOf = (item: CreateShiftItem | CreateShiftsBody): ShiftRequest => ({
  start_datetime: item.start_datetime!,
  end_datetime: item.end_datetime!,
  userId: item.user!.id,
  rotaId: item.rota!.id,
  recurrence: (item.recurrence_pattern ?? null) as RecurrenceInput | null,
  ignoreOnHold: item.ignore_on_hold ?? false,
  confirmRoleRestriction: item.confirm_role_restriction ?? false,
});

/** Shifts: book (one or a bulk), list, get, record attendance. Changes and cancellations: shift-changes.controller.ts. */
@ShiftsDocs.controller()
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
  @ShiftsDocs.list()
  async list(
    @CurrentCaller() caller: Caller,
    @Query() query: ShiftListQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ShiftDto>> {
    const [facts, reach] = await Promise.all([this.organisations.of(caller), this.policy.reach(caller)]);
    const { teams, rotas, users, standIn, page } = query;
    const filters = { teams, rotas, users, standIn, ...shiftListRange(query, facts.today) };
    const { items, total } = await this.shifts.list(caller, reach, filters, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }

  @Post()
  @ShiftsDocs.create()
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
      return { data: await this.booked(caller, new BookShiftsCommand(caller, body.shifts.map(requestOf), true)) };
    }
    return { data: (await this.booked(caller, new BookShiftsCommand(caller, [requestOf(body)], false)))[0]! };
  }

  /** The booking's Shift records in the body's order, built from the events it appended (not read back). */
  private async booked(caller: Caller, command: BookShiftsCommand): Promise<ShiftDto[]> {
    const { ids, events } = await this.commands.execute(command);
    const views = new Map((await this.shifts.viewsOfBooked(caller, events)).map((v) => [v.id, v]));
    return ids.map((id) => views.get(id)!);
  }

  @Get(':id')
  @ShiftsDocs.get()
  async get(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<{ data: ShiftDto }> {
    const id = pathId(raw, 'Shift');
    const row = await this.shifts.seen(caller, await this.policy.reach(caller), id);
    return { data: (await this.shifts.views(caller, [row.id]))[0]! };
  }

  @Put(':id/attendance')
  @ShiftsDocs.attendance()
  async attendance(
    @CurrentCaller() caller: Caller,
    @Param('id') raw: string,
    @Body() body: AttendanceBody,
  ): Promise<{ data: ShiftDto }> {
    const id = pathId(raw, 'Shift');
    await this.commands.execute(
      new RecordAttendanceCommand(caller, id, {
        status: body.status,
        start_datetime: body.start_datetime,
        end_datetime: body.end_datetime,
        note: body.note ?? null,
      }),
    );
    return { data: (await this.shifts.views(caller, [id]))[0]! };
  }
}
