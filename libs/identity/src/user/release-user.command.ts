import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { holdOrRelease, type HoldResult } from './hold-or-release.js';

/** `users:release <email>`: the user's status is back to `active`. Releasing an active user changes nothing. */
export class ReleaseUserCommand extends Command<HoldResult> {
  constructor(readonly email: string) {
    super();
  }
}

@CommandHandler(ReleaseUserCommand)
export class ReleaseUserHandler implements ICommandHandler<ReleaseUserCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
  ) {}

  execute(cmd: ReleaseUserCommand): Promise<HoldResult> {
    return holdOrRelease(this.store, this.dataSource, cmd.email, 'users:release');
  }
}
