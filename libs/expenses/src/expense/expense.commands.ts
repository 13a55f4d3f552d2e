import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { EventStore, type NewEvent } from '#app/event-store';
import { FileRecords } from '#app/files';
import { type Caller, Roles } from '#app/identity';
import { SettingsViews } from '#app/organisation';
import { ForbiddenError, NotFoundError, ValidationError } from '#app/platform';
import { type ExpenseData, type ExpenseEvent, streams } from '../expenses.events.js';
import { IdBlocks } from '../next-id.js';
import { ExpenseSettingsQueries } from '../types/expense-settings.queries.js';
import { assertUnclaimed, evolve, type ExpenseState } from './expense.js';
import { checkExpense, mileageAmount, todayIn } from './expense-rules.js';

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

/** What a save wrote: enough to answer a create without reading the row back. */
export interface SavedExpense {
  readonly id: number;
  readonly data: ExpenseData;
  readonly recordedAt: Date;
}

/** Records (id null) or changes an expense of the caller. */
export class SaveExpenseCommand extends Command<SavedExpense> {
  constructor(
    readonly caller: Caller,
    readonly id: number | null,
    readonly values: ExpenseValues,
  ) {
    super();
  }
}

export class DeleteExpenseCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly id: number,
  ) {
    super();
  }
}

export class AttachFileCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly expenseId: number,
    readonly fileId: number,
    readonly attach: boolean,
  ) {
    super();
  }
}

/** Loads the caller's own expense: another's, or a deleted one, is not found. */
async function ownExpense(store: EventStore, tx: EntityManager | undefined, caller: Caller, id: number) {
  const { state, version } = await store.load(streams.expense(id), evolve, tx);
  if (!state || state.deleted || state.organisationId !== caller.organisationId || state.userId !== caller.userId) throw new NotFoundError('Expense');
  return { state, version };
}

const meta = (caller: Caller) => ({ organisationId: caller.organisationId, actorId: caller.userId });

@CommandHandler(SaveExpenseCommand)
export class SaveExpenseHandler implements ICommandHandler<SaveExpenseCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly ids: IdBlocks,
    private readonly settings: ExpenseSettingsQueries,
    private readonly organisation: SettingsViews,
    private readonly roles: Roles,
  ) {}

  /**
   * Reads and checks first, then appends at the version read: the checks query other tables,
   * and the embedded database serves one transaction at a time, so they must not run inside it.
   * A change in between loses the optimistic race (409) rather than slipping through.
   */
  async execute({ caller, id, values }: SaveExpenseCommand): Promise<SavedExpense> {
    const current = id === null ? null : await ownExpense(this.store, undefined, caller, id);
    if (current) assertUnclaimed(current.state);
    const expenseId = id ?? (await this.ids.next('expense'));
    const data = await this.decide(caller, expenseId, current?.state ?? null, values);
    const event: ExpenseEvent = { type: id === null ? 'expenses.ExpenseRecorded' : 'expenses.ExpenseChanged', data };
    const { events } = await this.store.commit(
      { streamId: streams.expense(expenseId), expectedVersion: current?.version ?? 'no_stream', events: [event as NewEvent] },
      meta(caller),
    );
    return { id: expenseId, data, recordedAt: events[0]!.recordedAt };
  }

  /** The expense after the change, with every rule checked and the mileage amount computed. */
  private async decide(caller: Caller, id: number, current: ExpenseState | null, v: ExpenseValues): Promise<ExpenseData> {
    const merged = {
      typeId: v.typeId ?? current?.typeId, rateId: v.rateId !== undefined ? v.rateId : (current?.rateId ?? null), roleId: v.roleId !== undefined ? v.roleId : (current?.roleId ?? null),
      date: v.date ?? current?.date, miles: v.miles !== undefined ? v.miles : (current?.miles ?? null), passengers: v.passengers !== undefined ? v.passengers : (current?.passengers ?? null),
      amount: v.amount ?? current?.amount, description: v.description ?? current?.description ?? '', submitted: v.submitted !== undefined ? v.submitted : (current?.submitted ?? null),
    };
    const errors: Record<string, string[]> = {};
    if (merged.typeId === undefined) errors['type.id'] = ['The type field is required.'];
    else if (v.typeId !== undefined) await this.settings.type(caller, merged.typeId).catch(() => (errors['type.id'] = ['The selected type is invalid.']));
    const rate = merged.rateId === null ? null : await this.settings.rate(caller, merged.rateId).catch(() => ((errors['rate.id'] = ['The selected rate is invalid.']), null));
    if (merged.roleId !== null && !(await this.roles.belongsTo(caller, merged.roleId, caller.userId))) errors['role.id'] = ['The role must be one of your roles.'];
    if (!merged.date) errors.date = ['The date field is required.'];
    if (!rate && merged.amount === undefined && !errors['rate.id']) errors.amount = ['The amount field is required without a rate.'];
    if (merged.date) Object.assign(errors, checkExpense({ date: merged.date, miles: merged.miles, rate }, await this.orgRules(caller)), errors);
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const amount = rate ? mileageAmount(merged.miles!, merged.passengers ?? 0, rate) : merged.amount!;
    return { id, organisationId: caller.organisationId, userId: caller.userId, ...merged, typeId: merged.typeId!, date: merged.date!, amount };
  }

  private async orgRules(caller: Caller): Promise<{ today: string; maxAgeMonths: number | null }> {
    const values = await this.organisation.values(caller.organisationId, ['timezone', 'expenses_max_age']);
    const maxAge = Number(values.expenses_max_age);
    return { today: todayIn(String(values.timezone)), maxAgeMonths: maxAge > 0 ? maxAge : null };
  }
}

@CommandHandler(DeleteExpenseCommand)
export class DeleteExpenseHandler implements ICommandHandler<DeleteExpenseCommand> {
  constructor(private readonly store: EventStore) {}

  execute({ caller, id }: DeleteExpenseCommand): Promise<void> {
    return this.store.transaction(async (tx) => {
      const { state, version } = await ownExpense(this.store, tx, caller, id);
      assertUnclaimed(state);
      const event: ExpenseEvent = { type: 'expenses.ExpenseDeleted', data: { id, organisationId: caller.organisationId } };
      await this.store.append(tx, [{ streamId: streams.expense(id), expectedVersion: version, events: [event as NewEvent] }], meta(caller));
    });
  }
}

/** Attaches a file the caller uploaded to the caller's unclaimed expense, or takes it off. */
@CommandHandler(AttachFileCommand)
export class AttachFileHandler implements ICommandHandler<AttachFileCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly files: FileRecords,
  ) {}

  async execute({ caller, expenseId, fileId, attach }: AttachFileCommand): Promise<void> {
    // Looked up before the transaction: the embedded database serves one transaction at a time.
    const file = await this.files.find(caller, fileId);
    if (!file) throw new NotFoundError('File');
    return this.store.transaction(async (tx) => {
      const { state, version } = await ownExpense(this.store, tx, caller, expenseId);
      const attached = state.attachments.includes(fileId);
      if (attach && attached) return;
      if (!attach && !attached) throw new NotFoundError('Attachment');
      assertUnclaimed(state);
      if (attach && file.ownerId !== caller.userId) throw new ForbiddenError('Only files you uploaded can be attached.');
      const event: ExpenseEvent = { type: attach ? 'expenses.AttachmentAdded' : 'expenses.AttachmentRemoved', data: { expenseId, organisationId: caller.organisationId, fileId } };
      await this.store.append(tx, [{ streamId: streams.expense(expenseId), expectedVersion: version, events: [event as NewEvent] }], meta(caller));
    });
  }
}
