import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { type DirectoryEvent, streamOf } from '../directory/directory.events.js';
import { accessOf, adminMetadata, adminTarget, type UserAccess } from './admin.js';
import { decideHold, decideRelease, evolve } from './user.js';

/** What `users:hold` and `users:release` answer: the user as the command left them (`held`: status on_hold). */
export type HoldResult = UserAccess;

/**
 * `users:hold <email>`: puts the user on hold, their status `on_hold` (as a provisioning file's
 * `users[].status` sets it; docs/rota-domain.md#booking-rules, rule 4). They still log in and their tokens
 * keep working; rota bookings of them need `ignore_on_hold`, and they cannot add shifts to themselves. Holding an
 * on-hold user (held, or provisioned on hold) changes nothing.
 */
export class HoldUserCommand extends Command<HoldResult> {
  constructor(readonly email: string) {
    super();
  }
}

@CommandHandler(HoldUserCommand)
export class HoldUserHandler implements ICommandHandler<HoldUserCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
  ) {}

  execute(cmd: HoldUserCommand): Promise<HoldResult> {
    return holdOrRelease(this.store, this.dataSource, cmd.email, 'users:hold');
  }
}

/** The user's stream, decided and appended at the version read; nothing to do appends nothing. */
export async function holdOrRelease(
  store: EventStore,
  db: DataSource,
  email: string,
  command: 'users:hold' | 'users:release',
): Promise<HoldResult> {
  const target = await adminTarget(db, email);
  let events: DirectoryEvent[] = [];
  const decide = command === 'users:hold' ? decideHold : decideRelease;
  const { state } = await store.handle(
    streamOf.user(target.id),
    evolve,
    (user) => (events = decide(user, { userId: target.id })),
    {
      metadata: adminMetadata(target.organisationId, command),
    },
  );
  const after = events.reduce(evolve, state)!;
  return accessOf(target, after, events.length > 0);
}
