import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import type { Caller } from '#app/identity';
import { RotaIds } from '../next-id.js';
import { RotasPolicy } from '../rotas.policy.js';
import { proposeSwapWrite } from './propose-swap.write.js';

/** Answers the new swap's id. */
export class ProposeSwapCommand extends Command<number> {
  constructor(
    readonly caller: Caller,
    readonly shiftId: number,
    readonly withId: number,
  ) {
    super();
  }
}

/** `POST /api/rota/shift-swaps` (decideProposeSwap): the caller's reach and the id, then one write (proposeSwapWrite). */
@CommandHandler(ProposeSwapCommand)
export class ProposeSwapHandler implements ICommandHandler<ProposeSwapCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly ids: RotaIds,
  ) {}

  async execute({ caller, shiftId, withId }: ProposeSwapCommand): Promise<number> {
    const [reach, swapId] = await Promise.all([this.policy.reach(caller), this.ids.next('swap')]);
    await this.store.write(proposeSwapWrite(caller, reach, { swapId, shiftId, withId }));
    return swapId;
  }
}
