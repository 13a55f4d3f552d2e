import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Caller, OrganisationFactsReader, UserBases } from '#app/identity';
import { isPositiveId } from '#app/platform';
import { MAX_BULK_ROTAS } from '../domain/rota-rules.js';
import { RotaIds } from '../next-id.js';
import { RotasPolicy } from '../rotas.policy.js';
import { type BulkActionName, byRotaStream, decideBulk, MAX_CONTACT_USERS, ROTA_V2 } from './bulk.js';
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

/** The bulk actions that can leave booked shifts outside the rota. */
const CALENDAR_ACTIONS: ReadonlySet<BulkActionName> = new Set(['end_date', 'close', 'archive_rotas']);

/**
 * `POST /api/rotas/bulk`: the caller's reach, the organisation's today and features, and for
 * add_contacts the users and the contact ids are read first; then one decision over every listed
 * rota's stream, appended together at the versions read, or nothing (a refusal; a concurrent
 * change of any of them makes the store decide again, a 409 only when it keeps losing). end_date,
 * close and archive_rotas cancel the shifts they leave outside the rotas, and end the series they
 * cut short, in the same write (RotaChanges).
 */
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
    const [reach, facts] = await Promise.all([this.policy.reach(caller), this.facts.of(caller)]);
    // Over the limit the decision refuses the list whatever it holds: no stream is read.
    const distinct = rotaIds.length <= MAX_BULK_ROTAS ? [...new Set(rotaIds)] : [];
    let users = new Set<number>();
    let contactIds: number[] = [];
    if (action === 'add_contacts' && facts.features.has(ROTA_V2)) {
      const userIds = contactUserIds(data);
      users = new Set((await this.users.displayNames(caller, userIds)).keys());
      // One id for each pair (rota, user) that is not a contact yet, as the table shows it now.
      const wanted = distinct.length * users.size - (await this.contacts.existingPairs(caller, distinct, [...users]));
      contactIds = await this.ids.many('contact', Math.max(0, wanted));
    }
    const nextTeamStarts = action === 'end_date' ? await this.rotas.nextTeamStarts(caller, distinct) : undefined;
    await this.changes.write({
      caller,
      zone: facts.timezone,
      rotaIds: distinct,
      movesCalendars: CALENDAR_ACTIONS.has(action),
      decide: (rotas) => {
        const events = decideBulk(
          rotas,
          { organisationId: caller.organisationId, action, rotaIds, data },
          {
            today: facts.today,
            manages: reach.manages,
            features: facts.features,
            users,
            contactIds,
            nextTeamStarts,
          },
        );
        return byRotaStream(events);
      },
    });
  }
}

/** add_contacts' user ids worth looking up: the positive ids of a well-formed list (the decision refuses the rest). */
function contactUserIds(data: unknown): number[] {
  const ids = (data as { user_ids?: unknown } | null | undefined)?.user_ids;
  if (!Array.isArray(ids) || ids.length > MAX_CONTACT_USERS) return [];
  return [...new Set(ids.filter(isPositiveId))];
}
