import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import { pathId } from '#app/platform';
import { CreateRotasCommand } from '../rota/create-rota.command.js';
import { RotaQueries } from '../rota/rota.queries.js';
import { UpdateRotaCommand } from '../rota/update-rota.command.js';
import { UpdateTimeslotsCommand } from '../rota/update-timeslots.command.js';
import { ROTA_PERMISSIONS } from '../rotas.policy.js';
import {
  CreateRotaBody,
  named,
  RotaListQuery,
  RotasByTeamQuery,
  UpdateRotaBody,
  UpdateTimeslotsBody,
} from './rota.dto.js';
import { RotaDto, RotaSummaryDto, RotaTeamEntryDto } from './rota.responses.js';
import { RotasDocs, RotaTeamsDocs } from './rotas.openapi.js';

const lower = (colour: string | null | undefined) => (typeof colour === 'string' ? colour.toLowerCase() : colour);

/** Rota administration (manage-rotas) and the rota list (everyone, for the rotas they see). */
@RotasDocs.controller()
@Controller('api/rotas')
export class RotasController {
  constructor(
    private readonly commands: CommandBus,
    private readonly rotas: RotaQueries,
  ) {}

  @Get()
  @RotasDocs.list()
  async list(@CurrentCaller() caller: Caller, @Query() query: RotaListQuery): Promise<{ data: RotaDto[] }> {
    return { data: await this.rotas.list(caller, query.filters, query.order) };
  }

  @Post()
  @RequirePermission(ROTA_PERMISSIONS.manage)
  @RotasDocs.create()
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateRotaBody): Promise<{ data: RotaDto[] }> {
    const ids = await this.commands.execute(
      new CreateRotasCommand(caller, {
        teams: named(body.team, 'team'),
        name: body.name,
        startDate: body.start_date,
        endDate: body.end_date ?? null,
        patternId: body.pattern_id,
        colour: lower(body.colour),
        selfManage: body.self_manage,
        allowSameDayAdd: body.allow_same_day_add,
        allowSameDayCancel: body.allow_same_day_cancel,
        allowSameDayEdit: body.allow_same_day_edit,
        restrictedByRole: body.restricted_by_role,
        requireFullTimeslot: body.require_full_timeslot,
        roleProfiles: named(body.role_profiles, 'role_profiles'),
        contacts: named(body.contacts, 'contacts'),
      }),
    );
    return { data: await this.rotas.byIds(caller, ids) };
  }

  @Put(':id')
  @RequirePermission(ROTA_PERMISSIONS.manage)
  @RotasDocs.update()
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id') raw: string,
    @Body() body: UpdateRotaBody,
  ): Promise<{ data: RotaSummaryDto }> {
    const id = pathId(raw, 'Rota');
    await this.commands.execute(
      new UpdateRotaCommand(caller, id, {
        name: body.name,
        colour: lower(body.colour),
        selfManage: body.self_manage,
        allowSameDayAdd: body.allow_same_day_add,
        allowSameDayCancel: body.allow_same_day_cancel,
        allowSameDayEdit: body.allow_same_day_edit,
        restrictedByRole: body.restricted_by_role,
        requireFullTimeslot: body.require_full_timeslot,
        roleProfiles: named(body.role_profiles, 'role_profiles'),
        contacts: named(body.contacts, 'contacts'),
      }),
    );
    return { data: await this.rotas.summary(caller, id) };
  }

  @Put(':id/timeslots')
  @HttpCode(204)
  @RequirePermission(ROTA_PERMISSIONS.manage)
  @RotasDocs.timeslots()
  async timeslots(
    @CurrentCaller() caller: Caller,
    @Param('id') raw: string,
    @Body() body: UpdateTimeslotsBody,
  ): Promise<void> {
    await this.commands.execute(
      new UpdateTimeslotsCommand(caller, pathId(raw, 'Rota'), {
        from: body.from,
        to: body.to,
        weekdays: body.weekdays,
      }),
    );
  }
}

/** Rotas by team: for everyone, the teams they see. */
@RotaTeamsDocs.controller()
@Controller('api/rota')
export class RotaTeamsController {
  constructor(private readonly rotas: RotaQueries) {}

  @Get('teams')
  @RotaTeamsDocs.byTeam()
  async byTeam(
    @CurrentCaller() caller: Caller,
    @Query() query: RotasByTeamQuery,
  ): Promise<{ data: RotaTeamEntryDto[] }> {
    const { range } = query;
    return { data: range === 'none' ? [] : await this.rotas.byTeam(caller, range) };
  }
}
