import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { SettingsViews } from '#app/organisation';
import { streams } from '../expenses.events.js';
import { type ClaimUpdate, evolve } from './claim.js';
import { ExpensesPolicy } from '../expenses.policy.js';
import { decideClaimUpdate, financeEmailOf, rejectClaimWrite } from './update-claim.write.js';

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

/** The owner and the owner's approvers act (anyone else: 403 before the claim is looked at); a rejection is rejectClaimWrite. */
@CommandHandler(UpdateClaimCommand)
export class UpdateClaimHandler implements ICommandHandler<UpdateClaimCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: ExpensesPolicy,
    private readonly organisation: SettingsViews,
  ) {}

  async execute({ caller, ownerId, claimId, update }: UpdateClaimCommand): Promise<void> {
    const access = await this.policy.access(caller, ownerId);
    const { approvesOwner, selfApproves } = this.policy.claimAuthority(caller, ownerId, access);
    const assigneeIsAuthoriser =
      update.assignedTo === undefined || (await this.policy.authorisersOf(caller, ownerId)).includes(update.assignedTo);
    const settings = await this.organisation.values(caller.organisationId, ['expenses_submission_email']);
    const financeEmail = financeEmailOf(settings.expenses_submission_email);
    const authority = { approvesOwner, selfApproves, financeEmail, assigneeIsAuthoriser };
    const input = {
      actorId: caller.userId,
      organisationId: caller.organisationId,
      ownerId,
      claimId,
      update,
      authority,
    };
    const metadata = metadataOf(caller);
    if (update.rejectionNote === undefined)
      await this.store.handle(streams.claim(claimId), evolve, decideClaimUpdate(input), { metadata });
    else await this.store.write({ ...rejectClaimWrite(input), metadata });
  }
}
