import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { Deliveries } from '../delivery/deliveries.js';
import { endpointStream } from '../webhooks.events.js';
import { decideDelete, evolve } from './endpoint.js';

export class DeleteEndpointCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteEndpointCommand)
export class DeleteEndpointHandler implements ICommandHandler<DeleteEndpointCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly deliveries: Deliveries,
  ) {}

  /** The endpoint goes, and what it was still owed is dropped (a fan-out racing the delete finds no endpoint to send to). */
  async execute({ caller, id }: DeleteEndpointCommand): Promise<void> {
    await this.store.handle(
      endpointStream(id),
      evolve,
      (state) => decideDelete(state, { organisationId: caller.organisationId }),
      {
        metadata: metadataOf(caller),
      },
    );
    await this.deliveries.dropPending(caller, id);
  }
}
