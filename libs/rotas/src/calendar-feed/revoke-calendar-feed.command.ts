import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { streamOf } from '../rotas.events.js';
import { decideRevoke, evolve } from './calendar-feed.js';

/** `DELETE /api/users/me/calendar-feed`: the caller's feed URL stops working (nothing to revoke changes nothing). */
export class RevokeCalendarFeedCommand extends Command<void> {
  constructor(readonly caller: Caller) {
    super();
  }
}

@CommandHandler(RevokeCalendarFeedCommand)
export class RevokeCalendarFeedHandler implements ICommandHandler<RevokeCalendarFeedCommand> {
  constructor(private readonly store: EventStore) {}

  async execute({ caller }: RevokeCalendarFeedCommand): Promise<void> {
    const owner = { userId: caller.userId, organisationId: caller.organisationId };
    await this.store.handle(streamOf.calendarFeed(caller.userId), evolve, (state) => decideRevoke(state, owner), {
      metadata: metadataOf(caller),
    });
  }
}
