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
import { AttachmentDto } from '#app/files';
import { type Caller, CurrentCaller, RequirePermission, UserBaseDto, UserBases } from '#app/identity';
import {
  ApiBooleanQuery,
  ApiErrors,
  ApiIdParam,
  ApiIncludeQuery,
  ApiListQuery,
  ApiPaginated,
  APP_CONFIG,
  type AppConfig,
  NotFoundError,
  type Paginated,
  paginate,
  parseBooleanQuery,
  parseListQuery,
  pathId,
} from '#app/platform';
import { AttachFileCommand } from '../expense/attach-file.command.js';
import { DeleteExpenseCommand } from '../expense/delete-expense.command.js';
import { SaveExpenseCommand } from '../expense/save-expense.command.js';
import { EXPENSE_INCLUDES, ExpenseQueries, recordedExpenseView } from '../expense/expense.queries.js';
import { EXPENSE_PERMISSIONS, ExpensesPolicy } from '../expenses.policy.js';
import { CreateExpenseBody, expenseValues, UpdateExpenseBody } from './expense.dto.js';
import { ExpenseDto } from './expense.responses.js';

/** Newest first by default (README): date, then id, descending; `o=a` gives oldest first. */
const LIST_SPEC = { sorts: ['date'] as const, defaultDirection: 'desc' as const, includes: EXPENSE_INCLUDES };
const CLAIMED_409 = {
  409: 'The expense is claimed (a claimed expense cannot be changed), or a concurrent change won the race.',
} as const;

