import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
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
  @RequirePermission(EXPENSE_PERMISSIONS.record)
  @ApiOperation({
    summary: 'List expense types',
    description: 'Permission: create-expenses. Ordered by order_id. Deleted types are gone from the list.',
  })
  @ApiListQuery()
  @ApiPaginated(ExpenseTypeDto)
  @ApiErrors(400, 401, 403, 406, 422)
  async listTypes(
    @CurrentCaller() caller: Caller,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ExpenseTypeDto>> {
    const page = parseListQuery(query);
    const { items, total } = await this.queries.types(caller, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }

  @Post('types')
  @RequirePermission(EXPENSE_PERMISSIONS.settings)
  @ApiOperation({ summary: 'Create expense type', description: 'Permission: edit-expense-settings.' })
  @ApiCreatedResponse({ type: ExpenseTypeDto, description: 'The new expense type' })
  @ApiErrors(400, 401, 403, 406, 413, 422)
  async createType(@CurrentCaller() caller: Caller, @Body() body: CreateExpenseTypeBody): Promise<ExpenseTypeDto> {
    return this.queries.type(
      caller,
      await this.commands.execute(new SaveListedSettingCommand(caller, null, { kind: 'type', values: body })),
    );
  }

  @Put('types/:id')
  @RequirePermission(EXPENSE_PERMISSIONS.settings)
  @ApiOperation({ summary: 'Update expense type', description: 'Permission: edit-expense-settings.' })
  @ApiIdParam('id', 'Expense type id')
  @ApiOkResponse({ type: ExpenseTypeDto, description: 'The expense type after the change' })
  @ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, { 409: 'A concurrent change of the type won the race.' })
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
  @ApiOperation({
    summary: 'Delete expense type',
    description: 'Permission: edit-expense-settings. Expenses that have the type keep it; it cannot be chosen again.',
  })
  @ApiIdParam('id', 'Expense type id')
  @ApiNoContentResponse({ description: 'Deleted; no body' })
  @ApiErrors(400, 401, 403, 404, 406, 409, { 409: 'A concurrent change of the type won the race.' })
  async deleteType(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<void> {
    await this.commands.execute(new DeleteListedSettingCommand(caller, 'type', pathId(raw, 'Expense type')));
  }

  @Get('rates')
  @RequirePermission(EXPENSE_PERMISSIONS.record)
  @ApiOperation({
    summary: 'List expense rates',
    description: 'Permission: create-expenses. Ordered by order_id. Deleted rates are gone from the list.',
  })
  @ApiListQuery()
  @ApiPaginated(ExpenseRateDto)
  @ApiErrors(400, 401, 403, 406, 422)
  async listRates(
    @CurrentCaller() caller: Caller,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ExpenseRateDto>> {
    const page = parseListQuery(query);
    const { items, total } = await this.queries.rates(caller, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }

  @Post('rates')
  @RequirePermission(EXPENSE_PERMISSIONS.settings)
  @ApiOperation({
    summary: 'Create expense rate',
    description:
      'Permission: edit-expense-settings. short_name and rate are required; end_date may not be before start_date.',
  })
  @ApiCreatedResponse({ type: ExpenseRateDto, description: 'The new expense rate' })
  @ApiErrors(400, 401, 403, 406, 413, 422)
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
  @ApiOperation({
    summary: 'Get expense rate',
    description: 'Permission: create-expenses. A deleted rate is not found.',
  })
  @ApiIdParam('id', 'Expense rate id')
  @ApiOkResponse({ type: ExpenseRateDto })
  @ApiErrors(400, 401, 403, 404, 406)
  getRate(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<ExpenseRateDto> {
    return this.queries.rate(caller, pathId(raw, 'Expense rate'));
  }

  @Put('rates/:id')
  @RequirePermission(EXPENSE_PERMISSIONS.settings)
  @ApiOperation({
    summary: 'Update expense rate',
    description: 'Permission: edit-expense-settings. end_date may not be before start_date.',
  })
  @ApiIdParam('id', 'Expense rate id')
  @ApiOkResponse({ type: ExpenseRateDto, description: 'The expense rate after the change' })
  @ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, { 409: 'A concurrent change of the rate won the race.' })
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
  @ApiOperation({
    summary: 'Delete expense rate',
    description: 'Permission: edit-expense-settings. Expenses that have the rate keep it; it cannot be chosen again.',
  })
  @ApiIdParam('id', 'Expense rate id')
  @ApiNoContentResponse({ description: 'Deleted; no body' })
  @ApiErrors(400, 401, 403, 404, 406, 409, { 409: 'A concurrent change of the rate won the race.' })
  async deleteRate(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<void> {
    await this.commands.execute(new DeleteListedSettingCommand(caller, 'rate', pathId(raw, 'Expense rate')));
  }
}
