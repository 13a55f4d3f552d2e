import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, UserBases } from '#app/identity';
import { RotaIds } from '../next-id.js';
import { streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { type AddedContact, addedContact } from './add-contact.write.js';
import { ContactQueries } from './contacts.queries.js';
import { decideAddContact } from './contacts.js';
import { evolve } from './rota.js';

export type { AddedContact } from './add-contact.write.js';

export class AddContactCommand extends Command<AddedContact> {
  constructor(
    readonly caller: Caller,
    readonly rotaId: number,
    readonly userId: number,
  ) {
    super();
  }
}

/** `POST /api/rotas/{rota}/contacts`: manage-rotas over the rota (404/403), the user (422), then the rota's stream (addedContact). */
@CommandHandler(AddContactCommand)
export class AddContactHandler implements ICommandHandler<AddContactCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly contacts: ContactQueries,
    private readonly users: UserBases,
    private readonly ids: RotaIds,
  ) {}

  async execute({ caller, rotaId, userId }: AddContactCommand): Promise<AddedContact> {
    this.policy.requireManageRotas(caller);
    this.policy.assertManages(await this.policy.reach(caller), await this.contacts.rota(caller, rotaId));
    const userExists = (await this.users.displayNames(caller, [userId])).has(userId);
    const contactId = await this.ids.next('contact');
    const handled = await this.store.handle(
      streamOf.rota(rotaId),
      evolve,
      (state) => decideAddContact(state, { rotaId, userId, contactId }, { userExists }),
      { metadata: metadataOf(caller), retries: 1 },
    );
    return addedContact(handled, contactId, userId);
  }
}
