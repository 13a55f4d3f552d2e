import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AttachmentDto } from '#app/files';
import { type Caller, CurrentCaller, RequirePermission, UserBaseDto, UserBases } from '#app/identity';
import { APP_CONFIG, type AppConfig, NotFoundError, PageQuery, type Paginated, paginate, pathId } from '#app/platform';
import { AttachFileCommand } from '../expense/attach-file.command.js';
import { DeleteExpenseCommand } from '../expense/delete-expense.command.js';
import { SaveExpenseCommand } from '../expense/save-expense.command.js';
import { ExpenseQueries, recordedExpenseView } from '../expense/expense.queries.js';
import { EXPENSE_PERMISSIONS, ExpensesPolicy } from '../expenses.policy.js';
import {
  CreateExpenseBody,
  ExpenseIncludeQuery,
  ExpenseListQuery,
  expenseValues,
  UpdateExpenseBody,
} from './expense.dto.js';
import { ExpenseDto } from './expense.responses.js';
import { ExpensesDocs } from './expenses.openapi.js';

@ExpensesDocs.controller()
@RequirePermission(EXPENSE_PERMISSIONS.record)
@Controller('api')
export class ExpensesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly expenses: ExpenseQueries,
    private readonly policy: ExpensesPolicy,
    private readonly users: UserBases,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Writes go to the caller's own expenses; another user's, if visible at all, is read only. */
  private async owner(caller: Caller, rawUserId: string): Promise<number> {
    const userId = pathId(rawUserId, 'User');
    await this.policy.ownerOnly(caller, userId);
    return userId;
  }

  @Get('users/:userId/expenses/authorisers')
  @ExpensesDocs.authorisers()
  async authorisers(
    @CurrentCaller() caller: Caller,
    @Param('userId') raw: string,
    @Query() page: PageQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<UserBaseDto>> {
    const userId = pathId(raw, 'User');
    await this.policy.access(caller, userId);
    const ids = await this.policy.authorisersOf(caller, userId);
    const slice = ids.slice((page.page - 1) * page.perPage, page.page * page.perPage);
    const bases = await this.users.of(caller, slice, 'approve-claims');
    return paginate(
      slice.flatMap((id) => bases.get(id) ?? []),
      ids.length,
      page,
      this.config.http.publicUrl,
      req.url,
    );
  }

  @Get('users/:userId/expenses')
  @ExpensesDocs.list()
  async list(
    @CurrentCaller() caller: Caller,
    @Param('userId') raw: string,
    @Query() query: ExpenseListQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ExpenseDto>> {
    const { items, total } = await this.expenses.list(caller, pathId(raw, 'User'), {
      ...query.list,
      claimed: query.claimed,
    });
    return paginate(items, total, query.list, this.config.http.publicUrl, req.url);
  }

  @Post('expenses')
  @ExpensesDocs.create()
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateExpenseBody): Promise<ExpenseDto> {
    const saved = await this.commands.execute(new SaveExpenseCommand(caller, null, expenseValues(body)));
    return recordedExpenseView(saved.data, saved.recordedAt!); // a create always records
  }

  @Get('users/:userId/expenses/:id')
  @ExpensesDocs.get()
  get(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') id: string,
    @Query() query: ExpenseIncludeQuery,
  ): Promise<ExpenseDto> {
    return this.expenses.get(caller, pathId(userId, 'User'), pathId(id, 'Expense'), query.include);
  }

  @Put('users/:userId/expenses/:id')
  @ExpensesDocs.update()
  async update(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') id: string,
    @Body() body: UpdateExpenseBody,
  ): Promise<ExpenseDto> {
    const owner = await this.owner(caller, userId);
    await this.commands.execute(new SaveExpenseCommand(caller, pathId(id, 'Expense'), expenseValues(body)));
    return this.expenses.get(caller, owner, pathId(id, 'Expense'));
  }

  @Delete('users/:userId/expenses/:id')
  @HttpCode(204)
  @ExpensesDocs.remove()
  async remove(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') id: string,
  ): Promise<void> {
    await this.owner(caller, userId);
    await this.commands.execute(new DeleteExpenseCommand(caller, pathId(id, 'Expense')));
  }

  @Get('users/:userId/expenses/:id/attachments')
  @ExpensesDocs.attachments()
  async attachments(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') id: string,
    @Query() page: PageQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<AttachmentDto>> {
    const expense = await this.expenses.get(caller, pathId(userId, 'User'), pathId(id, 'Expense'));
    const all = (await this.expenses.attachments(caller, [expense.id])).get(expense.id)!;
    return paginate(
      all.slice((page.page - 1) * page.perPage, page.page * page.perPage),
      all.length,
      page,
      this.config.http.publicUrl,
      req.url,
    );
  }

  @Get('users/:userId/expenses/:id/attachments/:fileId')
  @ExpensesDocs.attachment()
  async attachment(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') id: string,
    @Param('fileId') fileId: string,
  ): Promise<AttachmentDto> {
    const expense = await this.expenses.get(caller, pathId(userId, 'User'), pathId(id, 'Expense'));
    const found = (await this.expenses.attachments(caller, [expense.id]))
      .get(expense.id)!
      .find((f) => f.id === pathId(fileId, 'Attachment'));
    if (!found) throw new NotFoundError('Attachment');
    return found;
  }

  @Put('users/:userId/expenses/:id/attachments/:fileId')
  @HttpCode(200)
  @ExpensesDocs.attach()
  async attach(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') id: string,
    @Param('fileId') fileId: string,
  ): Promise<AttachmentDto> {
    await this.owner(caller, userId);
    await this.commands.execute(new AttachFileCommand(caller, pathId(id, 'Expense'), pathId(fileId, 'File'), true));
    return this.attachment(caller, userId, id, fileId);
  }

  @Delete('users/:userId/expenses/:id/attachments/:fileId')
  @HttpCode(204)
  @ExpensesDocs.detach()
  async detach(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') id: string,
    @Param('fileId') fileId: string,
  ): Promise<void> {
    await this.owner(caller, userId);
    await this.commands.execute(new AttachFileCommand(caller, pathId(id, 'Expense'), pathId(fileId, 'File'), false));
  }
}
