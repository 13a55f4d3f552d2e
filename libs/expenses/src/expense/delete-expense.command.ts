import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { streams } from '../expenses.events.js';
import { decideDelete, evolve } from './expense.js';

export class DeleteExpenseCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteExpenseCommand)
export class DeleteExpenseHandler implements ICommandHandler<DeleteExpenseCommand> {
  constructor(private readonly store: EventStore) {}

  async execute({ caller, id }: DeleteExpenseCommand): Promise<void> {
    await this.store.handle(
      streams.expense(id),
      evolve,
      (state) => decideDelete(state, { id, organisationId: caller.organisationId, userId: caller.userId }),
      {
        metadata: metadataOf(caller),
      },
    );
  }
}
