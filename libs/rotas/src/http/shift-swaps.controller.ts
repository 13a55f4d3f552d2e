import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller } from '#app/identity';
import { APP_CONFIG, type AppConfig, type Paginated, paginate, pathId } from '#app/platform';
import { RotasPolicy } from '../rotas.policy.js';
import { AcceptSwapCommand } from '../swap/accept-swap.command.js';
import { AnswerSwapCommand } from '../swap/answer-swap.command.js';
import { ProposeSwapCommand } from '../swap/propose-swap.command.js';
import { ShiftSwapQueries } from '../swap/shift-swap.queries.js';
import { ProposeSwapBody, SwapListQuery } from './shift-swap.dto.js';
import { ShiftSwapDto } from './shift-swap.responses.js';
import { ShiftSwapsDocs } from './shift-swaps.openapi.js';

/** Shift swaps (docs/rota-domain.md#swaps): propose, list, get, accept, decline, withdraw. */
@ShiftSwapsDocs.controller()
@Controller('api/rota/shift-swaps')
export class ShiftSwapsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly swaps: ShiftSwapQueries,
    private readonly policy: RotasPolicy,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ShiftSwapsDocs.list()
  async list(
    @CurrentCaller() caller: Caller,
    @Query() query: SwapListQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ShiftSwapDto>> {
    const { items, total } = await this.swaps.list(caller, await this.policy.reach(caller), query.status, query.page);
    return paginate(items, total, query.page, this.config.http.publicUrl, req.url);
  }

  @Post()
  @ShiftSwapsDocs.propose()
  async propose(@CurrentCaller() caller: Caller, @Body() body: ProposeSwapBody): Promise<{ data: ShiftSwapDto }> {
    const id = await this.commands.execute(new ProposeSwapCommand(caller, body.shift.id, body.with.id));
    return this.one(caller, id);
  }

  @Get(':id')
  @ShiftSwapsDocs.get()
  get(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<{ data: ShiftSwapDto }> {
    return this.one(caller, pathId(raw, 'Shift swap'));
  }

  @Post(':id/accept')
  @HttpCode(200)
  @ShiftSwapsDocs.accept()
  async accept(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<{ data: ShiftSwapDto }> {
    const id = pathId(raw, 'Shift swap');
    await this.commands.execute(new AcceptSwapCommand(caller, id));
    return this.one(caller, id);
  }

  @Post(':id/decline')
  @HttpCode(200)
  @ShiftSwapsDocs.decline()
  async decline(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<{ data: ShiftSwapDto }> {
    const id = pathId(raw, 'Shift swap');
    await this.commands.execute(new AnswerSwapCommand(caller, id, 'decline'));
    return this.one(caller, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @ShiftSwapsDocs.withdraw()
  async withdraw(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<void> {
    await this.commands.execute(new AnswerSwapCommand(caller, pathId(raw, 'Shift swap'), 'withdraw'));
  }

  private async one(caller: Caller, id: number): Promise<{ data: ShiftSwapDto }> {
    return { data: await this.swaps.seen(caller, await this.policy.reach(caller), id) };
  }
}
