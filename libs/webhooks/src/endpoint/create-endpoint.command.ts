import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { SecretBox } from '#app/platform';
import { type EndpointSettings, endpointStream } from '../webhooks.events.js';
import { decideCreate, evolve } from './endpoint.js';
import { EndpointSettingsCheck } from './endpoint-settings-check.js';
import { newSecret } from './secrets.js';

/** Creates an endpoint; answers its id and the secret, which is never shown again. */
export class CreateEndpointCommand extends Command<{ id: number; secret: string }> {
  constructor(
    readonly caller: Caller,
    readonly settings: EndpointSettings,
  ) {
    super();
  }
}

@CommandHandler(CreateEndpointCommand)
export class CreateEndpointHandler implements ICommandHandler<CreateEndpointCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly secrets: SecretBox,
    private readonly settingsCheck: EndpointSettingsCheck,
  ) {}

  async execute({ caller, settings }: CreateEndpointCommand): Promise<{ id: number; secret: string }> {
    await this.settingsCheck.check(settings);
    const [{ id }]: { id: string }[] = await this.dataSource.query(`SELECT nextval('webhook_endpoint_ids') AS id`);
    const secret = newSecret();
    const command = {
      id: Number(id),
      organisationId: caller.organisationId,
      settings,
      sealedSecret: this.secrets.seal(secret),
    };
    await this.store.handle(endpointStream(command.id), evolve, (state) => decideCreate(state, command), {
      expect: 'no_stream',
      metadata: metadataOf(caller),
    });
    return { id: command.id, secret };
  }
}
