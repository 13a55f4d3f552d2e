import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, Teams, UserBases } from '#app/identity';
import { RotaIds } from '../next-id.js';
import { streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { evolve } from './rota.js';
import type { UpdateRota } from './rota-decisions.js';
import { decideRotaUpdate } from './update-rota.write.js';

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

/** `PUT /api/rotas/{id}`: reach, role profiles, users and contact ids read first, then the rota's stream (decideRotaUpdate). */
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
    const [reach, roleProfilesOfOrganisation, users, contactIds] = await Promise.all([
      this.policy.reach(caller),
      this.teams.roleProfiles(caller, [...new Set((input.roleProfiles ?? []).map((r) => r.id))]),
      this.users.displayNames(caller, contactUsers),
      this.ids.many('contact', contactUsers.length),
    ]);
    const command = { ...input, organisationId: caller.organisationId };
    const reads = { reach, roleProfilesOfOrganisation, usersOfOrganisation: new Set(users.keys()), contactIds };
    await this.store.handle(streamOf.rota(rotaId), evolve, decideRotaUpdate(command, reads), {
      metadata: metadataOf(caller),
    });
  }
}
