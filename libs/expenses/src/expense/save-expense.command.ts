import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, Roles } from '#app/identity';
import { SettingsViews } from '#app/organisation';
import { type ExpenseData, streams } from '../expenses.events.js';
import { IdBlocks } from '../next-id.js';
import { ExpenseSettingsQueries } from '../types/expense-settings.queries.js';
import {
  decideCreate,
  decideUpdate,
  evolve,
  type ExpenseState,
  type ExpenseValues,
  mergeValues,
  type SaveContext,
} from './expense.js';
import { todayIn } from './expense-rules.js';

/** What a save wrote: enough to answer a create without reading the row back. */
export interface SavedExpense {
  readonly id: number;
  readonly data: ExpenseData;
  /** Null when an update changed nothing, so nothing was recorded; a create always records. */
  readonly recordedAt: Date | null;
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
   * A create draws its id and looks everything up first, then appends at 'no_stream' without
   * reading: the event and its projection rows in one statement, one round trip (the hot path,
   * bench/README.md). An update's lookups depend on the expense (its rate and role unless the
   * values change them), so they run in the decision, which `handle` calls outside any transaction
   * (the embedded database serves one at a time); a change in between loses the race (409).
   */
  async execute({ caller, id, values }: SaveExpenseCommand): Promise<SavedExpense> {
    if (id === null) {
      const expenseId = await this.ids.next('expense');
      const cmd = { id: expenseId, organisationId: caller.organisationId, userId: caller.userId, values };
      const ctx = await this.lookUp(caller, null, values);
      const { events } = await this.store.handle(
        streams.expense(expenseId),
        evolve,
        (state) => decideCreate(state, cmd, ctx),
        { expect: 'no_stream', metadata: metadataOf(caller) },
      );
      return { id: expenseId, data: events[0]!.data as ExpenseData, recordedAt: events[0]!.recordedAt };
    }
    const cmd = { id, organisationId: caller.organisationId, userId: caller.userId, values };
    const { events, state } = await this.store.handle(
      streams.expense(id),
      evolve,
      async (current) => decideUpdate(current, cmd, await this.lookUp(caller, current, values)),
      { metadata: metadataOf(caller) },
    );
    if (events.length === 0) return { id, data: state!, recordedAt: null };
    return { id, data: events[0]!.data as ExpenseData, recordedAt: events[0]!.recordedAt };
  }

  /** What the rules need to know about the type, rate and role the expense will have, and the organisation's dates. */
  private async lookUp(caller: Caller, current: ExpenseState | null, values: ExpenseValues): Promise<SaveContext> {
    const { rateId, roleId } = mergeValues(current, values);
    const typeKnown =
      values.typeId === undefined ||
      (await this.settings.type(caller, values.typeId).then(
        () => true,
        () => false,
      ));
    const rate = rateId === null ? null : await this.settings.rate(caller, rateId).catch(() => null);
    const roleIsOwn = roleId === null || (await this.roles.belongsTo(caller, roleId, caller.userId));
    return { ...(await this.orgRules(caller)), typeKnown, rate, roleIsOwn };
  }

  private async orgRules(caller: Caller): Promise<{ today: string; maxAgeMonths: number | null }> {
    const values = await this.organisation.values(caller.organisationId, ['timezone', 'expenses_max_age']);
    const maxAge = Number(values.expenses_max_age);
    return { today: todayIn(String(values.timezone)), maxAgeMonths: maxAge > 0 ? maxAge : null };
  }
}
