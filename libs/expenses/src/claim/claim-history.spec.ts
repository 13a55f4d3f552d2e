import { describe, expect, it } from '@jest/globals';
import { type StoredEvent, userActor } from '#app/event-store';
import type { ClaimEvent } from '../expenses.events.js';
import { CLAIM_HISTORY } from './claim-history.js';

const stored = (event: ClaimEvent): StoredEvent => ({
  position: 1,
  transactionId: '1',
  eventId: 'e',
  streamId: 'expenses.Claim-7',
  streamVersion: 1,
  schemaVersion: 1,
  metadata: { actor: userActor(1) },
  recordedAt: new Date(),
  ...event,
});
const base = { id: 7, organisationId: 1 };

describe('claim history format (the Claim’s field names and output shapes)', () => {
  it('given a claim created, then its owner, authoriser, amount, notes, role and expenses', () => {
    expect(
      CLAIM_HISTORY.changes(
        stored({
          type: 'expenses.ClaimCreated',
          data: { ...base, userId: 5, assignedTo: 6, roleId: null, amount: 12.5, notes: 'bus', expenseIds: [3, 4] },
        }),
      ),
    ).toEqual({
      user_id: 5,
      assigned_to_id: 6,
      amount: 12.5,
      notes: 'bus',
      role: null,
      expenses: [{ id: 3 }, { id: 4 }],
    });
  });

  it('given approval and submission, then their flags, people and times as the Claim shows them (UTC, whole seconds)', () => {
    expect(
      CLAIM_HISTORY.changes(
        stored({
          type: 'expenses.ClaimApproved',
          data: { ...base, approvedBy: 6, approvedAt: '2027-03-01T09:30:15.123Z', note: 'ok' },
        }),
      ),
    ).toEqual({
      approved: true,
      approved_by_id: 6,
      approved_at: '2027-03-01T09:30:15Z',
      approval_note: 'ok',
    });
    expect(
      CLAIM_HISTORY.changes(
        stored({
          type: 'expenses.ClaimSubmitted',
          data: { ...base, submittedBy: 6, submittedAt: '2027-03-02T10:00:00.000Z', financeEmail: 'finance@r.example' },
        }),
      ),
    ).toEqual({
      submitted: true,
      submitted_at: '2027-03-02T10:00:00Z',
    });
  });

  it('given the finance mail sent, then an entry without fields: the organisation’s finance address never shows', () => {
    const mailed = CLAIM_HISTORY.changes(
      stored({
        type: 'expenses.ClaimSubmissionMailed',
        data: { claimId: 7, organisationId: 1, to: 'finance@r.example', mailedAt: '2027-03-02T10:00:01Z' },
      }),
    );
    expect(mailed).toEqual({});
    expect(
      JSON.stringify(
        CLAIM_HISTORY.changes(
          stored({
            type: 'expenses.ClaimSubmitted',
            data: { ...base, submittedBy: 6, submittedAt: '2027-03-02T10:00:00Z', financeEmail: 'finance@r.example' },
          }),
        ),
      ),
    ).not.toContain('finance@');
  });

  it('given a change and a rejection, then notes and authoriser; the rejection note and the released expenses', () => {
    expect(
      CLAIM_HISTORY.changes(stored({ type: 'expenses.ClaimChanged', data: { ...base, notes: 'n', assignedTo: 8 } })),
    ).toEqual({ notes: 'n', assigned_to_id: 8 });
    expect(
      CLAIM_HISTORY.changes(
        stored({ type: 'expenses.ClaimRejected', data: { ...base, rejectedBy: 6, note: 'no', expenseIds: [3] } }),
      ),
    ).toEqual({ rejection_note: 'no', expenses: [] });
  });
});
