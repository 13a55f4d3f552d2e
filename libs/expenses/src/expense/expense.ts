import { ConflictError } from '#app/platform';
import type { ExpenseData, ExpenseEvent } from '../expenses.events.js';

export interface ExpenseState extends ExpenseData {
  readonly deleted: boolean;
  readonly claimId: number | null;
  readonly attachments: readonly number[];
}

export function evolve(state: ExpenseState | null, event: ExpenseEvent): ExpenseState | null {
  switch (event.type) {
    case 'expenses.ExpenseRecorded':
      return { ...event.data, deleted: false, claimId: null, attachments: [] };
    case 'expenses.ExpenseChanged':
      return state && { ...state, ...event.data };
    case 'expenses.ExpenseDeleted':
      return state && { ...state, deleted: true };
    case 'expenses.AttachmentAdded':
      return state && { ...state, attachments: [...state.attachments, event.data.fileId] };
    case 'expenses.AttachmentRemoved':
      return state && { ...state, attachments: state.attachments.filter((f) => f !== event.data.fileId) };
    case 'expenses.ExpenseClaimed':
      return state && { ...state, claimId: event.data.claimId };
    case 'expenses.ExpenseReleased':
      return state && { ...state, claimId: null };
  }
}

/** A claimed expense is frozen: no change, no deletion, no attachment (the spec's expense table). */
export function assertUnclaimed(state: ExpenseState): void {
  if (state.claimId !== null) throw new ConflictError('A claimed expense cannot be changed or deleted.');
}
