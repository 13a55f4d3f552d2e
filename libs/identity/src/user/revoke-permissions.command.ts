import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { type DirectoryEvent, streamOf } from '../directory/directory.events.js';
import { accessOf, adminMetadata, adminTarget, type UserAccess } from './admin.js';
import { decideRevoke, evolve } from './user.js';

/** `users:revoke <email> <permission…>`: names from the documented list; what the user does not hold changes nothing. */
export class RevokePermissionsCommand extends Command<UserAccess> {
  constructor(
    readonly email: string,
    readonly permissions: readonly string[],
  ) {
    super();
  }
}

@CommandHandler(RevokePermissionsCommand)
export class RevokePermissionsHandler implements ICommandHandler<RevokePermissionsCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
  ) {}

  async execute(cmd: RevokePermissionsCommand): Promise<UserAccess> {
    const target = await adminTarget(this.dataSource, cmd.email);
    let events: DirectoryEvent[] = [];
    const { state } = await this.store.handle(
      streamOf.user(target.id),
      evolve,
      (user) => (events = decideRevoke(user, { userId: target.id, permissions: cmd.permissions })),
      {
        metadata: adminMetadata(target.organisationId, 'users:revoke'),
      },
    );
    return accessOf(target, events.reduce(evolve, state)!, events.length > 0);
  }
}
