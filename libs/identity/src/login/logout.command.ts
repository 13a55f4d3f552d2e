import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore, type NewEvent } from '#app/event-store';
import { DomainError } from '#app/platform';
import { loginStreamOf } from './login.events.js';
import { decideLogout, evolve } from './session.js';

/** Ends the caller's log-in: its token, and every token refreshed from it, stop working. */
export class LogoutCommand extends Command<void> {
  constructor(
    readonly sessionId: string,
    readonly jti: string,
    readonly userId: number,
    readonly organisationId: number,
  ) {
    super();
  }
}

@CommandHandler(LogoutCommand)
export class LogoutHandler implements ICommandHandler<LogoutCommand> {
  constructor(private readonly store: EventStore) {}

  async execute(cmd: LogoutCommand): Promise<void> {
    const streamId = loginStreamOf.session(cmd.sessionId);
    await this.store.transaction(async (tx) => {
      const { state, version } = await this.store.load(streamId, evolve, tx);
      const decision = decideLogout(state, cmd.jti);
      if (decision.outcome === 'refused') throw new DomainError('unauthorized', decision.reason);
      await this.store.append(tx, [{ streamId, expectedVersion: version, events: decision.events as NewEvent[] }], {
        organisationId: cmd.organisationId,
        actorId: cmd.userId,
      });
    });
  }
}
