import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { APP_CONFIG, type AppConfig } from '#app/platform';
import { streamOf } from '../rotas.events.js';
import { decideIssue, evolve, feedTokenHash, feedUrl, newFeedToken } from './calendar-feed.js';

/** `POST /api/users/me/calendar-feed`: creates or rotates the caller's feed; answers its URL. */
export class IssueCalendarFeedCommand extends Command<{ url: string }> {
  constructor(readonly caller: Caller) {
    super();
  }
}

/**
 * Draws the token here (randomness stays out of the decision) and records only its hash; the
 * token leaves the process once, in this answer. The append is at the version read: of two
 * rotations at once one wins and the other gets a 409, so no caller is handed a URL that a
 * concurrent rotation has already replaced.
 */
@CommandHandler(IssueCalendarFeedCommand)
export class IssueCalendarFeedHandler implements ICommandHandler<IssueCalendarFeedCommand> {
  constructor(
    private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ caller }: IssueCalendarFeedCommand): Promise<{ url: string }> {
    const token = newFeedToken();
    const owner = { userId: caller.userId, organisationId: caller.organisationId };
    await this.store.handle(
      streamOf.calendarFeed(caller.userId),
      evolve,
      (state) => decideIssue(state, owner, { tokenHash: feedTokenHash(token) }),
      {
        metadata: metadataOf(caller),
      },
    );
    return { url: feedUrl(this.config.http.publicUrl, token) };
  }
}
