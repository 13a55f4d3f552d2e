import { describe, expect, it } from '@jest/globals';
import { ConflictError, ForbiddenError, ValidationError } from '#app/platform';
import type { ClaimEvent } from '../expenses.events.js';
import { type Authority, type ClaimState, decideUpdate, evolve, type UpdateContext } from './claim.js';

const created: ClaimEvent = { type: 'expenses.ClaimCreated', data: { id: 9, organisationId: 1, userId: 5, assignedTo: 6, roleId: null, amount: 12.5, notes: 'trip', expenseIds: [1, 2] } };
const approved: ClaimEvent = { type: 'expenses.ClaimApproved', data: { id: 9, organisationId: 1, approvedBy: 6, approvedAt: '2026-11-20T10:00:00Z', note: null } };
const rejected: ClaimEvent = { type: 'expenses.ClaimRejected', data: { id: 9, organisationId: 1, rejectedBy: 6, note: 'no', expenseIds: [1, 2] } };
const submitted: ClaimEvent = { type: 'expenses.ClaimSubmitted', data: { id: 9, organisationId: 1, submittedBy: 6, submittedAt: '2026-11-21T10:00:00Z', financeEmail: 'f@x.example' } };
const given = (...events: ClaimEvent[]) => events.reduce<ClaimState | null>(evolve, null)!;

const approver: Authority = { actorId: 6, approvesOwner: true, selfApproves: false };
const owner: Authority = { actorId: 5, approvesOwner: false, selfApproves: false };
const selfApprover: Authority = { actorId: 5, approvesOwner: false, selfApproves: true };
const stranger: Authority = { actorId: 7, approvesOwner: false, selfApproves: false };
const ctx: UpdateContext = { now: '2026-11-21T12:00:00.000Z', financeEmail: 'finance@x.example', assigneeIsAuthoriser: true };

describe('claim state table', () => {
  describe('open → approved (approved = true)', () => {
    it('given an open claim, when an approver of the owner approves, then it is approved by them with the note', () => {
      expect(decideUpdate(given(created), { approved: true, approvalNote: 'fine' }, approver, ctx)).toEqual([
        { type: 'expenses.ClaimApproved', data: { id: 9, organisationId: 1, approvedBy: 6, approvedAt: ctx.now, note: 'fine' } },
      ]);
    });
    it('given the owner holds self-approve-claims, then the owner may approve', () => {
      expect(decideUpdate(given(created), { approved: true }, selfApprover, ctx)).toHaveLength(1);
    });
    it('given neither permission, then it is forbidden', () => {
      expect(() => decideUpdate(given(created), { approved: true }, owner, ctx)).toThrow(ForbiddenError);
      expect(() => decideUpdate(given(created), { approved: true }, stranger, ctx)).toThrow(ForbiddenError);
    });
    it('given a rejected claim, then approval is a conflict', () => {
      expect(() => decideUpdate(given(created, rejected), { approved: true }, approver, ctx)).toThrow(ConflictError);
    });
    it('given an approved claim, then approving again is a conflict', () => {
      expect(() => decideUpdate(given(created, approved), { approved: true }, approver, ctx)).toThrow(ConflictError);
    });
  });

  describe('approved → submitted (submitted = true)', () => {
    it('given an approved claim and a finance address, then it is submitted at the given date or now', () => {
      expect(decideUpdate(given(created, approved), { submitted: true, submittedAt: '2026-11-19T00:00:00.000Z' }, owner, ctx)).toEqual([
        { type: 'expenses.ClaimSubmitted', data: { id: 9, organisationId: 1, submittedBy: 5, submittedAt: '2026-11-19T00:00:00.000Z', financeEmail: 'finance@x.example' } },
      ]);
      expect((decideUpdate(given(created, approved), { submitted: true }, approver, ctx)[0]!.data as { submittedAt: string }).submittedAt).toBe(ctx.now);
    });
    it('given an open or rejected claim, then submitting is a conflict', () => {
      expect(() => decideUpdate(given(created), { submitted: true }, owner, ctx)).toThrow(ConflictError);
      expect(() => decideUpdate(given(created, rejected), { submitted: true }, owner, ctx)).toThrow(ConflictError);
    });
    it('given a submitted claim, then submitting again is a conflict', () => {
      expect(() => decideUpdate(given(created, approved, submitted), { submitted: true }, owner, ctx)).toThrow(ConflictError);
    });
    it('given no valid finance address, then submitting is a 422 saying so', () => {
      expect(() => decideUpdate(given(created, approved), { submitted: true }, owner, { ...ctx, financeEmail: null })).toThrow(ValidationError);
    });
    it('given approval and submission in one update, then both happen in order', () => {
      expect(decideUpdate(given(created), { approved: true, submitted: true }, approver, ctx).map((e) => e.type)).toEqual(['expenses.ClaimApproved', 'expenses.ClaimSubmitted']);
    });
  });

  describe('open → rejected (rejection_note)', () => {
    it('given an open claim, when an approver rejects, then its expenses are released with it', () => {
      expect(decideUpdate(given(created), { rejectionNote: 'receipts missing' }, approver, ctx)).toEqual([
        { type: 'expenses.ClaimRejected', data: { id: 9, organisationId: 1, rejectedBy: 6, note: 'receipts missing', expenseIds: [1, 2] } },
      ]);
    });
    it('given an approved, submitted or rejected claim, then rejecting is a conflict', () => {
      for (const state of [given(created, approved), given(created, approved, submitted), given(created, rejected)]) {
        expect(() => decideUpdate(state, { rejectionNote: 'x' }, approver, ctx)).toThrow(ConflictError);
      }
    });
    it('given the owner without approve-claims over themself, then rejecting is forbidden', () => {
      expect(() => decideUpdate(given(created), { rejectionNote: 'x' }, selfApprover, ctx)).toThrow(ForbiddenError);
    });
  });

  describe('edits of an open claim', () => {
    it('given the owner, then notes and authoriser change', () => {
      expect(decideUpdate(given(created), { notes: 'new', assignedTo: 8 }, owner, ctx)).toEqual([
        { type: 'expenses.ClaimChanged', data: { id: 9, organisationId: 1, notes: 'new', assignedTo: 8 } },
      ]);
    });
    it('given someone else, an authoriser who cannot authorise, or a closed claim, then it is refused', () => {
      expect(() => decideUpdate(given(created), { notes: 'x' }, approver, ctx)).toThrow(ForbiddenError);
      expect(() => decideUpdate(given(created), { assignedTo: 7 }, owner, { ...ctx, assigneeIsAuthoriser: false })).toThrow(ValidationError);
      expect(() => decideUpdate(given(created, approved), { notes: 'x' }, owner, ctx)).toThrow(ConflictError);
    });
  });
});
