import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Caller, Hierarchy, OrganisationFactsReader, Teams, UserBases } from '#app/identity';
import { RotaIds } from '../next-id.js';
import { ROTA_PERMISSIONS, RotasPolicy } from '../rotas.policy.js';
import { ShiftPatternQueries } from '../shift-pattern/shift-pattern.queries.js';
import { createRotasChange, teamsActedOn } from './create-rota.write.js';
import { RotaChanges } from './rota-change.js';
import type { CreateRotas } from './rota-decisions.js';
import { RotaQueries } from './rota.queries.js';

/** The create body as the decision takes it, without what the handler adds (organisation, ids). */
export type CreateRotasInput = Omit<CreateRotas, 'organisationId' | 'ids'>;

/** Answers the new rotas' ids, one per team of the body, in its order. */
export class CreateRotasCommand extends Command<number[]> {
  constructor(
    readonly caller: Caller,
    readonly input: CreateRotasInput,
  ) {
    super();
  }
}

/** `POST /api/rotas`: the pattern, teams, role profiles, users, the teams' rotas and the ids read first, then one rota change (createRotasChange). */
@CommandHandler(CreateRotasCommand)
export class CreateRotasHandler implements ICommandHandler<CreateRotasCommand> {
  constructor(
    private readonly changes: RotaChanges,
    private readonly organisations: OrganisationFactsReader,
    private readonly policy: RotasPolicy,
    private readonly hierarchy: Hierarchy,
    private readonly teams: Teams,
    private readonly users: UserBases,
    private readonly patterns: ShiftPatternQueries,
    private readonly rotas: RotaQueries,
    private readonly ids: RotaIds,
  ) {}

  async execute({ caller, input }: CreateRotasCommand): Promise<number[]> {
    this.policy.requireManageRotas(caller);
    const named = [...new Set(input.teams.map((t) => t.id))];
    const contactUsers = [...new Set((input.contacts ?? []).map((c) => c.id))];
    const [pattern, teamsOfOrganisation, managed, roleProfilesOfOrganisation, users, { timezone: zone }] =
      await Promise.all([
        this.patterns.forRota(caller, input.patternId),
        this.teams.existing(caller, named),
        this.hierarchy.teams(caller, ROTA_PERMISSIONS.manage),
        this.teams.roleProfiles(caller, [...new Set((input.roleProfiles ?? []).map((r) => r.id))]),
        this.users.displayNames(caller, contactUsers),
        this.organisations.of(caller),
      ]);
    const context = {
      pattern,
      teamsOfOrganisation,
      managedTeams: new Set(managed),
      roleProfilesOfOrganisation,
      usersOfOrganisation: new Set(users.keys()),
    };
    const existing = await this.rotas.idsOfTeams(caller, teamsActedOn(named, context));
    const count = input.teams.length;
    const [ids, timeslotIds, contactIds] = await Promise.all([
      this.ids.many('rota', count),
      this.ids.many('timeslot', (pattern?.timeslots.length ?? 0) * count),
      this.ids.many('contact', contactUsers.length * count),
    ]);
    const command = { ...input, organisationId: caller.organisationId, ids };
    await this.changes.write(
      caller,
      createRotasChange(command, { ...context, zone, existing, timeslotIds, contactIds }),
    );
    return ids;
  }
}
