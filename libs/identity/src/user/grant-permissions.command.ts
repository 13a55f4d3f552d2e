import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { type DirectoryEvent, streamOf } from '../directory/directory.events.js';
import { accessOf, adminMetadata, adminTarget, type UserAccess } from './admin.js';
import { decideGrant, evolve } from './user.js';

/** `users:grant <email> <permission…>`: names from the documented list; what the user holds already changes nothing. */
export class GrantPermissionsCommand extends Command<UserAccess> {
  constructor(
    readonly email: string,
    readonly permissions: readonly string[],
  ) {
    super();
  }
}

@CommandHandler(GrantPermissionsCommand)
export class GrantPermissionsHandler implements ICommandHandler<GrantPermissionsCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
  ) {}

  async execute(cmd: GrantPermissionsCommand): Promise<UserAccess> {
    const target = await adminTarget(this.dataSource, cmd.email);
    let events: DirectoryEvent[] = [];
    const { state } = await this.store.handle(
      streamOf.user(target.id),
      evolve,
      (user) => (events = decideGrant(user, { userId: target.id, permissions: cmd.permissions })),
      {
        metadata: adminMetadata(target.organisationId, 'users:grant'),
      },
    );
    return accessOf(target, events.reduce(evolve, state)!, events.length > 0);
  }
}
