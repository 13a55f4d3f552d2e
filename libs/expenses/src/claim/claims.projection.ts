import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { UserAnonymisedEvent } from '#app/identity';
import type { ClaimEvent } from '../expenses.events.js';

/** Claims as the API lists them. */
@AsProjection()
@Injectable()
export class ClaimsProjection extends defineProjection<ClaimEvent | UserAnonymisedEvent>({
  name: 'expenses.claims',
  version: 1,
  tables: ['claims'],
  on: {
    // docs/privacy.md#anonymising-a-user: the claims stay (finance records), their texts become "".
    'identity.UserAnonymised': ({ data: d }) => [
      op.update('claims', { user_id: d.userId }, { notes: '' }),
      op.update('claims', { user_id: d.userId, approved: true }, { approval_note: '' }),
      op.update('claims', { user_id: d.userId, rejected: true }, { rejection_note: '' }),
    ],
    'expenses.ClaimCreated': ({ data: d, recordedAt: at }) => [
      op.upsert('claims', ['id'], {
        id: d.id,
        organisation_id: d.organisationId,
        user_id: d.userId,
        assigned_to: d.assignedTo,
        role_id: d.roleId,
        amount: d.amount,
        notes: d.notes,
        approved: false,
        approved_by: null,
        approved_at: null,
        approval_note: null,
        rejected: false,
        rejection_note: null,
        submitted: false,
        submitted_at: null,
        created_at: at,
        updated_at: at,
      }),
    ],
    'expenses.ClaimChanged': ({ data: d, recordedAt: at }) => [
      op.update('claims', { id: d.id }, { notes: d.notes, assigned_to: d.assignedTo, updated_at: at }),
    ],
    'expenses.ClaimApproved': ({ data: d, recordedAt: at }) => [
      op.update(
        'claims',
        { id: d.id },
        { approved: true, approved_by: d.approvedBy, approved_at: d.approvedAt, approval_note: d.note, updated_at: at },
      ),
    ],
    'expenses.ClaimRejected': ({ data: d, recordedAt: at }) => [
      op.update('claims', { id: d.id }, { rejected: true, rejection_note: d.note, updated_at: at }),
    ],
    'expenses.ClaimSubmitted': ({ data: d, recordedAt: at }) => [
      op.update('claims', { id: d.id }, { submitted: true, submitted_at: d.submittedAt, updated_at: at }),
    ],
    // The finance mail's delivery is history, not part of the claim record (docs/expense-rules.md#claim-history).
    'expenses.ClaimSubmissionMailed': null,
  },
}) {}
