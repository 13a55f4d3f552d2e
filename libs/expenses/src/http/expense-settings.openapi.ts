import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, ApiIdParam, ApiListQuery, ApiPaginated, ApiDocs } from '#app/platform';
import { ExpenseRateDto, ExpenseTypeDto } from './settings.responses.js';

/** What the OpenAPI document says of ExpenseSettingsController: one composed decorator per route. */
export const ExpenseSettingsDocs = {
  controller: () => ApiDocs(ApiTags('expense settings'), ApiBearerAuth()),
  listTypes: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listExpenseTypes',
        summary: 'List expense types',
        description: 'Permission: create-expenses. Ordered by order_id. Deleted types are gone from the list.',
      }),
      ApiListQuery(),
      ApiPaginated(ExpenseTypeDto),
      ApiErrors(400, 401, 403, 406, 422),
    ),
  createType: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'createExpenseType',
        summary: 'Create expense type',
        description: 'Permission: edit-expense-settings.',
      }),
      ApiCreatedResponse({ type: ExpenseTypeDto, description: 'The new expense type' }),
      ApiErrors(400, 401, 403, 406, 413, 422),
    ),
  updateType: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'updateExpenseType',
        summary: 'Update expense type',
        description: 'Permission: edit-expense-settings.',
      }),
      ApiIdParam('id', 'Expense type id'),
      ApiOkResponse({ type: ExpenseTypeDto, description: 'The expense type after the change' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, { 409: 'A concurrent change of the type won the race.' }),
    ),
  deleteType: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'deleteExpenseType',
        summary: 'Delete expense type',
        description:
          'Permission: edit-expense-settings. Expenses that have the type keep it; it cannot be chosen again.',
      }),
      ApiIdParam('id', 'Expense type id'),
      ApiNoContentResponse({ description: 'Deleted; no body' }),
      ApiErrors(400, 401, 403, 404, 406, 409, { 409: 'A concurrent change of the type won the race.' }),
    ),
  listRates: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listExpenseRates',
        summary: 'List expense rates',
        description: 'Permission: create-expenses. Ordered by order_id. Deleted rates are gone from the list.',
      }),
      ApiListQuery(),
      ApiPaginated(ExpenseRateDto),
      ApiErrors(400, 401, 403, 406, 422),
    ),
  createRate: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'createExpenseRate',
        summary: 'Create expense rate',
        description:
          'Permission: edit-expense-settings. short_name and rate are required; end_date may not be before start_date.',
      }),
      ApiCreatedResponse({ type: ExpenseRateDto, description: 'The new expense rate' }),
      ApiErrors(400, 401, 403, 406, 413, 422),
    ),
  getRate: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getExpenseRate',
        summary: 'Get expense rate',
        description: 'Permission: create-expenses. A deleted rate is not found.',
      }),
      ApiIdParam('id', 'Expense rate id'),
      ApiOkResponse({ type: ExpenseRateDto }),
      ApiErrors(400, 401, 403, 404, 406),
    ),
  updateRate: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'updateExpenseRate',
        summary: 'Update expense rate',
        description: 'Permission: edit-expense-settings. end_date may not be before start_date.',
      }),
      ApiIdParam('id', 'Expense rate id'),
      ApiOkResponse({ type: ExpenseRateDto, description: 'The expense rate after the change' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, { 409: 'A concurrent change of the rate won the race.' }),
    ),
  deleteRate: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'deleteExpenseRate',
        summary: 'Delete expense rate',
        description:
          'Permission: edit-expense-settings. Expenses that have the rate keep it; it cannot be chosen again.',
      }),
      ApiIdParam('id', 'Expense rate id'),
      ApiNoContentResponse({ description: 'Deleted; no body' }),
      ApiErrors(400, 401, 403, 404, 406, 409, { 409: 'A concurrent change of the rate won the race.' }),
    ),
};
