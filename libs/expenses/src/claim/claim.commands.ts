import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { EventStore, type NewEvent, type StreamAppend } from '#app/event-store';
import { type Caller, Hierarchy } from '#app/identity';
import { SettingsViews } from '#app/organisation';
import { ConflictError, NotFoundError, ValidationError } from '#app/platform';
import { evolve as evolveExpense } from '../expense/expense.js';
import { type ClaimEvent, type ExpenseEvent, streams } from '../expenses.events.js';
import { nextId } from '../next-id.js';
import { type ClaimUpdate, decideUpdate, evolve } from './claim.js';

export class CreateClaimCommand extends Command<number> {
  constructor(
    readonly caller: Caller,
    readonly assignedTo: number,
    readonly notes: string,
    readonly expenseIds: number[],
  ) {
    super();
  }
}

export class UpdateClaimCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly ownerId: number,
    readonly claimId: number,
    readonly update: ClaimUpdate,
  ) {
    super();
  }
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
const meta = (caller: Caller) => ({ organisationId: caller.organisationId, actorId: caller.userId });
const append = (streamId: string, expectedVersion: number | 'no_stream', events: (ClaimEvent | ExpenseEvent)[]): StreamAppend => ({
  streamId, expectedVersion, events: events as NewEvent[],
});

/**
 * A claim over the caller's unclaimed expenses of one role. The claim and every expense's
 * "claimed" move in one transaction at the versions read, so of two claims racing for an
 * expense one wins and the other gets a 409.
 */
@CommandHandler(CreateClaimCommand)
export class CreateClaimHandler implements ICommandHandler<CreateClaimCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly hierarchy: Hierarchy,
    private readonly organisation: SettingsViews,
  ) {}

  async execute({ caller, assignedTo, notes, expenseIds }: CreateClaimCommand): Promise<number> {
    const authorisers = await this.hierarchy.holdersOver(caller, caller.userId, 'approve-claims');
    if (!authorisers.includes(assignedTo)) throw new ValidationError({ 'assignedTo.id': ['The assignedTo user cannot authorise your claims.'] });
    const settings = await this.organisation.values(caller.organisationId, ['expenses_require_authorisation']);
    return this.store.transaction(async (tx) => {
      const expenses = await this.loadExpenses(tx, caller, expenseIds);
      const roles = new Set(expenses.map((e) => e.state.roleId));
      if (roles.size > 1) throw new ValidationError({ expenses: ['The expenses of one claim must all belong to the same role.'] });
      const id = await nextId(tx, 'claim');
      const base = { id, organisationId: caller.organisationId };
      const amount = Math.round(expenses.reduce((sum, e) => sum + e.state.amount * 100, 0)) / 100;
      const events: ClaimEvent[] = [{ type: 'expenses.ClaimCreated', data: { ...base, userId: caller.userId, assignedTo, roleId: [...roles][0] ?? null, amount, notes, expenseIds } }];
      // Without required authorisation a claim is approved as it is made.
      if (settings.expenses_require_authorisation === '0') events.push({ type: 'expenses.ClaimApproved', data: { ...base, approvedBy: null, approvedAt: new Date().toISOString(), note: null } });
      const claimed = expenses.map((e) =>
        append(streams.expense(e.state.id), e.version, [{ type: 'expenses.ExpenseClaimed', data: { expenseId: e.state.id, organisationId: caller.organisationId, claimId: id } }]),
      );
      await this.store.append(tx, [append(streams.claim(id), 'no_stream', events), ...claimed], meta(caller));
      return id;
    });
  }

  private async loadExpenses(tx: EntityManager, caller: Caller, ids: number[]) {
    const errors: Record<string, string[]> = {};
    const loaded = [];
    for (const [i, id] of ids.entries()) {
      const { state, version } = await this.store.load(streams.expense(id), evolveExpense, tx);
      if (!state || state.deleted || state.organisationId !== caller.organisationId || state.userId !== caller.userId) errors[`expenses.${i}.id`] = ['The selected expense is invalid.'];
      else loaded.push({ state, version });
    }
    if (new Set(ids).size !== ids.length) errors.expenses = ['An expense is listed twice.'];
    if (Object.keys(errors).length) throw new ValidationError(errors);
    if (loaded.some((e) => e.state.claimId !== null)) throw new ConflictError('An expense of this claim is claimed already.');
    return loaded;
  }
}

@CommandHandler(UpdateClaimCommand)
export class UpdateClaimHandler implements ICommandHandler<UpdateClaimCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly hierarchy: Hierarchy,
    private readonly organisation: SettingsViews,
  ) {}

  async execute({ caller, ownerId, claimId, update }: UpdateClaimCommand): Promise<void> {
    const approvesOwner = ownerId !== caller.userId && (await this.hierarchy.canManage(caller, ownerId, 'approve-claims'));
    const selfApproves = ownerId === caller.userId && caller.permissions.has('self-approve-claims');
    const assigneeIsAuthoriser = update.assignedTo === undefined || (await this.hierarchy.holdersOver(caller, ownerId, 'approve-claims')).includes(update.assignedTo);
    const { expenses_submission_email: finance } = await this.organisation.values(caller.organisationId, ['expenses_submission_email']);
    const financeEmail = typeof finance === 'string' && EMAIL.test(finance) ? finance : null;
    await this.store.transaction(async (tx) => {
      const { state, version } = await this.store.load(streams.claim(claimId), evolve, tx);
      const visible = state && state.organisationId === caller.organisationId && state.userId === ownerId && (ownerId === caller.userId || approvesOwner);
      if (!visible) throw new NotFoundError('Claim');
      const events = decideUpdate(state, update, { actorId: caller.userId, approvesOwner, selfApproves }, { now: new Date().toISOString(), financeEmail, assigneeIsAuthoriser });
      if (events.length === 0) return;
      const appends = [append(streams.claim(claimId), version, events)];
      const rejection = events.find((e) => e.type === 'expenses.ClaimRejected');
      if (rejection) appends.push(...(await this.release(tx, caller, claimId, state.expenseIds)));
      await this.store.append(tx, appends, meta(caller));
    });
  }

  /** A rejected claim's expenses return to unclaimed, free for another claim. */
  private async release(tx: EntityManager, caller: Caller, claimId: number, ids: readonly number[]): Promise<StreamAppend[]> {
    const out: StreamAppend[] = [];
    for (const id of ids) {
      const { version } = await this.store.load(streams.expense(id), evolveExpense, tx);
      out.push(append(streams.expense(id), version, [{ type: 'expenses.ExpenseReleased', data: { expenseId: id, organisationId: caller.organisationId, claimId } }]));
    }
    return out;
  }
}
