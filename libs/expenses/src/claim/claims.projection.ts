import { Injectable } from '@nestjs/common';
import { AsProjection, op, type Projection, type ProjectionOp, type StoredEvent } from '#app/event-store';
import type { ClaimEvent } from '../expenses.events.js';

@AsProjection()
@Injectable()
export class ClaimsProjection implements Projection {
  readonly name = 'expenses.claims';
  readonly version = 1;
  readonly tables = ['claims'];
  readonly handles = ['expenses.ClaimCreated', 'expenses.ClaimChanged', 'expenses.ClaimApproved', 'expenses.ClaimRejected', 'expenses.ClaimSubmitted'];

  project(stored: StoredEvent): ProjectionOp[] {
    const e = stored as unknown as ClaimEvent;
    const at = stored.recordedAt;
    const where = { id: e.data.id };
    switch (e.type) {
      case 'expenses.ClaimCreated': {
        const d = e.data;
        return [
          op.upsert('claims', ['id'], {
            id: d.id, organisation_id: d.organisationId, user_id: d.userId, assigned_to: d.assignedTo, role_id: d.roleId, amount: d.amount, notes: d.notes,
            approved: false, approved_by: null, approved_at: null, approval_note: null, rejected: false, rejection_note: null, submitted: false, submitted_at: null,
            created_at: at, updated_at: at,
          }),
        ];
      }
      case 'expenses.ClaimChanged':
        return [op.update('claims', where, { notes: e.data.notes, assigned_to: e.data.assignedTo, updated_at: at })];
      case 'expenses.ClaimApproved':
        return [op.update('claims', where, { approved: true, approved_by: e.data.approvedBy, approved_at: e.data.approvedAt, approval_note: e.data.note, updated_at: at })];
      case 'expenses.ClaimRejected':
        return [op.update('claims', where, { rejected: true, rejection_note: e.data.note, updated_at: at })];
      case 'expenses.ClaimSubmitted':
        return [op.update('claims', where, { submitted: true, submitted_at: e.data.submittedAt, updated_at: at })];
      default:
        return [];
    }
  }
}
