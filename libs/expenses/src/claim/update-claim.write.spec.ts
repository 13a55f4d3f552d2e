import { describe, expect, it } from '@jest/globals';
import { ForbiddenError } from '#app/platform';
import { type ClaimEvent, streams } from '../expenses.events.js';
import { type ClaimState, evolve } from './claim.js';
import { type ClaimUpdateInput, decideClaimUpdate, financeEmailOf, rejectClaimWrite } from './update-claim.write.js';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const created: ClaimEvent = {
  type: 'expenses.ClaimCreated',
  data: {
    id: 9,
    organisationId: 1,
    userId: 5,
    assignedTo: 6,
    roleId: null,
    amount: 12.5,
    notes: 'trip',
    expenseIds: [1, 2],
  },
};
const open = evolve(null, created as never) as ClaimState;
const input = (more: Partial<ClaimUpdateInput> = {}): ClaimUpdateInput => ({
  actorId: 6,
  organisationId: 1,
  ownerId: 5,
  claimId: 9,
  update: { rejectionNote: 'no' },
  authority: { approvesOwner: true, selfApproves: false, financeEmail: null, assigneeIsAuthoriser: true },
  ...more,
});

describe('rejectClaimWrite', () => {
  it('given an open claim of two expenses, when an approver rejects it, then the claim is rejected and both released', () => {
    const write = rejectClaimWrite(input());
    expect(Object.keys(write.streams([1, 2])).sort()).toEqual(['claim', 'expense-1', 'expense-2']);
    const appends = write.decide({ claim: open }, { now: NOW });
    expect(appends.map((a) => a.streamId)).toEqual([streams.claim(9), streams.expense(1), streams.expense(2)]);
    expect(appends[0]!.events.map((e) => e.type)).toEqual(['expenses.ClaimRejected']);
    expect(appends.slice(1).map((a) => a.events[0])).toEqual([
      { type: 'expenses.ExpenseReleased', data: { expenseId: 1, organisationId: 1, claimId: 9 } },
      { type: 'expenses.ExpenseReleased', data: { expenseId: 2, organisationId: 1, claimId: 9 } },
    ]);
    expect(write.retries).toBe(0);
  });

  it('given a caller without approval over the owner, then the refusal of the claim decision', () => {
    const write = rejectClaimWrite(input({ authority: { ...input().authority, approvesOwner: false } }));
    expect(() => write.decide({ claim: open }, { now: NOW })).toThrow(ForbiddenError);
  });
});

describe('decideClaimUpdate', () => {
  it('when the owner edits the notes, then the instant is the store one, as an ISO string', () => {
    const events = decideClaimUpdate(input({ actorId: 5, update: { notes: 'new' } }))(open, NOW);
    expect(events.map((e) => e.type)).toContain('expenses.ClaimChanged');
  });
});

describe('financeEmailOf', () => {
  it('given a valid address, then it; given anything else, then null', () => {
    expect(financeEmailOf('f@x.example')).toBe('f@x.example');
    expect(financeEmailOf('nope')).toBeNull();
    expect(financeEmailOf(3)).toBeNull();
  });
});
