import { describe, expect, it } from '@jest/globals';
import { streamOf } from '../rotas.events.js';
import { createRotasChange, type CreateRotasReads, teamsActedOn } from './create-rota.write.js';
import type { CreateRotas } from './rota-decisions.js';
import { mondaySlot } from './rota.fixtures.js';

const command: CreateRotas = {
  organisationId: 1,
  ids: [20, 21],
  teams: [
    { id: 3, field: 'teams.0.id' },
    { id: 4, field: 'teams.1.id' },
  ],
  name: 'Shop',
  startDate: '2026-12-01',
  endDate: null,
  patternId: 5,
};
const reads: CreateRotasReads = {
  pattern: { id: 5, archived: false, timeslots: [mondaySlot()] },
  teamsOfOrganisation: new Set([3, 4]),
  managedTeams: new Set([3, 4, 9]),
  roleProfilesOfOrganisation: new Set(),
  usersOfOrganisation: new Set(),
  zone: 'Europe/London',
  existing: [7],
  timeslotIds: [300, 301],
  contactIds: [],
};

describe('teamsActedOn', () => {
  it('given named teams, then those of the organisation the caller manages, in order', () => {
    expect(
      teamsActedOn([4, 8, 3, 9], { teamsOfOrganisation: new Set([3, 4, 9]), managedTeams: new Set([3, 4]) }),
    ).toEqual([4, 3]);
  });
});

describe('createRotasChange', () => {
  it('given two teams with a running rota, then it reads that rota and the teams, and names the new rotas unread', () => {
    const change = createRotasChange(command, reads);
    expect([change.rotaIds, change.teamIds, change.newRotaIds]).toEqual([[7], [3, 4], [20, 21]]);
  });

  it('given teams without rotas, then one rota per team under the ids drawn, each with a fresh timeslot id every attempt', () => {
    const change = createRotasChange(command, { ...reads, existing: [] });
    for (let attempt = 0; attempt < 2; attempt++) {
      const events = change.decide({ rotas: new Map(), teams: new Map() });
      const created = events.filter((e) => e.type === 'rotas.RotaCreated');
      expect(created.map((e) => e.data.id)).toEqual([20, 21]);
      expect(JSON.stringify(created.map((e) => e.data))).toContain('"id":300');
      expect(
        events.some((e) => e.type === 'rotas.TeamRotaAdded' && streamOf.team(e.data.teamId) === 'rotas.Team-3'),
      ).toBe(true);
    }
  });
});
