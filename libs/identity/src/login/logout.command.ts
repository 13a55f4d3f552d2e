import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { metadataOf } from '../auth/metadata.js';
import { loginStreamOf } from './login.events.js';
import { decideLogout, evolve } from './session.js';

/** Ends the caller's log-in: its token, and every token refreshed from it, stop working. */
export class LogoutCommand extends Command<void> {
  constructor(
    readonly sessionId: string,
    readonly jti: string,
    readonly userId: number,
    readonly organisationId: number,
    readonly requestId?: string,
  ) {
    super();
  }
}

@CommandHandler(LogoutCommand)
export class LogoutHandler implements ICommandHandler<LogoutCommand> {
  constructor(private readonly store: EventStore) {}

  async execute(cmd: LogoutCommand): Promise<void> {
    await this.store.handle(
      loginStreamOf.session(cmd.sessionId),
      evolve,
      (state) => decideLogout(state, { jti: cmd.jti }),
      {
        metadata: metadataOf({ organisationId: cmd.organisationId, userId: cmd.userId, requestId: cmd.requestId }),
      },
    );
  }
}
