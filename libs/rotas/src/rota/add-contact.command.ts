import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConcurrencyError, EventStore } from '#app/event-store';
import { type Caller, metadataOf, UserBases } from '#app/identity';
import { RotaIds } from '../next-id.js';
import { streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { ContactQueries } from './contacts.queries.js';
import { contactOf, decideAddContact } from './contacts.js';
import { evolve } from './rota.js';

/** The contact record and whether this request made it (201) or found it (200). */
export interface AddedContact {
  readonly contactId: number;
  readonly created: boolean;
}

export class AddContactCommand extends Command<AddedContact> {
  constructor(
    readonly caller: Caller,
    readonly rotaId: number,
    readonly userId: number,
  ) {
    super();
  }
}

/**
 * `POST /api/rotas/{rota}/contacts`: manage-rotas over the rota's team (404 unknown or another
 * organisation's rota, 403 hidden or not managed), the user one of the organisation's (422
 * `user_id`). Two requests adding the same user race on the rota's stream: the loser's append
 * fails on the stream version (ConcurrencyError), and it decides once more on the stream as the
 * winner left it, where the user is a contact already: it answers that contact (200). A second
 * lost race in a row is the 409.
 */
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
    const attempt = () =>
      this.store.handle(
        streamOf.rota(rotaId),
        evolve,
        (state) => decideAddContact(state, { rotaId, userId, contactId }, { userExists }),
        { metadata: metadataOf(caller) },
      );
    let handled;
    try {
      handled = await attempt();
    } catch (err) {
      if (!(err instanceof ConcurrencyError)) throw err;
      handled = await attempt();
    }
    if (handled.events.length > 0) return { contactId, created: true };
    return { contactId: contactOf(handled.state!, userId)!, created: false };
  }
}
