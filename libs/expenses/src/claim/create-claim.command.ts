import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore, type StreamEvents } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { SettingsViews } from '#app/organisation';
import { expenseStream } from '../expense/expense.js';
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
    const expenses: Record<`expense-${number}`, ReturnType<typeof expenseStream>> = Object.fromEntries(
      distinct.map((e) => [`expense-${e}`, expenseStream(e)]),
    );
    await this.store.write({
      // Object.assign keeps the expenses' names in the type, where a spread would drop them.
      streams: () => Object.assign({ claim: { streamId: streams.claim(id), expect: 'no_stream' as const } }, expenses),
      decide: (states, { now }) => {
        const events = decideCreate(
          null,
          { id, organisationId: caller.organisationId, userId: caller.userId, assignedTo, notes, expenseIds },
          {
            now: new Date(now).toISOString(),
            assigneeIsAuthoriser,
            requireAuthorisation: settings.expenses_require_authorisation !== '0',
            expenses: expenseIds.map((e) => states[`expense-${e}`] ?? null),
          },
        );
        return [{ streamId: streams.claim(id), events }, ...distinct.map((e) => claimed(e, caller.organisationId, id))];
      },
      metadata: metadataOf(caller),
      // Of two claims racing for an expense, the loser gets a 409 (not decided again).
      retries: 0,
    });
    return id;
  }
}
