import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { NotFoundError, SecretBox } from '#app/platform';
import { endpointStream } from '../webhooks.events.js';
import { decideRotate, evolve } from './endpoint.js';
import { EndpointQueries } from './endpoint.queries.js';
import { newSecret } from './secrets.js';

/** Rotates an endpoint's secret; answers the new one (docs/webhooks.md#rotation). */
export class RotateSecretCommand extends Command<string> {
  constructor(
    readonly caller: Caller,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(RotateSecretCommand)
export class RotateSecretHandler implements ICommandHandler<RotateSecretCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly endpoints: EndpointQueries,
    private readonly secrets: SecretBox,
  ) {}

  /** The secret signing now becomes the previous one (read before the write); two rotations at once: one is a 409. */
  async execute({ caller, id }: RotateSecretCommand): Promise<string> {
    const current = await this.endpoints.sealedSecret(caller, id);
    if (!current) throw new NotFoundError('Webhook endpoint');
    const secret = newSecret();
    const command = {
      organisationId: caller.organisationId,
      sealedSecret: this.secrets.seal(secret),
      previousSealedSecret: current,
    };
    await this.store.handle(
      endpointStream(id),
      evolve,
      (state, now) => decideRotate(state, command, { now: new Date(now).toISOString() }),
      { metadata: metadataOf(caller) },
    );
    return secret;
  }
}
