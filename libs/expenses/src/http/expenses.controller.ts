import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, Hierarchy, RequirePermission, UserBases } from '#app/identity';
import { APP_CONFIG, type AppConfig, ForbiddenError, NotFoundError, paginate, parseBooleanQuery, parseListQuery, pathId } from '#app/platform';
import { AttachFileCommand, DeleteExpenseCommand, SaveExpenseCommand } from '../expense/expense.commands.js';
import { EXPENSE_INCLUDES, ExpenseQueries, recordedExpenseView } from '../expense/expense.queries.js';
import { CreateExpenseBody, expenseValues, UpdateExpenseBody } from './expense.dto.js';


@ApiTags('expenses')
@ApiBearerAuth()
@RequirePermission('create-expenses')
@Controller('api')
export class ExpensesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly expenses: ExpenseQueries,
    private readonly hierarchy: Hierarchy,
    private readonly users: UserBases,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Writes go to the caller's own expenses; another user's, if visible at all, is read only. */
  private async owner(caller: Caller, rawUserId: string): Promise<number> {
    const userId = pathId(rawUserId, 'User');
    await this.expenses.assertVisible(caller, userId);
    if (userId !== caller.userId) throw new ForbiddenError('Only the owner may change an expense.');
    return userId;
  }

  @Get('users/:userId/expenses/authorisers')
  @ApiOperation({ summary: 'List expense authorisers', description: 'Holders of approve-claims whose hierarchy reaches one of the user’s teams.' })
  async authorisers(@CurrentCaller() caller: Caller, @Param('userId') raw: string, @Query() query: Record<string, string>, @Req() req: FastifyRequest) {
    const userId = pathId(raw, 'User');
    await this.expenses.assertVisible(caller, userId);
    const page = parseListQuery(query);
    const ids = await this.hierarchy.holdersOver(caller, userId, 'approve-claims');
    const slice = ids.slice((page.page - 1) * page.perPage, page.page * page.perPage);
    const bases = await this.users.of(caller, slice, 'approve-claims');
    return paginate(slice.flatMap((id) => bases.get(id) ?? []), ids.length, page, this.config.http.publicUrl, req.url);
  }

  @Get('users/:userId/expenses')
  @ApiOperation({ summary: 'List expenses', description: 'Ordered by date (s=date; o=a|d). claimed filters; include: user, type, rate, attachments, role, role.roleProfile.' })
  async list(@CurrentCaller() caller: Caller, @Param('userId') raw: string, @Query() query: Record<string, string>, @Req() req: FastifyRequest) {
    const q = parseListQuery(query, { sorts: ['date'], includes: EXPENSE_INCLUDES });
    const claimed = parseBooleanQuery(query, 'claimed');
    const { items, total } = await this.expenses.list(caller, pathId(raw, 'User'), { ...q, claimed });
    return paginate(items, total, q, this.config.http.publicUrl, req.url);
  }

  @Post('expenses')
  @ApiOperation({ summary: 'Create expense', description: 'Owned by the caller. With a rate, amount is computed; miles over max_miles, a date in the future or older than expenses_max_age months are 422.' })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateExpenseBody) {
    const saved = await this.commands.execute(new SaveExpenseCommand(caller, null, expenseValues(body)));
    return recordedExpenseView(saved.data, saved.recordedAt);
  }

  @Get('users/:userId/expenses/:id')
  @ApiOperation({ summary: 'Get expense' })
  get(@CurrentCaller() caller: Caller, @Param('userId') userId: string, @Param('id') id: string, @Query() query: Record<string, string>) {
    const { include } = parseListQuery(query, { includes: EXPENSE_INCLUDES });
    return this.expenses.get(caller, pathId(userId, 'User'), pathId(id, 'Expense'), include);
  }

  @Put('users/:userId/expenses/:id')
  @ApiOperation({ summary: 'Update expense', description: 'A claimed expense cannot be changed (409).' })
  async update(@CurrentCaller() caller: Caller, @Param('userId') userId: string, @Param('id') id: string, @Body() body: UpdateExpenseBody) {
    const owner = await this.owner(caller, userId);
    await this.commands.execute(new SaveExpenseCommand(caller, pathId(id, 'Expense'), expenseValues(body)));
    return this.expenses.get(caller, owner, pathId(id, 'Expense'));
  }

  @Delete('users/:userId/expenses/:id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete expense', description: 'A claimed expense cannot be deleted (409).' })
  async remove(@CurrentCaller() caller: Caller, @Param('userId') userId: string, @Param('id') id: string): Promise<void> {
    await this.owner(caller, userId);
    await this.commands.execute(new DeleteExpenseCommand(caller, pathId(id, 'Expense')));
  }

  @Get('users/:userId/expenses/:id/attachments')
  @ApiOperation({ summary: 'List attachments' })
  async attachments(@CurrentCaller() caller: Caller, @Param('userId') userId: string, @Param('id') id: string, @Query() query: Record<string, string>, @Req() req: FastifyRequest) {
    const page = parseListQuery(query);
    const expense = await this.expenses.get(caller, pathId(userId, 'User'), pathId(id, 'Expense'));
    const all = (await this.expenses.attachments(caller, [expense.id])).get(expense.id)!;
    return paginate(all.slice((page.page - 1) * page.perPage, page.page * page.perPage), all.length, page, this.config.http.publicUrl, req.url);
  }

  @Get('users/:userId/expenses/:id/attachments/:fileId')
  @ApiOperation({ summary: 'Get attachment', description: 'With a fresh signed_url.' })
  async attachment(@CurrentCaller() caller: Caller, @Param('userId') userId: string, @Param('id') id: string, @Param('fileId') fileId: string) {
    const expense = await this.expenses.get(caller, pathId(userId, 'User'), pathId(id, 'Expense'));
    const found = (await this.expenses.attachments(caller, [expense.id])).get(expense.id)!.find((f) => f.id === pathId(fileId, 'Attachment'));
    if (!found) throw new NotFoundError('Attachment');
    return found;
  }

  @Put('users/:userId/expenses/:id/attachments/:fileId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Attach file', description: 'A file the caller uploaded (POST /api/files) to the caller’s unclaimed expense.' })
  async attach(@CurrentCaller() caller: Caller, @Param('userId') userId: string, @Param('id') id: string, @Param('fileId') fileId: string) {
    await this.owner(caller, userId);
    await this.commands.execute(new AttachFileCommand(caller, pathId(id, 'Expense'), pathId(fileId, 'File'), true));
    return this.attachment(caller, userId, id, fileId);
  }

  @Delete('users/:userId/expenses/:id/attachments/:fileId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete attachment' })
  async detach(@CurrentCaller() caller: Caller, @Param('userId') userId: string, @Param('id') id: string, @Param('fileId') fileId: string): Promise<void> {
    await this.owner(caller, userId);
    await this.commands.execute(new AttachFileCommand(caller, pathId(id, 'Expense'), pathId(fileId, 'File'), false));
  }
}
