import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { DeliveryQueue } from '../delivery/delivery-queue.js';
import { type EndpointSettings, endpointStream } from '../webhooks.events.js';
import { decideUpdate, evolve } from './endpoint.js';
import { EndpointSettingsCheck } from './endpoint-settings-check.js';

export class UpdateEndpointCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly id: number,
    readonly changes: Partial<EndpointSettings>,
  ) {
    super();
  }
}

@CommandHandler(UpdateEndpointCommand)
export class UpdateEndpointHandler implements ICommandHandler<UpdateEndpointCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly settingsCheck: EndpointSettingsCheck,
    private readonly queue: DeliveryQueue,
  ) {}

  async execute({ caller, id, changes }: UpdateEndpointCommand): Promise<void> {
    await this.settingsCheck.check(changes);
    const command = { organisationId: caller.organisationId, changes };
    await this.store.handle(endpointStream(id), evolve, (state) => decideUpdate(state, command), {
      metadata: metadataOf(caller),
    });
    // What it was owed while disabled goes now (docs/webhooks.md#delivery); failing that, the sweep's next round sends it.
    if (changes.enabled === true) await this.queue.wake(id).catch(() => undefined);
  }
}
