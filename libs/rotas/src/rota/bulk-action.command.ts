import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Caller, OrganisationFactsReader, UserBases } from '#app/identity';
import { RotaIds } from '../next-id.js';
import { RotasPolicy } from '../rotas.policy.js';
import { type BulkActionName, ROTA_V2, rotasToRead } from './bulk.js';
import { bulkActionChange, contactUserIds } from './bulk-action.write.js';
import { ContactQueries } from './contacts.queries.js';
import { RotaChanges } from './rota-change.js';
import { RotaQueries } from './rota.queries.js';

export class BulkActionCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly action: BulkActionName,
    readonly rotaIds: readonly number[],
    readonly data: unknown,
  ) {
    super();
  }
}

/** `POST /api/rotas/bulk`: reach, today, features (and add_contacts' users and ids) read first, then one rota change (bulkActionChange). */
@CommandHandler(BulkActionCommand)
export class BulkActionHandler implements ICommandHandler<BulkActionCommand> {
  constructor(
    private readonly changes: RotaChanges,
    private readonly policy: RotasPolicy,
    private readonly facts: OrganisationFactsReader,
    private readonly users: UserBases,
    private readonly contacts: ContactQueries,
    private readonly ids: RotaIds,
    private readonly rotas: RotaQueries,
  ) {}

  async execute({ caller, action, rotaIds, data }: BulkActionCommand): Promise<void> {
    this.policy.requireManageRotas(caller);
    const [reach, { timezone, today, features }] = await Promise.all([
      this.policy.reach(caller),
      this.facts.of(caller),
    ]);
    const distinct = rotasToRead(rotaIds);
    const contacts =
      action === 'add_contacts' && features.has(ROTA_V2) ? await this.newContacts(caller, distinct, data) : undefined;
    const nextTeamStarts = action === 'end_date' ? await this.rotas.nextTeamStarts(caller, distinct) : undefined;
    const command = { organisationId: caller.organisationId, action, rotaIds, data };
    const context = {
      today,
      manages: reach.manages,
      features,
      users: new Set<number>(),
      contactIds: [],
      ...contacts,
      nextTeamStarts,
    };
    await this.changes.write(caller, bulkActionChange(command, context, timezone));
  }

  /** add_contacts: the users of the organisation among those sent, and one id for each pair (rota, user) that is not a contact yet, as the table shows it now. */
  private async newContacts(caller: Caller, rotaIds: readonly number[], data: unknown) {
    const users = new Set((await this.users.displayNames(caller, contactUserIds(data))).keys());
    const wanted = rotaIds.length * users.size - (await this.contacts.existingPairs(caller, rotaIds, [...users]));
    return { users, contactIds: await this.ids.many('contact', Math.max(0, wanted)) };
  }
}
