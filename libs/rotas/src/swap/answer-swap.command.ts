import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import type { Caller } from '#app/identity';
import { BookingFactsReader } from '../booking/booking-facts.js';
import { RotasPolicy } from '../rotas.policy.js';
import { answerSwapWrite } from './answer-swap.write.js';
import { swapCallerOf } from './swap-caller.js';

/** Decline (the `with` volunteer) or withdraw (the proposer). */
export class AnswerSwapCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly swapId: number,
    readonly answer: 'decline' | 'withdraw',
  ) {
    super();
  }
}

/** `POST /api/rota/shift-swaps/{id}/decline`, `DELETE /api/rota/shift-swaps/{id}` (decideSwapAnswer): one write (answerSwapWrite). */
@CommandHandler(AnswerSwapCommand)
export class AnswerSwapHandler implements ICommandHandler<AnswerSwapCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly facts: BookingFactsReader,
  ) {}

  async execute({ caller, swapId, answer }: AnswerSwapCommand): Promise<void> {
    const reach = await this.policy.reach(caller);
    await this.store.write(answerSwapWrite(this.facts, caller, swapCallerOf(caller, reach), answer, swapId));
  }
}
