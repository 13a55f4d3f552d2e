import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '#app/platform';
import type { ExpenseState } from '../expense/expense.js';
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
  /** When the finance mail of the submission went out; absent until then. */
  readonly mailedAt?: string;
}

export function evolve(state: ClaimState | null, event: ClaimEvent): ClaimState | null {
  switch (event.type) {
    case 'expenses.ClaimCreated': {
      const d = event.data;
      return {
        id: d.id,
        organisationId: d.organisationId,
        userId: d.userId,
        assignedTo: d.assignedTo,
        notes: d.notes,
        expenseIds: d.expenseIds,
        approved: false,
        rejected: false,
        submitted: false,
      };
    }
    case 'expenses.ClaimChanged':
      return state && { ...state, notes: event.data.notes, assignedTo: event.data.assignedTo };
    case 'expenses.ClaimApproved':
      return state && { ...state, approved: true };
    case 'expenses.ClaimRejected':
      return state && { ...state, rejected: true };
    case 'expenses.ClaimSubmitted':
      return state && { ...state, submitted: true };
    case 'expenses.ClaimSubmissionMailed':
      return state && { ...state, mailedAt: event.data.mailedAt };
  }
}

/** A claim of the caller's unclaimed expenses of one role; the handler draws `id` and loads the expenses. */
export interface CreateClaim {
  readonly id: number;
  readonly organisationId: number;
  readonly userId: number;
  readonly assignedTo: number;
  readonly notes: string;
  readonly expenseIds: readonly number[];
}

export interface CreateContext {
  readonly now: string;
  /** Whether assignedTo holds approve-claims over the caller. */
  readonly assigneeIsAuthoriser: boolean;
  /** The organisation's expenses_require_authorisation: without it a claim is approved as it is made. */
  readonly requireAuthorisation: boolean;
  /** The state of each of expenseIds, in order (null: no such expense). */
  readonly expenses: readonly (ExpenseState | null)[];
}

/**
 * A new claim: its authoriser must be one of the caller's, and its expenses the caller's own,
 * each listed once, none claimed already, all of one role. The amount is their sum, to the penny.
 */
