import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import { APP_CONFIG, type AppConfig, paginate, parseListQuery, pathId } from '#app/platform';
import { DeleteExpenseRateCommand, SaveExpenseRateCommand } from '../rates/expense-rates.commands.js';
import { DeleteExpenseTypeCommand, SaveExpenseTypeCommand } from '../types/expense-types.commands.js';
import { ExpenseSettingsQueries } from '../types/expense-settings.queries.js';
import { CreateExpenseRateBody, CreateExpenseTypeBody, rateValues, UpdateExpenseRateBody, UpdateExpenseTypeBody } from './settings.dto.js';


@ApiTags('expense settings')
@ApiBearerAuth()
@Controller('api/expenses')
export class ExpenseSettingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ExpenseSettingsQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('types')
  @RequirePermission('create-expenses')
  @ApiOperation({ summary: 'List expense types', description: 'Ordered by order_id. Deleted types are gone from the list.' })
  async listTypes(@CurrentCaller() caller: Caller, @Query() query: Record<string, string>, @Req() req: FastifyRequest) {
    const page = parseListQuery(query);
    const { items, total } = await this.queries.types(caller, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }

  @Post('types')
  @RequirePermission('edit-expense-settings')
  @ApiOperation({ summary: 'Create expense type' })
  async createType(@CurrentCaller() caller: Caller, @Body() body: CreateExpenseTypeBody) {
    return this.queries.type(caller, await this.commands.execute(new SaveExpenseTypeCommand(caller, null, body)));
  }

  @Put('types/:id')
  @RequirePermission('edit-expense-settings')
  @ApiOperation({ summary: 'Update expense type' })
  async updateType(@CurrentCaller() caller: Caller, @Param('id') raw: string, @Body() body: UpdateExpenseTypeBody) {
    return this.queries.type(caller, await this.commands.execute(new SaveExpenseTypeCommand(caller, pathId(raw, 'Expense type'), body)));
  }

  @Delete('types/:id')
  @HttpCode(204)
  @RequirePermission('edit-expense-settings')
  @ApiOperation({ summary: 'Delete expense type', description: 'Expenses that have the type keep it; it cannot be chosen again.' })
  async deleteType(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<void> {
    await this.commands.execute(new DeleteExpenseTypeCommand(caller, pathId(raw, 'Expense type')));
  }

  @Get('rates')
  @RequirePermission('create-expenses')
  @ApiOperation({ summary: 'List expense rates' })
  async listRates(@CurrentCaller() caller: Caller, @Query() query: Record<string, string>, @Req() req: FastifyRequest) {
    const page = parseListQuery(query);
    const { items, total } = await this.queries.rates(caller, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }

  @Post('rates')
  @RequirePermission('edit-expense-settings')
  @ApiOperation({ summary: 'Create expense rate', description: 'short_name and rate are required; end_date may not be before start_date.' })
  async createRate(@CurrentCaller() caller: Caller, @Body() body: CreateExpenseRateBody) {
    return this.queries.rate(caller, await this.commands.execute(new SaveExpenseRateCommand(caller, null, rateValues(body))));
  }

  @Get('rates/:id')
  @RequirePermission('create-expenses')
  @ApiOperation({ summary: 'Get expense rate' })
  getRate(@CurrentCaller() caller: Caller, @Param('id') raw: string) {
    return this.queries.rate(caller, pathId(raw, 'Expense rate'));
  }

  @Put('rates/:id')
  @RequirePermission('edit-expense-settings')
  @ApiOperation({ summary: 'Update expense rate' })
  async updateRate(@CurrentCaller() caller: Caller, @Param('id') raw: string, @Body() body: UpdateExpenseRateBody) {
    return this.queries.rate(caller, await this.commands.execute(new SaveExpenseRateCommand(caller, pathId(raw, 'Expense rate'), rateValues(body))));
  }

  @Delete('rates/:id')
  @HttpCode(204)
  @RequirePermission('edit-expense-settings')
  @ApiOperation({ summary: 'Delete expense rate' })
  async deleteRate(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<void> {
    await this.commands.execute(new DeleteExpenseRateCommand(caller, pathId(raw, 'Expense rate')));
  }
}
