import type { Planning, StreamEvents } from '#app/event-store';
import { isEmailAddress } from '#app/platform';
import { expenseStream } from '../expense/expense.js';
import { type ClaimEvent, type ExpenseEvent, streams } from '../expenses.events.js';
import { type ClaimState, type UpdateClaim, type UpdateContext, decideUpdate, evolve } from './claim.js';

/** An update of a claim as its write decides it: the body, and the caller's authority read before. */
export interface ClaimUpdateInput extends UpdateClaim {
  readonly claimId: number;
  readonly authority: Omit<UpdateContext, 'now'>;
}

/** The organisation's expenses_submission_email, when it holds a valid address. */
export const financeEmailOf = (value: unknown): string | null =>
  typeof value === 'string' && isEmailAddress(value) ? value : null;

/** The claim's decision at the store's instant. */
export const decideClaimUpdate =
  ({ claimId: _claimId, authority, ...cmd }: ClaimUpdateInput) =>
  (state: ClaimState | null, now: number): ClaimEvent[] =>
    decideUpdate(state, cmd, { now: new Date(now).toISOString(), ...authority });

/**
 * A rejection releases the claim's expenses: their streams are known from the claim's, read in the
 * write's plan, and the decision is then made over the claim and them together (a claim that moved
 * after the decision's read loses the race, 409).
 */
export function rejectClaimWrite(input: ClaimUpdateInput) {
  const claim = streams.claim(input.claimId);
  const decide = decideClaimUpdate(input);
  return {
    // The expenses the claim lists (fixed when it is created; none when there is no such claim).
    plan: async ({ read }: Planning) => (await read({ claim: { streamId: claim, evolve } })).claim?.expenseIds ?? [],
    streams: (expenseIds: readonly number[]) => {
      const expenses: Record<`expense-${number}`, ReturnType<typeof expenseStream>> = Object.fromEntries(
        expenseIds.map((e) => [`expense-${e}`, expenseStream(e)]),
      );
      // Object.assign keeps the claim's name in the type, where a spread would lose it.
      return Object.assign({ claim: { streamId: claim, evolve } }, expenses);
    },
    decide: (states: { claim: ClaimState | null }, given: { now: number }): StreamEvents[] => {
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
            data: { expenseId, organisationId: input.organisationId, claimId: input.claimId },
          } satisfies ExpenseEvent,
        ],
      }));
      return [{ streamId: claim, events }, ...released];
    },
    // A claim that moved since it was read loses the race: a 409, not decided again.
    retries: 0,
  };
}
