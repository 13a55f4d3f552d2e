import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiExtraModels, ApiNoContentResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import {
  ApiBooleanQuery,
  ApiData,
  ApiErrors,
  ApiIdListQuery,
  ApiIdParam,
  ApiIncludeQuery,
  calendarDateMessage,
  IdRef,
  isCalendarDate,
  parseBooleanQuery,
  parseListQuery,
  pathId,
  ValidationError,
} from '#app/platform';
import { CreateRotasCommand } from '../rota/create-rota.command.js';
import { type DateRange, ROTA_INCLUDES, ROTA_SORTS, RotaQueries } from '../rota/rota.queries.js';
import { UpdateRotaCommand } from '../rota/update-rota.command.js';
import { UpdateTimeslotsCommand } from '../rota/update-timeslots.command.js';
import { ROTA_PERMISSIONS } from '../rotas.policy.js';
import { CreateRotaBody, named, UpdateRotaBody, UpdateTimeslotsBody } from './rota.dto.js';
import { RotaDto, RotaSummaryDto, RotaTeamEntryDto } from './rota.responses.js';

const listSpec = {
  sorts: ROTA_SORTS,
  defaultSort: 'team_name' as const,
  defaultDirection: 'desc' as const,
  includes: ROTA_INCLUDES,
};

/** `teams=3,7`: comma-separated ids (a 422 naming the parameter otherwise). */
export function idList(query: Record<string, unknown>, name: string): number[] | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const parts = String(raw)
    .split(',')
    .map((s) => s.trim());
  if (parts.some((s) => !/^\d{1,15}$/.test(s) || Number(s) < 1))
    throw new ValidationError({ [name]: [`The ${name} field must be comma-separated ids.`] });
  return parts.map(Number);
}

/**
 * `active_on` and `active_between` of rotas by team: the range a rota must be active on a day of
 * (both ends inclusive), null for no filter, or 'none' when both are given and active_on lies
 * outside active_between (no rota can match both).
 */
export function activeRange(query: Record<string, unknown>): DateRange | null | 'none' {
  let on: string | undefined;
  let between: DateRange | undefined;
  if (query.active_on !== undefined) {
    on = String(query.active_on);
    if (!isCalendarDate(on)) throw new ValidationError({ active_on: [calendarDateMessage('active_on')] });
  }
  if (query.active_between !== undefined) {
    const parts = String(query.active_between)
      .split(',')
      .map((s) => s.trim());
    if (parts.length !== 2 || !parts.every((p) => isCalendarDate(p))) {
      throw new ValidationError({
        active_between: ['The active_between field must be two dates joined by a comma (YYYY-MM-DD,YYYY-MM-DD).'],
      });
    }
    const [from, to] = parts as [string, string];
    if (to < from)
      throw new ValidationError({
        active_between: ['The active_between field’s second date must not be before its first.'],
      });
    between = { from, to };
  }
  if (on === undefined) return between ?? null;
  if (between && (on < between.from || on > between.to)) return 'none';
  return { from: on, to: on };
}

const lower = (colour: string | null | undefined) => (typeof colour === 'string' ? colour.toLowerCase() : colour);

const ARCHIVED_409 =
  'The rota is archived (an archived rota refuses every change), or a concurrent change of the rota won the race.';

