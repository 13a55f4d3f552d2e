import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore, type StreamEvents } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { SettingsViews } from '#app/organisation';
import { expenseStream, type ExpenseState } from '../expense/expense.js';
import { type ExpenseEvent, streams } from '../expenses.events.js';
import { ExpensesPolicy } from '../expenses.policy.js';
import { nextId } from '../next-id.js';
import { decideCreate } from './claim.js';

const claimed = (expenseId: number, organisationId: number, claimId: number): StreamEvents => ({
  streamId: streams.expense(expenseId),
  events: [{ type: 'expenses.ExpenseClaimed', data: { expenseId, organisationId, claimId } } satisfies ExpenseEvent],
});

export class CreateClaimCommand extends Command<number> {
  constructor(
    readonly caller: Caller,
    readonly assignedTo: number,
    readonly notes: string,
    readonly expenseIds: number[],
  ) {
    super();
  }
}

/**
 * A claim over the caller's unclaimed expenses of one role (the rules: decideCreate). The claim
 * and every expense's "claimed" are appended together at the versions read, so of two claims
 * racing for an expense one wins and the other gets a 409.
 */
@CommandHandler(CreateClaimCommand)
export class CreateClaimHandler implements ICommandHandler<CreateClaimCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly policy: ExpensesPolicy,
    private readonly organisation: SettingsViews,
  ) {}

  async execute({ caller, assignedTo, notes, expenseIds }: CreateClaimCommand): Promise<number> {
    // Everything outside the streams first: the embedded database serves one transaction at a time.
    const assigneeIsAuthoriser = (await this.policy.authorisersOf(caller, caller.userId)).includes(assignedTo);
    const settings = await this.organisation.values(caller.organisationId, ['expenses_require_authorisation']);
    const id = await nextId(this.dataSource.manager, 'claim');
    // Each expense's stream once (decideCreate refuses an expense listed twice).
    const distinct = [...new Set(expenseIds)];
    await this.store.handleMany(
      [{ streamId: streams.claim(id), expect: 'no_stream' }, ...distinct.map(expenseStream)],
      ([, ...states]) => {
        const stateOf = new Map(distinct.map((expenseId, i) => [expenseId, states[i] as ExpenseState | null]));
        const events = decideCreate(
          null,
          { id, organisationId: caller.organisationId, userId: caller.userId, assignedTo, notes, expenseIds },
          {
            now: new Date().toISOString(),
            assigneeIsAuthoriser,
            requireAuthorisation: settings.expenses_require_authorisation !== '0',
            expenses: expenseIds.map((e) => stateOf.get(e) ?? null),
          },
        );
        return [{ streamId: streams.claim(id), events }, ...distinct.map((e) => claimed(e, caller.organisationId, id))];
      },
      { metadata: metadataOf(caller) },
    );
    return id;
  }
}
