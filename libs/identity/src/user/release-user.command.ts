import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { holdOrRelease, type HoldResult } from './hold-user.command.js';

/** `users:release <email>`: a held user may log in again (their old tokens stay dead). Releasing a user who is not held changes nothing. */
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
