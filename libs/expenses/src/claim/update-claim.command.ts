import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore, type StreamEvents } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { SettingsViews } from '#app/organisation';
import { isEmailAddress } from '#app/platform';
import { expenseStream } from '../expense/expense.js';
import { type ClaimEvent, type ExpenseEvent, streams } from '../expenses.events.js';
import { type ClaimState, type ClaimUpdate, decideUpdate, evolve } from './claim.js';
import { ExpensesPolicy } from '../expenses.policy.js';

export class UpdateClaimCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly ownerId: number,
    readonly claimId: number,
    readonly update: ClaimUpdate,
  ) {
    super();
  }
}

@CommandHandler(UpdateClaimCommand)
export class UpdateClaimHandler implements ICommandHandler<UpdateClaimCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: ExpensesPolicy,
    private readonly organisation: SettingsViews,
  ) {}

  /**
   * The owner and the owner's approvers act on a claim; anyone else of the organisation gets a 403,
   * before the claim is looked at. A rejection releases the claim's expenses: their streams are
   * known from the claim's, read in the write's plan, and the decision is then made over the claim
   * and them together (a claim that moved after the decision's read loses the race, 409).
   */
  async execute({ caller, ownerId, claimId, update }: UpdateClaimCommand): Promise<void> {
    const { approvesOwner, selfApproves } = this.policy.claimAuthority(
      caller,
      ownerId,
      await this.policy.access(caller, ownerId),
    );
    const assigneeIsAuthoriser =
      update.assignedTo === undefined || (await this.policy.authorisersOf(caller, ownerId)).includes(update.assignedTo);
    const { expenses_submission_email: finance } = await this.organisation.values(caller.organisationId, [
      'expenses_submission_email',
    ]);
    const financeEmail = typeof finance === 'string' && isEmailAddress(finance) ? finance : null;
    const decide = (state: ClaimState | null, now: number) =>
      decideUpdate(
        state,
        { actorId: caller.userId, organisationId: caller.organisationId, ownerId, update },
        { now: new Date(now).toISOString(), approvesOwner, selfApproves, financeEmail, assigneeIsAuthoriser },
      );
    const claim = streams.claim(claimId);
    if (update.rejectionNote === undefined) {
      await this.store.handle(claim, evolve, decide, { metadata: metadataOf(caller) });
      return;
    }
    await this.store.write({
      // The expenses the claim lists (fixed when it is created; none when there is no such claim).
      plan: async ({ read }) => (await read({ claim: { streamId: claim, evolve } })).claim?.expenseIds ?? [],
      streams: (expenseIds) => {
        const expenses: Record<`expense-${number}`, ReturnType<typeof expenseStream>> = Object.fromEntries(
          expenseIds.map((e) => [`expense-${e}`, expenseStream(e)]),
        );
        // Object.assign keeps the claim's name in the type, where a spread would lose it.
        return Object.assign({ claim: { streamId: claim, evolve } }, expenses);
      },
      decide: (states, given) => {
        const events = decide(states.claim, given.now);
        const rejection = events.find(
          (e): e is Extract<ClaimEvent, { type: 'expenses.ClaimRejected' }> => e.type === 'expenses.ClaimRejected',
        );
        // A rejected claim's expenses return to unclaimed, free for another claim.
        const released = (rejection?.data.expenseIds ?? []).map((expenseId): StreamEvents => ({
          streamId: streams.expense(expenseId),
          events: [
            {
              type: 'expenses.ExpenseReleased',
              data: { expenseId, organisationId: caller.organisationId, claimId },
            } satisfies ExpenseEvent,
          ],
        }));
        return [{ streamId: claim, events }, ...released];
      },
      metadata: metadataOf(caller),
      // A claim that moved since it was read loses the race: a 409, not decided again.
      retries: 0,
    });
  }
}