/** Rota administration (manage-rotas) and the rota list (everyone, for the rotas they see). */
@ApiTags('rotas')
@ApiBearerAuth()
@ApiExtraModels(IdRef)
@Controller('api/rotas')
export class RotasController {
  constructor(
    private readonly commands: CommandBus,
    private readonly rotas: RotaQueries,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List rotas',
    description:
      'Permission: none: the rotas the caller sees (a role in the rota’s team or a team above it), for everyone; `{ data: [...] }`, not paged. ' +
      'archived: false (default) lists the rotas that are not archived, true only the archived ones. teams: comma-separated team ids; teams the caller ' +
      'does not see are simply left out. s: rota_title, start_date, end_date (an open-ended rota sorts after every date), team_name (default); ' +
      'o: asc or desc (default desc; a and d are read too); names compare case-insensitively; ties by id in the same direction. include: team, ' +
      'permissions (for the caller), contacts (in the order added; can_manage through any permission the caller holds).',
  })
  @ApiIncludeQuery(ROTA_INCLUDES)
  @ApiBooleanQuery('archived', 'true: only archived rotas; false or absent: only rotas that are not archived')
  @ApiIdListQuery('teams', 'Comma-separated team ids: only rotas of these teams')
  @ApiQuery({
    name: 's',
    required: false,
    description: 'Sort column',
    schema: { type: 'string', enum: [...ROTA_SORTS], default: 'team_name' },
  })
  @ApiQuery({
    name: 'o',
    required: false,
    description: 'Direction: asc or desc (a and d are read too)',
    schema: { type: 'string', enum: ['asc', 'desc', 'a', 'd'], default: 'desc' },
  })
  @ApiData(RotaDto, { isArray: true, description: 'The rotas, sorted' })
  @ApiErrors(400, 401, 406, 422)
  async list(@CurrentCaller() caller: Caller, @Query() query: Record<string, unknown>): Promise<{ data: RotaDto[] }> {
    const q = parseListQuery({ s: query.s, o: query.o, include: query.include }, listSpec);
    const archived = parseBooleanQuery(query, 'archived') ?? false;
    return {
      data: await this.rotas.list(
        caller,
        { archived, teams: idList(query, 'teams') },
        { sort: q.sort!, direction: q.direction, include: q.include },
      ),
    };
  }

  @Post()
  @RequirePermission(ROTA_PERMISSIONS.manage)
  @ApiOperation({
    summary: 'Create rota',
    description:
      'Permission: manage-rotas over each team of `team` (a team of the organisation outside the caller’s reach, unknown, of another organisation or ' +
      'listed twice is a 422 naming team.N.id, or team.N for a bare id). One rota per team, answered in the order of `team`, all or nothing. ' +
      'Defaults: self_manage false, allow_same_day_add true, allow_same_day_cancel and allow_same_day_edit false, restricted_by_role false, ' +
      'require_full_timeslot false, colour from a fixed palette (by rota id). end_date null or not before start_date (422 end_date); the pattern ' +
      'one of the organisation’s and not archived (422 pattern_id); role_profiles required when restricted_by_role (422 role_profiles) and each the ' +
      'organisation’s (422 role_profiles.N); contacts users of the organisation (422 contacts.N). The pattern’s timeslots are copied with new ids. ' +
      'One rota per team per day: a team rota running on start_date (not archived) ends the day before, in the same change; a team rota (not ' +
      'archived) starting on or after start_date is a clash (422 naming team). Two creates for one team at once: one of them gets the 409. ' +
      'The answer is each rota without includes.',
  })
  @ApiData(RotaDto, { status: 201, isArray: true, description: 'The new rotas, one per team, in the order of `team`' })
  @ApiErrors(400, 401, 403, 406, 409, 413, 422, {
    409: 'A concurrent create for a team of the body (or change of a rota it ends) won the race.',
  })
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
  @ApiOperation({
    summary: 'Update rota',
    description:
      'Permission: manage-rotas over the rota’s team (an unknown rota or another organisation’s is a 404; one the caller does not see or manage a 403). ' +
      'Absent or null leaves a field as it is. contacts replaces the contact set ([] removes every contact). Additions: restricted_by_role and ' +
      'require_full_timeslot; a rota restricted by role after the change needs role profiles (422 role_profiles). The end date changes through the bulk ' +
      'end_date action and the timeslots through PUT /api/rotas/{id}/timeslots (a start_date or end_date here is a 422). An archived rota refuses every ' +
      'change (409). Nothing different: nothing recorded.',
  })
  @ApiIdParam('id', 'Rota id')
  @ApiData(RotaSummaryDto, { description: 'The rota after the change' })
  @ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, { 409: ARCHIVED_409 })
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
  @ApiOperation({
    summary: 'Update timeslots',
    description:
      'Permission: manage-rotas over the rota’s team (an unknown rota or another organisation’s is a 404; one the caller does not see or manage a 403). ' +
      'Writes the weekdays’ timeslots over [from, to]: from today (the organisation’s zone) or later (422 from); to not before from (422 to); to ' +
      'absent or null: from `from` on, every later version replaced; to given: what stood after `to` stands again, with its timeslot ids. A weekday ' +
      'omitted, null or empty has no timeslots: the rota is closed that weekday in the range. Each timeslot gets a new id. Timeslot errors are keyed ' +
      'weekdays.<day>.<n>.<field>. An archived rota refuses it (409). The range may reach outside the rota’s own dates; only active days count.',
  })
  @ApiIdParam('id', 'Rota id')
  @ApiNoContentResponse({ description: 'Written' })
  @ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, { 409: ARCHIVED_409 })
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
@ApiTags('rotas')
@ApiBearerAuth()
@Controller('api/rota')
export class RotaTeamsController {
  constructor(private readonly rotas: RotaQueries) {}

  @Get('teams')
  @ApiOperation({
    summary: 'Rotas by team',
    description:
      'Permission: none: the teams the caller sees (a role in the team or a team above it) that have a rota, not archived, active (start to end ' +
      'inclusive) on active_on, or on at least one day of active_between (both ends inclusive), or any such rota when neither is given; both given: ' +
      'active on active_on, which must lie in active_between. Each team with those rotas only. Teams by name (case-insensitive), then id; each ' +
      'team’s rotas by name, then id. No rota status. A malformed active_on or active_between (or its second date before its first) is a 422.',
  })
  @ApiQuery({
    name: 'active_on',
    required: false,
    description: 'Only rotas active on this date',
    schema: { type: 'string', format: 'date' },
  })
  @ApiQuery({
    name: 'active_between',
    required: false,
    description:
      'Two dates joined by a comma, YYYY-MM-DD,YYYY-MM-DD (both inclusive): only rotas active on at least one day of it',
    schema: {
      type: 'string',
      pattern: '^\\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\\s*,\\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\\s*$',
      example: '2027-01-01,2027-01-31',
    },
  })
  @ApiData(RotaTeamEntryDto, { isArray: true, description: 'The teams, each with its matching rotas' })
  @ApiErrors(400, 401, 406, 422)
  async byTeam(
    @CurrentCaller() caller: Caller,
    @Query() query: Record<string, unknown>,
  ): Promise<{ data: RotaTeamEntryDto[] }> {
    const range = activeRange(query);
    return { data: range === 'none' ? [] : await this.rotas.byTeam(caller, range) };
  }
}
