import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, Teams, UserBases } from '#app/identity';
import { idSource } from '../domain/timeslot-timeline.js';
import { RotaIds } from '../next-id.js';
import { streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { evolve } from './rota.js';
import { decideUpdateRota, type UpdateRota } from './rota-decisions.js';

export type UpdateRotaInput = Omit<UpdateRota, 'organisationId'>;

export class UpdateRotaCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly rotaId: number,
    readonly input: UpdateRotaInput,
  ) {
    super();
  }
}

/**
 * `PUT /api/rotas/{id}` (decideUpdateRota): manage-rotas over the rota's team (404 unknown or
 * another organisation's, 403 hidden or not managed), then the decision on the rota's stream. The
 * settings and the replaced contact set go in one append; a concurrent change of the rota wins
 * the race and this one gets the 409.
 */
@CommandHandler(UpdateRotaCommand)
export class UpdateRotaHandler implements ICommandHandler<UpdateRotaCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly teams: Teams,
    private readonly users: UserBases,
    private readonly ids: RotaIds,
  ) {}

  async execute({ caller, rotaId, input }: UpdateRotaCommand): Promise<void> {
    this.policy.requireManageRotas(caller);
    const contactUsers = [...new Set((input.contacts ?? []).map((c) => c.id))];
    const [reach, roleProfiles, users, contactIds] = await Promise.all([
      this.policy.reach(caller),
      this.teams.roleProfiles(caller, [...new Set((input.roleProfiles ?? []).map((r) => r.id))]),
      this.users.displayNames(caller, contactUsers),
      this.ids.many('contact', contactUsers.length),
    ]);
    await this.store.handle(
      streamOf.rota(rotaId),
      evolve,
      (state) => {
        this.policy.assertManages(reach, state?.organisationId === caller.organisationId ? state : null);
        return decideUpdateRota(
          state,
          { ...input, organisationId: caller.organisationId },
          {
            roleProfilesOfOrganisation: roleProfiles,
            usersOfOrganisation: new Set(users.keys()),
            contactIds: idSource(contactIds),
          },
        );
      },
      { metadata: metadataOf(caller) },
    );
  }
}
