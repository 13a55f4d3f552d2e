import { Injectable } from '@nestjs/common';
import { type Caller, Hierarchy, type Permission, UserBases } from '#app/identity';
import { ForbiddenError, NotFoundError } from '#app/platform';

/**
 * Who may do what with expenses and claims. Route permissions (checked by @RequirePermission before
 * a handler runs):
 * - `create-expenses`: record, change and delete one's own expenses; create and edit one's own claims;
 *   list expense types, rates and one's authorisers;
 * - `edit-expense-settings`: create, change and delete expense types and rates;
 * - `approve-claims`: the claims of the users it reaches through the hierarchy (list, export,
 *   approve, reject, submit);
 * - `self-approve-claims`: approve one's own claims.
 * The hierarchy rules are below; a decision receives their answers in its context.
 */
export const EXPENSE_PERMISSIONS = {
  record: 'create-expenses',
  settings: 'edit-expense-settings',
  approve: 'approve-claims',
  selfApprove: 'self-approve-claims',
} as const satisfies Record<string, Permission>;

/** The caller's relation to a user whose expenses or claims are asked for. */
export type Access = 'owner' | 'approver';

@Injectable()
export class ExpensesPolicy {
  constructor(
    private readonly hierarchy: Hierarchy,
    private readonly users: UserBases,
  ) {}

  /**
   * A user's expenses and claims are seen by the user and by those who approve claims for them
   * (approve-claims over one of their teams). Another user of the organisation is refused by the
   * hierarchy: 403; an unknown user, or one of another organisation: 404
   * (docs/expense-rules.md#who-sees-whose-records).
   */
  async access(caller: Caller, userId: number): Promise<Access> {
    if (userId === caller.userId) return 'owner';
    if (await this.hierarchy.canManage(caller, userId, EXPENSE_PERMISSIONS.approve)) return 'approver';
    if (!(await this.users.of(caller, [userId], EXPENSE_PERMISSIONS.approve)).has(userId))
      throw new NotFoundError('User');
    throw new ForbiddenError(
      'Only the owner and users with approve-claims over the owner may see or change these records.',
    );
  }

  /** Expenses are changed by their owner only; an approver reads them. */
  async ownerOnly(caller: Caller, userId: number): Promise<void> {
    if ((await this.access(caller, userId)) !== 'owner')
      throw new ForbiddenError('Only the owner may change an expense.');
  }

  /** Who may authorise `userId`'s claims: the holders of approve-claims over them (a claim's assignedTo is one of these). */
  authorisersOf(caller: Caller, userId: number): Promise<number[]> {
    return this.hierarchy.holdersOver(caller, userId, EXPENSE_PERMISSIONS.approve);
  }

  /** The users whose claims the caller approves. */
  approvedUsers(caller: Caller): Promise<number[]> {
    return this.hierarchy.managedUsers(caller, EXPENSE_PERMISSIONS.approve);
  }

  /** What the caller may do to a claim of `ownerId`, for the claim decisions. */
  claimAuthority(caller: Caller, ownerId: number, access: Access): { approvesOwner: boolean; selfApproves: boolean } {
    return {
      approvesOwner: access === 'approver',
      selfApproves: ownerId === caller.userId && caller.permissions.has(EXPENSE_PERMISSIONS.selfApprove),
    };
  }
}
