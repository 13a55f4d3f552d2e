import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Cause, CausedCommand, EventStore } from '#app/event-store';
import { streams } from '../expenses.events.js';
import { decideRecordMailed, evolve } from './claim.js';

/** The worker's record that the finance mail of a submitted claim went out; caused by its ClaimSubmitted. */
export class RecordSubmissionMailedCommand extends CausedCommand<void> {
  constructor(
    cause: Cause,
    readonly claimId: number,
    readonly organisationId: number,
    readonly to: string,
    readonly mailedAt: string,
  ) {
    super(cause);
  }
}

/**
 * Appends ClaimSubmissionMailed as the system, caused by the ClaimSubmitted, with an id derived
 * from it: a retried job sees the claim mailed already and appends nothing (decideRecordMailed), and
 * two attempts deciding at once append the same event id, which the store keeps once.
 */
@CommandHandler(RecordSubmissionMailedCommand)
export class RecordSubmissionMailedHandler implements ICommandHandler<RecordSubmissionMailedCommand> {
  constructor(private readonly store: EventStore) {}

  async execute({ cause, claimId, organisationId, to, mailedAt }: RecordSubmissionMailedCommand): Promise<void> {
    await this.store.handle(
      streams.claim(claimId),
      evolve,
      (state) =>
        cause.identify('expenses.ClaimSubmissionMailed', decideRecordMailed(state, { organisationId, to, mailedAt })),
      { metadata: cause.metadata },
    );
  }
}
