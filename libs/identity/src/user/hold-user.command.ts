import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { holdOrRelease, type HoldResult } from './hold-or-release.js';

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
