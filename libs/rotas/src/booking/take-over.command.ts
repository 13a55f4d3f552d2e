import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, OrganisationFactsReader } from '#app/identity';
import { RotasPolicy } from '../rotas.policy.js';
import { BookingFactsReader } from './booking-facts.js';
import { ShiftQueries } from './shift.queries.js';
import { takeOverWrite } from './take-over.write.js';

/** The take-over body, as the controller passes it on. */
export interface TakeOverRequest {
  /** The body's `user.id`; undefined: the caller. */
  readonly userId?: number;
  readonly ignoreOnHold: boolean;
  readonly confirmRoleRestriction: boolean;
}

export class TakeOverShiftCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly shiftId: number,
    readonly request: TakeOverRequest,
  ) {
    super();
  }
}

/** `POST /api/rota/shifts/{id}/take-over`: one write (take-over.write.ts, decided by take-over.ts). */
@CommandHandler(TakeOverShiftCommand)
export class TakeOverShiftHandler implements ICommandHandler<TakeOverShiftCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly facts: BookingFactsReader,
    private readonly shifts: ShiftQueries,
    private readonly organisations: OrganisationFactsReader,
  ) {}

  async execute({ caller, shiftId, request }: TakeOverShiftCommand): Promise<void> {
    const [{ timezone: zone }, reach] = await Promise.all([this.organisations.of(caller), this.policy.reach(caller)]);
    const command = {
      shiftId,
      reach,
      takerId: request.userId ?? caller.userId,
      ignoreOnHold: request.ignoreOnHold,
      confirmRoleRestriction: request.confirmRoleRestriction,
    };
    await this.store.write(takeOverWrite({ shifts: this.shifts, facts: this.facts }, caller, command, zone));
  }
}
