import { idSource } from '../domain/timeslot-timeline.js';
import { type CreateRotas, type CreateRotasContext, decideCreateRotas } from './rota-decisions.js';
import type { RotaChange } from './rota-change.write.js';

/** What a create reads before its write (the pattern, teams, role profiles, users) and the ids drawn for it. */
export interface CreateRotasReads extends Omit<CreateRotasContext, 'timeslotIds' | 'contactIds'> {
  readonly zone: string;
  /** The existing rotas of the teams acted on (the rotas table, read before). */
  readonly existing: readonly number[];
  readonly timeslotIds: readonly number[];
  readonly contactIds: readonly number[];
}

/** The named teams a create acts on and reads: the organisation's, under the caller's manage-rotas. */
export const teamsActedOn = (
  named: readonly number[],
  reads: Pick<CreateRotasReads, 'teamsOfOrganisation' | 'managedTeams'>,
) => named.filter((t) => reads.teamsOfOrganisation.has(t) && reads.managedTeams.has(t));

/**
 * `POST /api/rotas` (decideCreateRotas): one rota per team, all or nothing, in one write over every
 * stream it touches: the new rotas' streams (`no_stream`), the running team rotas it ends (at the
 * versions read) and the teams' streams (`rotas.Team-<id>`).
 *
 * Why it is race-safe: one rota per team per day is decided over what the team's rotas were when
 * read. Two creates for one team both append a TeamRotaAdded to the team's stream at the version
 * they read, so only one of them can commit; the other loses the race (ending a running rota
 * alone would not do: a team with no running rota has no stream in common between two creates).
 * The team's rotas are found in the `rotas` table before, and their streams read with the team's
 * stream: a create committed in between shows in the team stream as a rota the decision was not
 * given, which is the same lost race (409). Everything else is read before: the pattern, the
 * teams, role profiles and users, and the ids (rotas, timeslots, contacts), drawn whether or not
 * the body is refused. A running rota it ends has its shifts after the end cancelled, and its
 * series ended, in the same write (rotaChangeWrite).
 */
export function createRotasChange(command: CreateRotas, reads: CreateRotasReads): RotaChange {
  const { zone, existing, timeslotIds, contactIds, ...context } = reads;
  return {
    zone,
    rotaIds: existing,
    teamIds: teamsActedOn([...new Set(command.teams.map((t) => t.id))], reads),
    newRotaIds: command.ids,
    // Fresh id sources each attempt: the write may run again.
    decide: (state) =>
      decideCreateRotas(state, command, {
        ...context,
        timeslotIds: idSource(timeslotIds),
        contactIds: idSource(contactIds),
      }),
  };
}
