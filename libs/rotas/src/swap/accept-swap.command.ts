import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, OrganisationFactsReader } from '#app/identity';
import { BookingFactsReader } from '../booking/booking-facts.js';
import { RotasPolicy } from '../rotas.policy.js';
import { acceptSwapWrite } from './accept-swap.write.js';
import { swapCallerOf } from './swap-caller.js';

export class AcceptSwapCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly swapId: number,
  ) {
    super();
  }
}

/** `POST /api/rota/shift-swaps/{id}/accept` (decideAcceptSwap): the zone and the caller's reach, then one write (acceptSwapWrite). */
@CommandHandler(AcceptSwapCommand)
export class AcceptSwapHandler implements ICommandHandler<AcceptSwapCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly facts: BookingFactsReader,
    private readonly organisations: OrganisationFactsReader,
  ) {}

  async execute({ caller, swapId }: AcceptSwapCommand): Promise<void> {
    const [{ timezone: zone }, reach] = await Promise.all([this.organisations.of(caller), this.policy.reach(caller)]);
    await this.store.write(acceptSwapWrite(this.facts, caller, swapCallerOf(caller, reach), swapId, zone));
  }
}
