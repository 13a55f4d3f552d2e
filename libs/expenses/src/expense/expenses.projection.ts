import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { UserAnonymisedEvent } from '#app/identity';
import type { ExpenseData, ExpenseEvent } from '../expenses.events.js';

/** Expenses with their attachments and claim; a rejected claim releases its expenses here too. */
@AsProjection()
@Injectable()
export class ExpensesProjection extends defineProjection<ExpenseEvent | UserAnonymisedEvent>({
  name: 'expenses.expenses',
  version: 1,
  tables: ['expenses', 'expense_attachments'],
  on: {
    // docs/privacy.md#anonymising-a-user: the expenses stay (finance records), their descriptions become "";
    // their attachments are removed by the anonymise write itself (AttachmentRemoved on each expense's stream).
    'identity.UserAnonymised': ({ data: d }) => [op.update('expenses', { user_id: d.userId }, { description: '' })],
    'expenses.ExpenseRecorded': ({ data, recordedAt: at }) => [
      op.upsert('expenses', ['id'], { ...row(data), claim_id: null, claimed: false, created_at: at, updated_at: at }),
    ],
    'expenses.ExpenseChanged': ({ data, recordedAt: at }) => [
      op.update('expenses', { id: data.id }, { ...row(data), updated_at: at }),
    ],
    'expenses.ExpenseDeleted': ({ data }) => [
      op.delete('expense_attachments', { expense_id: data.id }),
      op.delete('expenses', { id: data.id }),
    ],
    'expenses.AttachmentAdded': ({ data, recordedAt: at }) => [
      op.upsert('expense_attachments', ['expense_id', 'file_id'], {
        expense_id: data.expenseId,
        file_id: data.fileId,
        organisation_id: data.organisationId,
        attached_at: at,
      }),
    ],
    'expenses.AttachmentRemoved': ({ data }) => [
      op.delete('expense_attachments', { expense_id: data.expenseId, file_id: data.fileId }),
    ],
    'expenses.ExpenseClaimed': ({ data }) => [
      op.update('expenses', { id: data.expenseId }, { claim_id: data.claimId, claimed: true }),
    ],
    'expenses.ExpenseReleased': ({ data }) => [
      op.update('expenses', { id: data.expenseId }, { claim_id: null, claimed: false }),
    ],
  },
}) {}

function row(d: ExpenseData) {
  return {
    id: d.id,
    organisation_id: d.organisationId,
    user_id: d.userId,
    type_id: d.typeId,
    rate_id: d.rateId,
    role_id: d.roleId,
    amount: d.amount,
    description: d.description,
    submitted: d.submitted,
    date: d.date,
    miles: d.miles,
    passengers: d.passengers,
  };
}
