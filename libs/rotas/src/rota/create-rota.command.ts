import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { StreamEvents, StreamRead } from '#app/event-store';
import { type Caller, Hierarchy, OrganisationFactsReader, Teams, UserBases } from '#app/identity';
import { idSource } from '../domain/timeslot-timeline.js';
import { RotaIds } from '../next-id.js';
import { streamOf } from '../rotas.events.js';
import { ROTA_PERMISSIONS, RotasPolicy } from '../rotas.policy.js';
import { ShiftPatternQueries } from '../shift-pattern/shift-pattern.queries.js';
import { RotaChanges } from './rota-change.js';
import {
  type CreateRotas,
  decideCreateRotas,
  evolveTeam,
  streamOfEvent,
  type TeamRotasState,
} from './rota-decisions.js';
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

/**
 * `POST /api/rotas` (decideCreateRotas): one rota per team, all or nothing, in one append over
 * every stream it touches: the new rotas' streams (`no_stream`), the running team rotas it ends
 * (at the versions read) and the teams' streams (`rotas.Team-<id>`).
 *
 * Why it is race-safe: one rota per team per day is decided over what the team's rotas were when
 * read. Two creates for one team both append a TeamRotaAdded to the team's stream at the version
 * they read, so only one of them can commit; the other fails on the (stream, version) key with a
 * 409, whether or not either ended a running rota (ending one alone would not do: a team with no
 * running rota has no stream in common between two creates). The team's rotas are found in the
 * `rotas` table and their streams read with the team's stream in one query: a create committed in
 * between shows in the team stream as a rota the decision was not given, which is the same lost
 * race (409). Everything else is read before: the pattern, the teams, role profiles and users,
 * and the ids (rotas, timeslots, contacts), drawn whether or not the body is refused. A running
 * rota it ends has its shifts after the end cancelled, and its series ended, in the same write
 * (RotaChanges).
 */
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
    const roleProfileIds = [...new Set((input.roleProfiles ?? []).map((r) => r.id))];
    const contactIds = [...new Set((input.contacts ?? []).map((c) => c.id))];
    const [pattern, ofOrganisation, managed, roleProfiles, users, { timezone: zone }] = await Promise.all([
      this.patterns.forRota(caller, input.patternId),
      this.teams.existing(caller, named),
      this.hierarchy.teams(caller, ROTA_PERMISSIONS.manage),
      this.teams.roleProfiles(caller, roleProfileIds),
      this.users.displayNames(caller, contactIds),
      this.organisations.of(caller),
    ]);
    const managedTeams = new Set(managed);
    const teams = named.filter((t) => ofOrganisation.has(t) && managedTeams.has(t));
    const existing = await this.rotas.idsOfTeams(caller, teams);
    const count = input.teams.length;
    const [ids, timeslotIds, newContactIds] = await Promise.all([
      this.ids.many('rota', count),
      this.ids.many('timeslot', (pattern?.timeslots.length ?? 0) * count),
      this.ids.many('contact', contactIds.length * count),
    ]);
    const streams: Record<string, StreamRead<unknown>> = Object.fromEntries([
      ...teams.map((t) => [`team ${t}`, { streamId: streamOf.team(t), evolve: evolveTeam }]),
      ...ids.map((id) => [`new ${id}`, { streamId: streamOf.rota(id), expect: 'no_stream' as const }]),
    ]);
    await this.changes.write({
      caller,
      zone,
      rotaIds: existing,
      streams,
      decide: (rotaStates, states) => {
        const teamStates = new Map(
          teams
            .map((t) => [t, states[`team ${t}`] as TeamRotasState | null] as const)
            .filter((e): e is [number, TeamRotasState] => e[1] !== null),
        );
        const events = decideCreateRotas(
          { rotas: rotaStates, teams: teamStates },
          { ...input, organisationId: caller.organisationId, ids },
          {
            pattern,
            teamsOfOrganisation: ofOrganisation,
            managedTeams,
            roleProfilesOfOrganisation: roleProfiles,
            usersOfOrganisation: new Set(users.keys()),
            timeslotIds: idSource(timeslotIds),
            contactIds: idSource(newContactIds),
          },
        );
        const byStream = new Map<string, StreamEvents['events'][number][]>();
        for (const event of events)
          (
            byStream.get(streamOfEvent(event)) ?? byStream.set(streamOfEvent(event), []).get(streamOfEvent(event))!
          ).push(event);
        return [...byStream].map(([streamId, streamEvents]) => ({ streamId, events: streamEvents }));
      },
    });
    return ids;
  }
}
