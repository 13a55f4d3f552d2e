import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import { APP_CONFIG, type AppConfig, type Paginated, paginate, pathId } from '#app/platform';
import { ROTA_PERMISSIONS } from '../rotas.policy.js';
import { ArchiveShiftPatternCommand } from '../shift-pattern/archive-shift-pattern.command.js';
import { CreateShiftPatternCommand } from '../shift-pattern/create-shift-pattern.command.js';
import { ShiftPatternQueries } from '../shift-pattern/shift-pattern.queries.js';
import { CreateShiftPatternBody, ShiftPatternIncludeQuery, ShiftPatternListQuery } from './shift-pattern.dto.js';
import { ShiftPatternDto } from './shift-pattern.responses.js';
import { ShiftPatternsDocs } from './shift-patterns.openapi.js';

@ShiftPatternsDocs.controller()
@RequirePermission(ROTA_PERMISSIONS.manage)
@Controller('api/shift-patterns')
export class ShiftPatternsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly patterns: ShiftPatternQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ShiftPatternsDocs.list()
  async list(
    @CurrentCaller() caller: Caller,
    @Query() query: ShiftPatternListQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ShiftPatternDto>> {
    const { items, total } = await this.patterns.list(caller, query.filters, query.list);
    return paginate(items, total, query.list, this.config.http.publicUrl, req.url);
  }

  @Post()
  @ShiftPatternsDocs.create()
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateShiftPatternBody,
  ): Promise<{ data: ShiftPatternDto }> {
    const id = await this.commands.execute(new CreateShiftPatternCommand(caller, body));
    return { data: await this.patterns.get(caller, id, new Set(['pattern'])) };
  }

  @Get(':id')
  @ShiftPatternsDocs.get()
  async get(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Query() query: ShiftPatternIncludeQuery,
  ): Promise<{ data: ShiftPatternDto }> {
    return { data: await this.patterns.get(caller, pathId(id, 'Shift pattern'), query.include) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ShiftPatternsDocs.archive()
  async archive(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.commands.execute(new ArchiveShiftPatternCommand(caller, pathId(id, 'Shift pattern')));
  }
}
