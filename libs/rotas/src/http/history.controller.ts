import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, HistoryEntryDto, UserBaseDto } from '#app/identity';
import {
  ApiErrors,
  ApiIdParam,
  ApiListQuery,
  ApiPaginated,
  APP_CONFIG,
  type AppConfig,
  type Paginated,
  paginate,
  parseListQuery,
  pathId,
} from '#app/platform';
import { RotasHistoryQueries } from '../history/history.queries.js';

const ENTRIES =
  'Its events, oldest first, in the pagination envelope: at (ISO 8601), actor (a UserBase; null for the system), action (the event’s name) and changes ' +
  '(the fields it set, with the record’s field names and output shapes).';

/** The history of a shift and of a rota (rotas.md "History"): readable by whoever may read the record. */
@ApiBearerAuth()
@ApiExtraModels(UserBaseDto)
@Controller('api')
export class RotasHistoryController {
  constructor(
    private readonly histories: RotasHistoryQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('rota/shifts/:id/history')
  @ApiTags('shifts')
  @ApiOperation({
    summary: 'Shift history',
    description:
      `Addition. Permission: as GET /api/rota/shifts/{id}: a booked shift on a rota the caller sees (403 otherwise); another organisation’s, unknown or cancelled: 404. ${ENTRIES} ` +
      'Actions: ShiftBooked (user, rota_id, date, start_time, start_datetime, end_time, end_datetime, recurrence_pattern as { id } or null), ShiftMoved ' +
      '(the new date and times), ShiftSeriesChanged (recurrence_pattern), ShiftCancelled (reason).',
  })
  @ApiIdParam('id', 'Shift id')
  @ApiListQuery()
  @ApiPaginated(HistoryEntryDto)
  @ApiErrors(400, 401, 403, 404, 406, 422)
  async shift(
    @CurrentCaller() caller: Caller,
    @Param('id') raw: string,
    @Query() query: Record<string, unknown>,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<HistoryEntryDto>> {
    const id = pathId(raw, 'Shift');
    const page = parseListQuery(query);
    const { items, total } = await this.histories.shift(caller, id, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }

  @Get('rotas/:id/history')
  @ApiTags('rotas')
  @ApiOperation({
    summary: 'Rota history',
    description:
      `Addition. Permission: none beyond seeing the rota (a role in its team or a team above it; 403 otherwise); another organisation’s or unknown: 404. ${ENTRIES} ` +
      'Actions: RotaCreated, RotaChanged (the settings changed), RotaTimeslotsChanged and RotaPatternReplaced (from, to, timeslots), RotaEnded (end), ' +
      'RotaClosed and RotaReopened (dates), RotaArchived, RotaContactAdded and RotaContactRemoved (contact, as the contacts list shows it).',
  })
  @ApiIdParam('id', 'Rota id')
  @ApiListQuery()
  @ApiPaginated(HistoryEntryDto)
  @ApiErrors(400, 401, 403, 404, 406, 422)
  async rota(
    @CurrentCaller() caller: Caller,
    @Param('id') raw: string,
    @Query() query: Record<string, unknown>,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<HistoryEntryDto>> {
    const id = pathId(raw, 'Rota');
    const page = parseListQuery(query);
    const { items, total } = await this.histories.rota(caller, id, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }
}
