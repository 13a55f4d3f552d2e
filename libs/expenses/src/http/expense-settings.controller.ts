import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import { APP_CONFIG, type AppConfig, PageQuery, type Paginated, paginate, pathId } from '#app/platform';
import { DeleteListedSettingCommand } from '../types/delete-listed-setting.command.js';
import { SaveListedSettingCommand } from '../types/save-listed-setting.command.js';
import { ExpenseSettingsQueries } from '../types/expense-settings.queries.js';
import { EXPENSE_PERMISSIONS } from '../expenses.policy.js';
import {
  CreateExpenseRateBody,
  CreateExpenseTypeBody,
  rateValues,
  UpdateExpenseRateBody,
  UpdateExpenseTypeBody,
} from './settings.dto.js';
import { ExpenseRateDto, ExpenseTypeDto } from './settings.responses.js';
import { ExpenseSettingsDocs } from './expense-settings.openapi.js';

@ExpenseSettingsDocs.controller()
@Controller('api/expenses')
export class ExpenseSettingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ExpenseSettingsQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('types')
  @RequirePermission(EXPENSE_PERMISSIONS.record)
  @ExpenseSettingsDocs.listTypes()
  async listTypes(
    @CurrentCaller() caller: Caller,
    @Query() page: PageQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ExpenseTypeDto>> {
    const { items, total } = await this.queries.types(caller, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }

  @Post('types')
  @RequirePermission(EXPENSE_PERMISSIONS.settings)
  @ExpenseSettingsDocs.createType()
  async createType(@CurrentCaller() caller: Caller, @Body() body: CreateExpenseTypeBody): Promise<ExpenseTypeDto> {
    return this.queries.type(
      caller,
      await this.commands.execute(new SaveListedSettingCommand(caller, null, { kind: 'type', values: body })),
    );
  }

  @Put('types/:id')
  @RequirePermission(EXPENSE_PERMISSIONS.settings)
  @ExpenseSettingsDocs.updateType()
  async updateType(
    @CurrentCaller() caller: Caller,
    @Param('id') raw: string,
    @Body() body: UpdateExpenseTypeBody,
  ): Promise<ExpenseTypeDto> {
    return this.queries.type(
      caller,
      await this.commands.execute(
        new SaveListedSettingCommand(caller, pathId(raw, 'Expense type'), { kind: 'type', values: body }),
      ),
    );
  }

  @Delete('types/:id')
  @HttpCode(204)
  @RequirePermission(EXPENSE_PERMISSIONS.settings)
  @ExpenseSettingsDocs.deleteType()
  async deleteType(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<void> {
    await this.commands.execute(new DeleteListedSettingCommand(caller, 'type', pathId(raw, 'Expense type')));
  }

  @Get('rates')
  @RequirePermission(EXPENSE_PERMISSIONS.record)
  @ExpenseSettingsDocs.listRates()
  async listRates(
    @CurrentCaller() caller: Caller,
    @Query() page: PageQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ExpenseRateDto>> {
    const { items, total } = await this.queries.rates(caller, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }

  @Post('rates')
  @RequirePermission(EXPENSE_PERMISSIONS.settings)
  @ExpenseSettingsDocs.createRate()
  async createRate(@CurrentCaller() caller: Caller, @Body() body: CreateExpenseRateBody): Promise<ExpenseRateDto> {
    return this.queries.rate(
      caller,
      await this.commands.execute(
        new SaveListedSettingCommand(caller, null, { kind: 'rate', values: rateValues(body) }),
      ),
    );
  }

  @Get('rates/:id')
  @RequirePermission(EXPENSE_PERMISSIONS.record)
  @ExpenseSettingsDocs.getRate()
  getRate(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<ExpenseRateDto> {
    return this.queries.rate(caller, pathId(raw, 'Expense rate'));
  }

  @Put('rates/:id')
  @RequirePermission(EXPENSE_PERMISSIONS.settings)
  @ExpenseSettingsDocs.updateRate()
  async updateRate(
    @CurrentCaller() caller: Caller,
    @Param('id') raw: string,
    @Body() body: UpdateExpenseRateBody,
  ): Promise<ExpenseRateDto> {
    return this.queries.rate(
      caller,
      await this.commands.execute(
        new SaveListedSettingCommand(caller, pathId(raw, 'Expense rate'), { kind: 'rate', values: rateValues(body) }),
      ),
    );
  }

  @Delete('rates/:id')
  @HttpCode(204)
  @RequirePermission(EXPENSE_PERMISSIONS.settings)
  @ExpenseSettingsDocs.deleteRate()
  async deleteRate(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<void> {
    await this.commands.execute(new DeleteListedSettingCommand(caller, 'rate', pathId(raw, 'Expense rate')));
  }
}
