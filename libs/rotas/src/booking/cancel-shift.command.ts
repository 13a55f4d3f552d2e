import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, OrganisationFactsReader } from '#app/identity';
import { streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { BookingFactsReader } from './booking-facts.js';
import { shiftToChange } from './shift-access.js';
import { evolve } from './shift.js';
import { decideCancelShift } from './shift-changes.js';
import { ShiftQueries } from './shift.queries.js';

export class CancelShiftCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly shiftId: number,
  ) {
    super();
  }
}

/**
 * `DELETE /api/rota/shifts/{id}` (decideCancelShift): the shift (404 / 403) and the access rules
 * (403) first, then one append on the shift's stream. No gate: a cancel only frees a place
 * (docs/adr/0008), and a concurrent change of the shift makes one of the two appends lose (409).
 */
@CommandHandler(CancelShiftCommand)
export class CancelShiftHandler implements ICommandHandler<CancelShiftCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly facts: BookingFactsReader,
    private readonly shifts: ShiftQueries,
    private readonly organisations: OrganisationFactsReader,
  ) {}

  async execute({ caller, shiftId }: CancelShiftCommand): Promise<void> {
    const [{ timezone: zone }, reach] = await Promise.all([this.organisations.of(caller), this.policy.reach(caller)]);
    const { rota } = await shiftToChange(this.shifts, this.facts, caller, reach, 'cancel', shiftId, zone);
    await this.store.handle(
      streamOf.shift(shiftId),
      evolve,
      (state) => decideCancelShift(state, { reach }, { rota, now: Date.now() }),
      { metadata: metadataOf(caller) },
    );
  }
}
