import { ConflictError, ForbiddenError, ValidationError } from '#app/platform';
import type { ClaimEvent } from '../expenses.events.js';

export interface ClaimState {
  readonly id: number;
  readonly organisationId: number;
  readonly userId: number;
  readonly assignedTo: number;
  readonly notes: string;
  readonly expenseIds: readonly number[];
  readonly approved: boolean;
  readonly rejected: boolean;
  readonly submitted: boolean;
}

export function evolve(state: ClaimState | null, event: ClaimEvent): ClaimState | null {
  switch (event.type) {
    case 'expenses.ClaimCreated': {
      const d = event.data;
      return { id: d.id, organisationId: d.organisationId, userId: d.userId, assignedTo: d.assignedTo, notes: d.notes, expenseIds: d.expenseIds, approved: false, rejected: false, submitted: false };
    }
    case 'expenses.ClaimChanged':
      return state && { ...state, notes: event.data.notes, assignedTo: event.data.assignedTo };
    case 'expenses.ClaimApproved':
      return state && { ...state, approved: true };
    case 'expenses.ClaimRejected':
      return state && { ...state, rejected: true };
    case 'expenses.ClaimSubmitted':
      return state && { ...state, submitted: true };
  }
}

/** What the caller may do to this claim, worked out by the handler from permissions and hierarchy. */
export interface Authority {
  readonly actorId: number;
  /** approve-claims over the claim's owner. */
  readonly approvesOwner: boolean;
  /** self-approve-claims, and the claim is the caller's own. */
  readonly selfApproves: boolean;
}

export interface ClaimUpdate {
  readonly notes?: string;
  readonly assignedTo?: number;
  readonly approved?: boolean;
  readonly approvalNote?: string | null;
  readonly rejectionNote?: string;
  readonly submitted?: boolean;
  readonly submittedAt?: string;
}

export interface UpdateContext {
  readonly now: string;
  /** The organisation's expenses_submission_email, when it holds a valid address. */
  readonly financeEmail: string | null;
  /** Whether assignedTo (when given) is one of the owner's authorisers. */
  readonly assigneeIsAuthoriser: boolean;
}

const OPEN = (s: ClaimState) => !s.approved && !s.rejected && !s.submitted;

/**
 * The claim state table of the spec, as one decision over an update body: approve (not after
 * rejection), reject (only while open; the expenses are released), submit (only approved and not
 * yet submitted, and only with a finance address), and the owner's edits of notes and authoriser.
 */
export function decideUpdate(state: ClaimState, update: ClaimUpdate, who: Authority, ctx: UpdateContext): ClaimEvent[] {
  const events: ClaimEvent[] = [];
  const base = { id: state.id, organisationId: state.organisationId };
  if (update.notes !== undefined || update.assignedTo !== undefined) {
    if (who.actorId !== state.userId) throw new ForbiddenError('Only the owner of a claim may change its notes or authoriser.');
    if (!OPEN(state)) throw new ConflictError('Only an open claim can be changed.');
    if (update.assignedTo !== undefined && !ctx.assigneeIsAuthoriser) throw new ValidationError({ assignedTo: ['The assignedTo user cannot authorise this claim.'] });
    events.push({ type: 'expenses.ClaimChanged', data: { ...base, notes: update.notes ?? state.notes, assignedTo: update.assignedTo ?? state.assignedTo } });
  }
  if (update.rejectionNote !== undefined) {
    if (!who.approvesOwner) throw new ForbiddenError('Rejecting a claim needs approve-claims over its owner.');
    if (!OPEN(state)) throw new ConflictError(state.rejected ? 'The claim was rejected already.' : 'Only an open claim can be rejected.');
    events.push({ type: 'expenses.ClaimRejected', data: { ...base, rejectedBy: who.actorId, note: update.rejectionNote, expenseIds: [...state.expenseIds] } });
    return events;
  }
  if (update.approved === true) {
    if (!who.approvesOwner && !who.selfApproves) throw new ForbiddenError('Approving this claim needs approve-claims over its owner, or self-approve-claims for your own.');
    if (state.rejected) throw new ConflictError('A rejected claim cannot be approved.');
    if (state.approved) throw new ConflictError('The claim is approved already.');
    events.push({ type: 'expenses.ClaimApproved', data: { ...base, approvedBy: who.actorId, approvedAt: ctx.now, note: update.approvalNote ?? null } });
  }
  if (update.submitted === true) {
    const approved = state.approved || update.approved === true;
    if (who.actorId !== state.userId && !who.approvesOwner) throw new ForbiddenError('Only the owner or an approver may submit a claim.');
    if (!approved) throw new ConflictError('Only an approved claim can be submitted.');
    if (state.submitted) throw new ConflictError('The claim was submitted already.');
    if (!ctx.financeEmail) throw new ValidationError({ submitted: ['The organisation has no valid expenses_submission_email to submit claims to.'] });
    events.push({ type: 'expenses.ClaimSubmitted', data: { ...base, submittedBy: who.actorId, submittedAt: update.submittedAt ?? ctx.now, financeEmail: ctx.financeEmail } });
  }
  return events;
}