@ApiTags('expenses')
@ApiBearerAuth()
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
  @ApiOperation({
    summary: 'List expense authorisers',
    description:
      'Permission: create-expenses. Holders of approve-claims whose hierarchy reaches one of the user’s teams. The caller’s own, or a user the caller has approve-claims over.',
  })
  @ApiIdParam('userId', 'User id')
  @ApiListQuery()
  @ApiPaginated(UserBaseDto)
  @ApiErrors(400, 401, 403, 404, 406, 422)
  async authorisers(
    @CurrentCaller() caller: Caller,
    @Param('userId') raw: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<UserBaseDto>> {
    const userId = pathId(raw, 'User');
    await this.policy.access(caller, userId);
    const page = parseListQuery(query);
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
  @ApiOperation({
    summary: 'List expenses',
    description:
      'Permission: create-expenses. The caller’s own, or of a user the caller has approve-claims over (another user of the organisation is a 403). ' +
      'Newest first: by date, then id, descending (s=date; o=a oldest first, o=d default). claimed filters; include: user, type, rate, attachments, role, role.roleProfile.',
  })
  @ApiIdParam('userId', 'User id')
  @ApiListQuery(LIST_SPEC)
  @ApiBooleanQuery('claimed', 'Only claimed (true) or unclaimed (false) expenses; absent: both')
  @ApiPaginated(ExpenseDto)
  @ApiErrors(400, 401, 403, 404, 406, 422)
  async list(
    @CurrentCaller() caller: Caller,
    @Param('userId') raw: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ExpenseDto>> {
    const q = parseListQuery(query, LIST_SPEC);
    const claimed = parseBooleanQuery(query, 'claimed');
    const { items, total } = await this.expenses.list(caller, pathId(raw, 'User'), { ...q, claimed });
    return paginate(items, total, q, this.config.http.publicUrl, req.url);
  }

  @Post('expenses')
  @ApiOperation({
    summary: 'Create expense',
    description:
      'Permission: create-expenses. Owned by the caller. With a rate, amount is computed; miles over max_miles, a date in the future or older than expenses_max_age months are 422.',
  })
  @ApiCreatedResponse({ type: ExpenseDto, description: 'The new expense, without includes' })
  @ApiErrors(400, 401, 403, 406, 413, 422)
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateExpenseBody): Promise<ExpenseDto> {
    const saved = await this.commands.execute(new SaveExpenseCommand(caller, null, expenseValues(body)));
    return recordedExpenseView(saved.data, saved.recordedAt!); // a create always records
  }

  @Get('users/:userId/expenses/:id')
  @ApiOperation({
    summary: 'Get expense',
    description: 'Permission: create-expenses. The caller’s own, or of a user the caller has approve-claims over.',
  })
  @ApiIdParam('userId', 'User id')
  @ApiIdParam('id', 'Expense id')
  @ApiIncludeQuery(EXPENSE_INCLUDES)
  @ApiOkResponse({ type: ExpenseDto })
  @ApiErrors(400, 401, 403, 404, 406, 422)
  get(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') id: string,
    @Query() query: Record<string, string>,
  ): Promise<ExpenseDto> {
    const { include } = parseListQuery(query, { includes: EXPENSE_INCLUDES });
    return this.expenses.get(caller, pathId(userId, 'User'), pathId(id, 'Expense'), include);
  }

  @Put('users/:userId/expenses/:id')
  @ApiOperation({
    summary: 'Update expense',
    description:
      'Permission: create-expenses; only the owner (another visible user’s is a 403). A claimed expense cannot be changed (409).',
  })
  @ApiIdParam('userId', 'User id: the caller')
  @ApiIdParam('id', 'Expense id')
  @ApiOkResponse({ type: ExpenseDto, description: 'The expense after the change, without includes' })
  @ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, CLAIMED_409)
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
  @ApiOperation({
    summary: 'Delete expense',
    description:
      'Permission: create-expenses; only the owner (another visible user’s is a 403). A claimed expense cannot be deleted (409).',
  })
  @ApiIdParam('userId', 'User id: the caller')
  @ApiIdParam('id', 'Expense id')
  @ApiNoContentResponse({ description: 'Deleted; no body' })
  @ApiErrors(400, 401, 403, 404, 406, 409, CLAIMED_409)
  async remove(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') id: string,
  ): Promise<void> {
    await this.owner(caller, userId);
    await this.commands.execute(new DeleteExpenseCommand(caller, pathId(id, 'Expense')));
  }

  @Get('users/:userId/expenses/:id/attachments')
  @ApiOperation({
    summary: 'List attachments',
    description:
      'Permission: create-expenses. Of the caller’s own expense, or of a user the caller has approve-claims over; in the order attached.',
  })
  @ApiIdParam('userId', 'User id')
  @ApiIdParam('id', 'Expense id')
  @ApiListQuery()
  @ApiPaginated(AttachmentDto)
  @ApiErrors(400, 401, 403, 404, 406, 422)
  async attachments(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') id: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<AttachmentDto>> {
    const page = parseListQuery(query);
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
  @ApiOperation({ summary: 'Get attachment', description: 'Permission: create-expenses. With a fresh signed_url.' })
  @ApiIdParam('userId', 'User id')
  @ApiIdParam('id', 'Expense id')
  @ApiIdParam('fileId', 'File id')
  @ApiOkResponse({ type: AttachmentDto })
  @ApiErrors(400, 401, 403, 404, 406)
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
  @ApiOperation({
    summary: 'Attach file',
    description:
      'Permission: create-expenses; only the owner. A file the caller uploaded (POST /api/files; another’s file is a 403) to the caller’s unclaimed expense. Attaching it again changes nothing.',
  })
  @ApiIdParam('userId', 'User id: the caller')
  @ApiIdParam('id', 'Expense id')
  @ApiIdParam('fileId', 'File id, from POST /api/files')
  @ApiOkResponse({ type: AttachmentDto, description: 'The attachment' })
  @ApiErrors(400, 401, 403, 404, 406, 409, CLAIMED_409)
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
  @ApiOperation({
    summary: 'Delete attachment',
    description: 'Permission: create-expenses; only the owner. Takes the file off the caller’s unclaimed expense.',
  })
  @ApiIdParam('userId', 'User id: the caller')
  @ApiIdParam('id', 'Expense id')
  @ApiIdParam('fileId', 'File id')
  @ApiNoContentResponse({ description: 'Taken off; no body' })
  @ApiErrors(400, 401, 403, 404, 406, 409, CLAIMED_409)
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
