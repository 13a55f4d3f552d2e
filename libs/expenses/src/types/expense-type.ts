import type { SettingsEvent } from '../expenses.events.js';
import { listedSetting, type ListedState, type SaveListed } from './listed-setting.js';

export type ExpenseTypeData = Extract<
  SettingsEvent,
  { type: 'expenses.ExpenseTypeCreated' | 'expenses.ExpenseTypeChanged' }
>['data'];
export type ExpenseTypeState = ListedState<ExpenseTypeData>;
export type ExpenseTypeValues = { readonly name?: string; readonly position?: number };
export type SaveExpenseType = SaveListed<ExpenseTypeValues>;

/** An expense type: a name (required on create, by the request's validation) and a position in the list (0 by default). */
export const { evolve, decideCreate, decideUpdate, decideDelete } = listedSetting<ExpenseTypeData, ExpenseTypeValues>({
  what: 'Expense type',
  created: 'expenses.ExpenseTypeCreated',
  changed: 'expenses.ExpenseTypeChanged',
  deleted: 'expenses.ExpenseTypeDeleted',
  after: (current, { id, organisationId, values }) => ({
    id,
    organisationId,
    name: values.name ?? current?.name ?? '',
    position: values.position ?? current?.position ?? 0,
  }),
});