export function decideCreate(state: ClaimState | null, cmd: CreateClaim, ctx: CreateContext): ClaimEvent[] {
  if (state) throw new ConflictError('The claim exists already.');
  if (!ctx.assigneeIsAuthoriser)
    throw new ValidationError({ 'assignedTo.id': ['The assignedTo user cannot authorise your claims.'] });
  const errors: Record<string, string[]> = {};
  const expenses: ExpenseState[] = [];
  for (const [i, e] of ctx.expenses.entries()) {
    if (!e || e.deleted || e.organisationId !== cmd.organisationId || e.userId !== cmd.userId)
      errors[`expenses.${i}.id`] = ['The selected expense is invalid.'];
    else expenses.push(e);
  }
  if (new Set(cmd.expenseIds).size !== cmd.expenseIds.length) errors.expenses = ['An expense is listed twice.'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  if (expenses.some((e) => e.claimId !== null)) throw new ConflictError('An expense of this claim is claimed already.');
  const roles = new Set(expenses.map((e) => e.roleId));
  if (roles.size > 1)
    throw new ValidationError({ expenses: ['The expenses of one claim must all belong to the same role.'] });
  const base = { id: cmd.id, organisationId: cmd.organisationId };
  const amount = Math.round(expenses.reduce((sum, e) => sum + e.amount * 100, 0)) / 100;
  const events: ClaimEvent[] = [
    {
      type: 'expenses.ClaimCreated',
      data: {
        ...base,
        userId: cmd.userId,
        assignedTo: cmd.assignedTo,
        roleId: [...roles][0] ?? null,
        amount,
        notes: cmd.notes,
        expenseIds: [...cmd.expenseIds],
      },
    },
  ];
  if (!ctx.requireAuthorisation)
    events.push({
      type: 'expenses.ClaimApproved',
      data: { ...base, userId: cmd.userId, approvedBy: null, approvedAt: ctx.now, note: null },
    });
  return events;
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

/** An update body for the claim of `ownerId` (the path's user), by `actorId`. */
export interface UpdateClaim {
  readonly actorId: number;
  readonly organisationId: number;
  readonly ownerId: number;
  readonly update: ClaimUpdate;
}

export interface UpdateContext {
  readonly now: string;
  /** approve-claims over the claim's owner. */
  readonly approvesOwner: boolean;
  /** self-approve-claims, and the claim is the caller's own. */
  readonly selfApproves: boolean;
  /** The organisation's expenses_submission_email, when it holds a valid address. */
  readonly financeEmail: string | null;
  /** Whether update.assignedTo (when given) is one of the owner's authorisers. */
  readonly assigneeIsAuthoriser: boolean;
}

const OPEN = (s: ClaimState) => !s.approved && !s.rejected && !s.submitted;

/**
 * The claim state table (docs/expense-rules.md#claim-states), as one decision over an update body: approve (not after
 * rejection), reject (only while open; the expenses are released), submit (only approved and not
 * yet submitted, and only with a finance address), and the owner's edits of notes and authoriser.
 * Another organisation's claim, or one of another owner than the path's, is not found.
 */
export function decideUpdate(state: ClaimState | null, cmd: UpdateClaim, ctx: UpdateContext): ClaimEvent[] {
  if (!state || state.organisationId !== cmd.organisationId || state.userId !== cmd.ownerId)
    throw new NotFoundError('Claim');
  const { update, actorId } = cmd;
  const events: ClaimEvent[] = [];
  const base = { id: state.id, organisationId: state.organisationId };
  if (update.notes !== undefined || update.assignedTo !== undefined) {
    if (actorId !== state.userId)
      throw new ForbiddenError('Only the owner of a claim may change its notes or authoriser.');
    if (!OPEN(state)) throw new ConflictError('Only an open claim can be changed.');
    if (update.assignedTo !== undefined && !ctx.assigneeIsAuthoriser)
      throw new ValidationError({ 'assignedTo.id': ['The assignedTo user cannot authorise this claim.'] });
    const notes = update.notes ?? state.notes;
    const assignedTo = update.assignedTo ?? state.assignedTo;
    // Values equal to the current ones change nothing, so nothing is recorded.
    if (notes !== state.notes || assignedTo !== state.assignedTo)
      events.push({ type: 'expenses.ClaimChanged', data: { ...base, userId: state.userId, notes, assignedTo } });
  }
  if (update.rejectionNote !== undefined) {
    if (!ctx.approvesOwner) throw new ForbiddenError('Rejecting a claim needs approve-claims over its owner.');
    if (!OPEN(state))
      throw new ConflictError(
        state.rejected ? 'The claim was rejected already.' : 'Only an open claim can be rejected.',
      );
    events.push({
      type: 'expenses.ClaimRejected',
      data: {
        ...base,
        userId: state.userId,
        rejectedBy: actorId,
        note: update.rejectionNote,
        expenseIds: [...state.expenseIds],
      },
    });
    return events;
  }
  if (update.approved === true) {
    if (!ctx.approvesOwner && !ctx.selfApproves)
      throw new ForbiddenError(
        'Approving this claim needs approve-claims over its owner, or self-approve-claims for your own.',
      );
    if (state.rejected) throw new ConflictError('A rejected claim cannot be approved.');
    if (state.approved) throw new ConflictError('The claim is approved already.');
    events.push({
      type: 'expenses.ClaimApproved',
      data: {
        ...base,
        userId: state.userId,
        approvedBy: actorId,
        approvedAt: ctx.now,
        note: update.approvalNote ?? null,
      },
    });
  }
  if (update.submitted === true) {
    const approved = state.approved || update.approved === true;
    if (actorId !== state.userId && !ctx.approvesOwner)
      throw new ForbiddenError('Only the owner or an approver may submit a claim.');
    if (!approved) throw new ConflictError('Only an approved claim can be submitted.');
    if (state.submitted) throw new ConflictError('The claim was submitted already.');
    if (!ctx.financeEmail)
      throw new ValidationError({
        submitted: ['The organisation has no valid expenses_submission_email to submit claims to.'],
      });
    events.push({
      type: 'expenses.ClaimSubmitted',
      data: {
        ...base,
        submittedBy: actorId,
        submittedAt: update.submittedAt ?? ctx.now,
        financeEmail: ctx.financeEmail,
      },
    });
  }
  return events;
}

/** The worker's record that the finance mail of a submitted claim went out, to `to` at `mailedAt`. */
export interface RecordMailed {
  readonly organisationId: number;
  readonly to: string;
  readonly mailedAt: string;
}

/**
 * The finance mail is recorded once per claim: a repeat (a retried job) changes nothing. Only a
 * submitted claim is mailed; another organisation's claim is not found.
 */
export function decideRecordMailed(state: ClaimState | null, cmd: RecordMailed): ClaimEvent[] {
  if (!state || state.organisationId !== cmd.organisationId) throw new NotFoundError('Claim');
  if (!state.submitted) throw new ConflictError('Only a submitted claim is mailed to finance.');
  if (state.mailedAt !== undefined) return [];
  return [
    {
      type: 'expenses.ClaimSubmissionMailed',
      data: { claimId: state.id, organisationId: state.organisationId, to: cmd.to, mailedAt: cmd.mailedAt },
    },
  ];
}
