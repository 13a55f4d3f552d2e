import { personalData } from '#app/event-store';

/**
 * Expenses' personal data in the log (docs/privacy.md, "Sealed fields in the log"): the texts a
 * claimant writes or that are written about their claims, sealed with the claimant's key. Claim
 * events after ClaimCreated carry the claimant's `userId` for this (older ones are sealed by the
 * migration, which finds the claimant in the stream's ClaimCreated).
 */
personalData.declare<{ userId: number }>(['expenses.ExpenseRecorded', 'expenses.ExpenseChanged'], {
  owner: (d) => d.userId,
  fields: { description: '' },
});
personalData.declare<{ userId: number }>(['expenses.ClaimCreated', 'expenses.ClaimChanged'], {
  owner: (d) => d.userId,
  fields: { notes: '' },
});
personalData.declare<{ userId: number }>('expenses.ClaimApproved', { owner: (d) => d.userId, fields: { note: null } });
personalData.declare<{ userId: number }>('expenses.ClaimRejected', { owner: (d) => d.userId, fields: { note: '' } });

// The organisation's settings: its expense types, rates and finance address.
personalData.organisation(['expenses.ExpenseTypeCreated', 'expenses.ExpenseTypeChanged'], ['name']);
personalData.organisation(['expenses.ExpenseRateCreated', 'expenses.ExpenseRateChanged'], ['description', 'shortName']);
personalData.organisation('expenses.ClaimSubmitted', ['financeEmail']);
