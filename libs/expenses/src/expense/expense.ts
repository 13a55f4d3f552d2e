import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '#app/platform';
import { type ExpenseData, type ExpenseEvent, streams } from '../expenses.events.js';
import { checkExpense, mileageAmount, type RateForDate } from './expense-rules.js';

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

/** An expense's stream, read and folded, for a decision over several streams (a claim and its expenses). */
export const expenseStream = (id: number) => ({ streamId: streams.expense(id), evolve });

/** Who acts on an expense: only its owner does, everyone else finds nothing. */
export interface ExpenseActor {
  readonly organisationId: number;
  readonly userId: number;
}

export interface ExpenseValues {
  amount?: number;
  description?: string;
  submitted?: string | null;
  date?: string;
  miles?: number | null;
  passengers?: number | null;
  typeId?: number;
  rateId?: number | null;
  roleId?: number | null;
}

/** A create (`id` is the new one, drawn by the handler) or an update of the caller's expense. */
export interface SaveExpense extends ExpenseActor {
  readonly id: number;
  readonly values: ExpenseValues;
}

/** A mileage rate as the expense rules need it. */
export type MileageRate = RateForDate & { readonly rate: number; readonly passenger_rate: number };

/** What the handler looked up for a save: the organisation's rules and what the values name (see `mergeValues`). */
export interface SaveContext {
  /** Today in the organisation's zone, and its expenses_max_age in months (null: no limit). */
  readonly today: string;
  readonly maxAgeMonths: number | null;
  /** Whether values.typeId, when given, is a live type of the organisation. */
  readonly typeKnown: boolean;
  /** The live rate of the merged rateId; null when there is none or it is not the organisation's. */
  readonly rate: MileageRate | null;
  /** Whether the merged roleId, when set, is one of the caller's roles. */
  readonly roleIsOwn: boolean;
}

/** The values after the change: given ones over the current ones (null clears rate, role, miles, passengers, submitted). */
export function mergeValues(current: ExpenseState | null, v: ExpenseValues) {
  return {
    typeId: v.typeId ?? current?.typeId,
    rateId: v.rateId !== undefined ? v.rateId : (current?.rateId ?? null),
    roleId: v.roleId !== undefined ? v.roleId : (current?.roleId ?? null),
    date: v.date ?? current?.date,
    miles: v.miles !== undefined ? v.miles : (current?.miles ?? null),
    passengers: v.passengers !== undefined ? v.passengers : (current?.passengers ?? null),
    amount: v.amount ?? current?.amount,
    description: v.description ?? current?.description ?? '',
    submitted: v.submitted !== undefined ? v.submitted : (current?.submitted ?? null),
  };
}

/** The caller's own live expense; another's, a deleted one or none at all is not found. */
function own(state: ExpenseState | null, by: ExpenseActor): ExpenseState {
  if (!state || state.deleted || state.organisationId !== by.organisationId || state.userId !== by.userId)
    throw new NotFoundError('Expense');
  return state;
}

/**
 * A claimed expense is frozen: no change, no deletion, no attachment
 * (docs/expense-rules.md#a-claimed-expense-is-frozen).
 */
function unclaimed(state: ExpenseState): void {
  if (state.claimId !== null) throw new ConflictError('A claimed expense cannot be changed or deleted.');
}

/** A new expense of the caller, every rule checked (decideUpdate's rules over no current values). */
export function decideCreate(state: ExpenseState | null, cmd: SaveExpense, ctx: SaveContext): ExpenseEvent[] {
  if (state) throw new ConflictError('The expense exists already.');
  return [{ type: 'expenses.ExpenseRecorded', data: expenseAfter(null, cmd, ctx) }];
}

/** A change of the caller's unclaimed expense; one that leaves every field as it was records nothing. */
export function decideUpdate(state: ExpenseState | null, cmd: SaveExpense, ctx: SaveContext): ExpenseEvent[] {
  const current = own(state, cmd);
  unclaimed(current);
  const data = expenseAfter(current, cmd, ctx);
  const unchanged = (Object.keys(data) as (keyof ExpenseData)[]).every((k) => current[k] === data[k]);
  return unchanged ? [] : [{ type: 'expenses.ExpenseChanged', data }];
}

/**
 * The expense after the change, with every broken rule named in one 422: a type is required and
 * must be the organisation's; a rate must be the organisation's and then computes the amount from
 * the miles, which it requires; without a rate the amount is required; the role must be the
 * caller's; the date is required, not in the future nor older than the organisation allows.
 */
function expenseAfter(current: ExpenseState | null, cmd: SaveExpense, ctx: SaveContext): ExpenseData {
  const v = cmd.values;
  const merged = mergeValues(current, v);
  const errors: Record<string, string[]> = {};
  if (merged.typeId === undefined) errors['type.id'] = ['The type field is required.'];
  else if (v.typeId !== undefined && !ctx.typeKnown) errors['type.id'] = ['The selected type is invalid.'];
  const rate = merged.rateId === null ? null : ctx.rate;
  if (merged.rateId !== null && !rate) errors['rate.id'] = ['The selected rate is invalid.'];
  if (merged.roleId !== null && !ctx.roleIsOwn) errors['role.id'] = ['The role must be one of your roles.'];
  if (!merged.date) errors.date = ['The date field is required.'];
  if (!rate && merged.amount === undefined && !errors['rate.id'])
    errors.amount = ['The amount field is required without a rate.'];
  if (merged.date) Object.assign(errors, checkExpense({ date: merged.date, miles: merged.miles, rate }, ctx));
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const amount = rate ? mileageAmount(merged.miles!, merged.passengers ?? 0, rate) : merged.amount!;
  return {
    id: cmd.id,
    organisationId: cmd.organisationId,
    userId: cmd.userId,
    ...merged,
    typeId: merged.typeId!,
    date: merged.date!,
    amount,
  };
}

/** Deleting the caller's unclaimed expense. */
export function decideDelete(state: ExpenseState | null, cmd: ExpenseActor & { readonly id: number }): ExpenseEvent[] {
  unclaimed(own(state, cmd));
  return [{ type: 'expenses.ExpenseDeleted', data: { id: cmd.id, organisationId: cmd.organisationId } }];
}

/** Attaching (attach) a file to the caller's unclaimed expense, or taking it off. */
export interface AttachFile extends ExpenseActor {
  readonly expenseId: number;
  readonly fileId: number;
  readonly attach: boolean;
}

/** The file, looked up for the caller: null when the caller cannot see it. */
export interface AttachContext {
  readonly file: { readonly ownerId: number } | null;
}

/**
 * Attaching a file the caller uploaded (attaching it again changes nothing), or taking off one that
 * is attached; either only while the expense is unclaimed.
 */
export function decideAttach(state: ExpenseState | null, cmd: AttachFile, ctx: AttachContext): ExpenseEvent[] {
  if (!ctx.file) throw new NotFoundError('File');
  const expense = own(state, cmd);
  const attached = expense.attachments.includes(cmd.fileId);
  if (cmd.attach && attached) return [];
  if (!cmd.attach && !attached) throw new NotFoundError('Attachment');
  unclaimed(expense);
  if (cmd.attach && ctx.file.ownerId !== cmd.userId)
    throw new ForbiddenError('Only files you uploaded can be attached.');
  const data = { expenseId: cmd.expenseId, organisationId: cmd.organisationId, fileId: cmd.fileId };
  return [{ type: cmd.attach ? 'expenses.AttachmentAdded' : 'expenses.AttachmentRemoved', data }];
}
