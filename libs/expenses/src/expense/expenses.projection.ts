import { Injectable } from '@nestjs/common';
import { AsProjection, op, type Projection, type ProjectionOp, type StoredEvent } from '#app/event-store';
import type { ClaimEvent, ExpenseData, ExpenseEvent } from '../expenses.events.js';

/** Expenses with their attachments and claim; a rejected claim releases its expenses here too. */
@AsProjection()
@Injectable()
export class ExpensesProjection implements Projection {
  readonly name = 'expenses.expenses';
  readonly version = 1;
  readonly tables = ['expenses', 'expense_attachments'];
  readonly handles = [
    'expenses.ExpenseRecorded', 'expenses.ExpenseChanged', 'expenses.ExpenseDeleted', 'expenses.AttachmentAdded',
    'expenses.AttachmentRemoved', 'expenses.ExpenseClaimed', 'expenses.ExpenseReleased',
  ];

  project(stored: StoredEvent): ProjectionOp[] {
    const e = stored as unknown as ExpenseEvent | ClaimEvent;
    const at = stored.recordedAt;
    switch (e.type) {
      case 'expenses.ExpenseRecorded':
        return [op.upsert('expenses', ['id'], { ...row(e.data), claim_id: null, claimed: false, created_at: at, updated_at: at })];
      case 'expenses.ExpenseChanged':
        return [op.update('expenses', { id: e.data.id }, { ...row(e.data), updated_at: at })];
      case 'expenses.ExpenseDeleted':
        return [op.delete('expense_attachments', { expense_id: e.data.id }), op.delete('expenses', { id: e.data.id })];
      case 'expenses.AttachmentAdded':
        return [op.upsert('expense_attachments', ['expense_id', 'file_id'], { expense_id: e.data.expenseId, file_id: e.data.fileId, organisation_id: e.data.organisationId, attached_at: at })];
      case 'expenses.AttachmentRemoved':
        return [op.delete('expense_attachments', { expense_id: e.data.expenseId, file_id: e.data.fileId })];
      case 'expenses.ExpenseClaimed':
        return [op.update('expenses', { id: e.data.expenseId }, { claim_id: e.data.claimId, claimed: true })];
      case 'expenses.ExpenseReleased':
        return [op.update('expenses', { id: e.data.expenseId }, { claim_id: null, claimed: false })];
      default:
        return [];
    }
  }
}

function row(d: ExpenseData) {
  return {
    id: d.id, organisation_id: d.organisationId, user_id: d.userId, type_id: d.typeId, rate_id: d.rateId, role_id: d.roleId, amount: d.amount,
    description: d.description, submitted: d.submitted, date: d.date, miles: d.miles, passengers: d.passengers,
  };
}
