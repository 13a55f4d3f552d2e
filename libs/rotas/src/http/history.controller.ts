import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, HistoryEntryDto } from '#app/identity';
import { APP_CONFIG, type AppConfig, PageQuery, type Paginated, paginate, pathId } from '#app/platform';
import { RotasHistoryQueries } from '../history/history.queries.js';
import { RotasHistoryDocs } from './history.openapi.js';

/** The history of a shift and of a rota (docs/rota-domain.md#history): readable by whoever may read the record. */
@RotasHistoryDocs.controller()
@Controller('api')
export class RotasHistoryController {
  constructor(
    private readonly histories: RotasHistoryQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('rota/shifts/:id/history')
  @RotasHistoryDocs.shift()
  async shift(
    @CurrentCaller() caller: Caller,
    @Param('id') raw: string,
    @Query() page: PageQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<HistoryEntryDto>> {
    const id = pathId(raw, 'Shift');
    const { items, total } = await this.histories.shift(caller, id, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }

  @Get('rotas/:id/history')
  @RotasHistoryDocs.rota()
  async rota(
    @CurrentCaller() caller: Caller,
    @Param('id') raw: string,
    @Query() page: PageQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<HistoryEntryDto>> {
    const id = pathId(raw, 'Rota');
    const { items, total } = await this.histories.rota(caller, id, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }
}
