import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { ContactQueries } from './contacts.queries.js';
import { decideRemoveContact } from './contacts.js';
import { evolve } from './rota.js';

export class RemoveContactCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly rotaId: number,
    readonly contactId: number,
  ) {
    super();
  }
}

/**
 * `DELETE /api/rotas/{rota}/contacts/{id}` (addition): manage-rotas over the rota's team (404
 * unknown or another organisation's rota, 403 hidden or not managed); `{id}` is the contact
 * record's id, and one that is no contact of this rota is a 404.
 */
@CommandHandler(RemoveContactCommand)
export class RemoveContactHandler implements ICommandHandler<RemoveContactCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly contacts: ContactQueries,
  ) {}

  async execute({ caller, rotaId, contactId }: RemoveContactCommand): Promise<void> {
    this.policy.requireManageRotas(caller);
    this.policy.assertManages(await this.policy.reach(caller), await this.contacts.rota(caller, rotaId));
    await this.store.handle(streamOf.rota(rotaId), evolve, (state) => decideRemoveContact(state, { contactId }), {
      metadata: metadataOf(caller),
    });
  }
}
