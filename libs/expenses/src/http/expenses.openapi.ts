import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { AttachmentDto } from '#app/files';
import { UserBaseDto } from '#app/identity';
import {
  ApiBooleanQuery,
  ApiErrors,
  ApiIdParam,
  ApiIncludeQuery,
  ApiListQuery,
  ApiPaginated,
  ApiDocs,
} from '#app/platform';
import { EXPENSE_INCLUDES } from '../expense/expense.queries.js';
import { EXPENSE_LIST_SPEC } from './expense.dto.js';
import { ExpenseDto } from './expense.responses.js';

const CLAIMED_409 = {
  409: 'The expense is claimed (a claimed expense cannot be changed), or a concurrent change won the race.',
} as const;

/** What the OpenAPI document says of ExpensesController: one composed decorator per route. */
export const ExpensesDocs = {
  controller: () => ApiDocs(ApiTags('expenses'), ApiBearerAuth()),
  authorisers: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listExpenseAuthorisers',
        summary: 'List expense authorisers',
        description:
          'Permission: create-expenses. Holders of approve-claims whose hierarchy reaches one of the user’s ' +
          'teams. The caller’s own, or a user the caller has approve-claims over.',
      }),
      ApiIdParam('userId', 'User id'),
      ApiListQuery(),
      ApiPaginated(UserBaseDto),
      ApiErrors(400, 401, 403, 404, 406, 422),
    ),
  list: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listExpenses',
        summary: 'List expenses',
        description:
          'Permission: create-expenses. The caller’s own, or of a user the caller has approve-claims over (another user of the organisation is a 403). ' +
          'Newest first: by date, then id, descending (s=date; o=a oldest first, o=d default). claimed ' +
          'filters; include: user, type, rate, attachments, role, role.roleProfile.',
      }),
      ApiIdParam('userId', 'User id'),
      ApiListQuery(EXPENSE_LIST_SPEC),
      ApiBooleanQuery('claimed', 'Only claimed (true) or unclaimed (false) expenses; absent: both'),
      ApiPaginated(ExpenseDto),
      ApiErrors(400, 401, 403, 404, 406, 422),
    ),
  create: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'createExpense',
        summary: 'Create expense',
        description:
          'Permission: create-expenses. Owned by the caller. With a rate, amount is computed; miles over ' +
          'max_miles, a date in the future or older than expenses_max_age months are 422.',
      }),
      ApiCreatedResponse({ type: ExpenseDto, description: 'The new expense, without includes' }),
      ApiErrors(400, 401, 403, 406, 413, 422),
    ),
  get: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getExpense',
        summary: 'Get expense',
        description: 'Permission: create-expenses. The caller’s own, or of a user the caller has approve-claims over.',
      }),
      ApiIdParam('userId', 'User id'),
      ApiIdParam('id', 'Expense id'),
      ApiIncludeQuery(EXPENSE_INCLUDES),
      ApiOkResponse({ type: ExpenseDto }),
      ApiErrors(400, 401, 403, 404, 406, 422),
    ),
  update: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'updateExpense',
        summary: 'Update expense',
        description:
          'Permission: create-expenses; only the owner (another visible user’s is a 403). A claimed expense cannot be changed (409).',
      }),
      ApiIdParam('userId', 'User id: the caller'),
      ApiIdParam('id', 'Expense id'),
      ApiOkResponse({ type: ExpenseDto, description: 'The expense after the change, without includes' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, CLAIMED_409),
    ),
  remove: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'deleteExpense',
        summary: 'Delete expense',
        description:
          'Permission: create-expenses; only the owner (another visible user’s is a 403). A claimed expense cannot be deleted (409).',
      }),
      ApiIdParam('userId', 'User id: the caller'),
      ApiIdParam('id', 'Expense id'),
      ApiNoContentResponse({ description: 'Deleted; no body' }),
      ApiErrors(400, 401, 403, 404, 406, 409, CLAIMED_409),
    ),
  attachments: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listExpenseAttachments',
        summary: 'List attachments',
        description:
          'Permission: create-expenses. Of the caller’s own expense, or of a user the caller has approve-claims over; in the order attached.',
      }),
      ApiIdParam('userId', 'User id'),
      ApiIdParam('id', 'Expense id'),
      ApiListQuery(),
      ApiPaginated(AttachmentDto),
      ApiErrors(400, 401, 403, 404, 406, 422),
    ),
  attachment: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getExpenseAttachment',
        summary: 'Get attachment',
        description: 'Permission: create-expenses. With a fresh signed_url.',
      }),
      ApiIdParam('userId', 'User id'),
      ApiIdParam('id', 'Expense id'),
      ApiIdParam('fileId', 'File id'),
      ApiOkResponse({ type: AttachmentDto }),
      ApiErrors(400, 401, 403, 404, 406),
    ),
  attach: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'attachExpenseFile',
        summary: 'Attach file',
        description:
          'Permission: create-expenses; only the owner. A file the caller uploaded (POST /api/files; another’s ' +
          'file is a 403) to the caller’s unclaimed expense. Attaching it again changes nothing.',
      }),
      ApiIdParam('userId', 'User id: the caller'),
      ApiIdParam('id', 'Expense id'),
      ApiIdParam('fileId', 'File id, from POST /api/files'),
      ApiOkResponse({ type: AttachmentDto, description: 'The attachment' }),
      ApiErrors(400, 401, 403, 404, 406, 409, CLAIMED_409),
    ),
  detach: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'detachExpenseFile',
        summary: 'Delete attachment',
        description: 'Permission: create-expenses; only the owner. Takes the file off the caller’s unclaimed expense.',
      }),
      ApiIdParam('userId', 'User id: the caller'),
      ApiIdParam('id', 'Expense id'),
      ApiIdParam('fileId', 'File id'),
      ApiNoContentResponse({ description: 'Taken off; no body' }),
      ApiErrors(400, 401, 403, 404, 406, 409, CLAIMED_409),
    ),
};
