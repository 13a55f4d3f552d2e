import { defineHistory } from '#app/event-store';
import type { ClaimEvent } from '../expenses.events.js';

/** The Claim's date-time shape (claim.responses.ts): UTC, whole seconds, as the projection's column reads back. */
const claimStamp = (iso: string) => `${new Date(iso).toISOString().slice(0, 19)}Z`;

/**
 * What each event of a claim set on the Claim record, with its field names and output shapes
 * (docs/expense-rules.md#claim-history). The finance address a submission was mailed to is the organisation's
 * setting, not the claim's, and is left out (the owner may not read the settings).
 */
export const CLAIM_HISTORY = defineHistory<ClaimEvent>({
  'expenses.ClaimCreated': ({ data: d }) => ({
    user_id: d.userId,
    assigned_to_id: d.assignedTo,
    amount: d.amount,
    notes: d.notes,
    role: d.roleId === null ? null : { id: d.roleId },
    expenses: d.expenseIds.map((id) => ({ id })),
  }),
  'expenses.ClaimChanged': ({ data: d }) => ({ notes: d.notes, assigned_to_id: d.assignedTo }),
  'expenses.ClaimApproved': ({ data: d }) => ({
    approved: true,
    approved_by_id: d.approvedBy,
    approved_at: claimStamp(d.approvedAt),
    approval_note: d.note,
  }),
  // The claim's expenses are released with it (the Claim's `expenses` include is empty from then on).
  'expenses.ClaimRejected': ({ data: d }) => ({ rejection_note: d.note, expenses: [] }),
  'expenses.ClaimSubmitted': ({ data: d }) => ({ submitted: true, submitted_at: claimStamp(d.submittedAt) }),
  // Shown: when the finance mail went out (the system's doing); it changes no field of the claim.
  'expenses.ClaimSubmissionMailed': () => ({}),
});
