import { describe, expect, it } from '@jest/globals';
import { ConflictError, NotFoundError, testDecider, ValidationError } from '#app/platform';
import { idSource } from '../domain/timeslot-timeline.js';
import type { RotaTimeslot, WeeklyTimeslot } from '../domain/weekly-timeslots.js';
import type { RotaEvent, RotaSettings, TeamEvent } from '../rotas.events.js';
import { evolve } from './rota.js';
import {
  type CreateEvent,
  type CreateRotas,
  type CreateRotasContext,
  decideCreateRotas,
  decideUpdateRota,
  decideUpdateTimeslots,
  evolveTeamsAndRotas,
  paletteColour,
  streamOfEvent,
  type UpdateRota,
  type UpdateRotaContext,
} from './rota-decisions.js';

const monday: WeeklyTimeslot = {
  weekday_start: 'monday',
  start_time: '09:00',
  weekday_end: 'monday',
  end_time: '12:00',
  min: 1,
  ideal: 2,
  max: 3,
};
const settings: RotaSettings = {
  name: 'Mornings',
  colour: '#123456',
  selfManage: false,
  allowSameDayAdd: true,
  allowSameDayCancel: false,
  allowSameDayEdit: false,
  restrictedByRole: false,
  roleProfileIds: [],
  requireFullTimeslot: false,
};

/** A rota of team 10 (or `teamId`) created from `startDate`, recorded in its team's stream. */
function existing(
  id: number,
  startDate: string,
  over: { endDate?: string | null; teamId?: number; timeslots?: RotaTimeslot[] } = {},
): CreateEvent[] {
  const teamId = over.teamId ?? 10;
  return [
    {
      type: 'rotas.RotaCreated',
      data: {
        id,
        organisationId: 1,
        teamId,
        patternId: 3,
        ...settings,
        startDate,
        endDate: over.endDate ?? null,
        timeslots: over.timeslots ?? [{ id: 50 + id, ...monday }],
      },
    },
    { type: 'rotas.TeamRotaAdded', data: { teamId, organisationId: 1, rotaId: id, startDate } },
  ];
}
const archived = (id: number): RotaEvent => ({
  type: 'rotas.RotaArchived',
  data: {
    id,
    organisationId: 1,
    effectiveFrom: '2026-12-01',
    calendar: { startDate: '2027-02-01', endDate: null, archived: true, closedDates: [], timeline: [] },
  },
});

describe('creating rotas', () => {
  const rotas = testDecider({ evolve: evolveTeamsAndRotas, decide: decideCreateRotas });
  const ctx = (over: Partial<CreateRotasContext> = {}): CreateRotasContext => ({
    pattern: { id: 3, archived: false, timeslots: [monday] },
    teamsOfOrganisation: new Set([10, 11, 12]),
    managedTeams: new Set([10, 11]),
    roleProfilesOfOrganisation: new Set([20, 21]),
    usersOfOrganisation: new Set([30, 31]),
    timeslotIds: idSource([100, 101, 102, 103]),
    contactIds: idSource([200, 201, 202, 203]),
    ...over,
  });
  const create: CreateRotas = {
    organisationId: 1,
    ids: [5],
    teams: [{ id: 10, field: 'team.0.id' }],
    name: 'Mornings',
    startDate: '2027-01-04',
    endDate: null,
    patternId: 3,
  };
  const created = (id: number, teamId: number, timeslotId: number, over: Partial<RotaSettings> = {}): CreateEvent => ({
    type: 'rotas.RotaCreated',
    data: {
      id,
      organisationId: 1,
      teamId,
      patternId: 3,
      name: 'Mornings',
      colour: paletteColour(id),
      selfManage: false,
      allowSameDayAdd: true,
      allowSameDayCancel: false,
      allowSameDayEdit: false,
      restrictedByRole: false,
      roleProfileIds: [],
      requireFullTimeslot: false,
      ...over,
      startDate: '2027-01-04',
      endDate: null,
      timeslots: [{ id: timeslotId, ...monday }],
    },
  });
  const added = (id: number, teamId: number): TeamEvent => ({
    type: 'rotas.TeamRotaAdded',
    data: { teamId, organisationId: 1, rotaId: id, startDate: '2027-01-04' },
  });

  it(
    'given no rota, when a rota is created with only the required fields, then it takes the interface’s ' +
      'defaults, a palette colour and the pattern’s timeslots with new ids',
    () => {
      rotas
        .given([])
        .when(create, ctx())
        .then([created(5, 10, 100), added(5, 10)]);
    },
  );

  it(
    'given no rota, when a rota is created with every field, then each is recorded (role profiles once ' +
      'each, sorted) and each contact gets a contact record',
    () => {
      const full: CreateRotas = {
        ...create,
        endDate: '2027-06-30',
        colour: '#abcdef',
        selfManage: true,
        allowSameDayAdd: false,
        allowSameDayCancel: true,
        allowSameDayEdit: true,
        restrictedByRole: true,
        requireFullTimeslot: true,
        roleProfiles: [
          { id: 21, field: 'role_profiles.0' },
          { id: 20, field: 'role_profiles.1.id' },
          { id: 21, field: 'role_profiles.2' },
        ],
        contacts: [
          { id: 31, field: 'contacts.0' },
          { id: 30, field: 'contacts.1.id' },
        ],
      };
      const event = created(5, 10, 100, {
        colour: '#abcdef',
        selfManage: true,
        allowSameDayAdd: false,
        allowSameDayCancel: true,
        allowSameDayEdit: true,
        restrictedByRole: true,
        roleProfileIds: [20, 21],
        requireFullTimeslot: true,
      }) as Extract<CreateEvent, { type: 'rotas.RotaCreated' }>;
      rotas
        .given([])
        .when(full, ctx())
        .then([
          { ...event, data: { ...event.data, endDate: '2027-06-30' } },
          { type: 'rotas.RotaContactAdded', data: { id: 200, organisationId: 1, rotaId: 5, userId: 31 } },
          { type: 'rotas.RotaContactAdded', data: { id: 201, organisationId: 1, rotaId: 5, userId: 30 } },
          added(5, 10),
        ]);
    },
  );

  it('given a pattern whose timeslots carry the pattern’s ids, when a rota is created, then the rota’s timeslots get new ids', () => {
    rotas
      .given([])
      .when(create, ctx({ pattern: { id: 3, archived: false, timeslots: [{ id: 7, ...monday } as WeeklyTimeslot] } }))
      .then([created(5, 10, 100), added(5, 10)]);
  });

  it('given no rota, when rotas are created for two teams, then one rota per team, in the order of the teams, each with its own ids', () => {
    const two = {
      ...create,
      ids: [5, 6],
      teams: [
        { id: 11, field: 'team.0.id' },
        { id: 10, field: 'team.1' },
      ],
      contacts: [{ id: 30, field: 'contacts.0' }],
    };
    rotas
      .given([])
      .when(two, ctx())
      .then([
        created(5, 11, 100),
        { type: 'rotas.RotaContactAdded', data: { id: 200, organisationId: 1, rotaId: 5, userId: 30 } },
        added(5, 11),
        created(6, 10, 101),
        { type: 'rotas.RotaContactAdded', data: { id: 201, organisationId: 1, rotaId: 6, userId: 30 } },
        added(6, 10),
      ]);
  });

  it('given an end_date before the start_date, when created, then it is a 422 naming end_date', () => {
    rotas
      .given([])
      .when({ ...create, endDate: '2027-01-03' }, ctx())
      .thenThrows(ValidationError, ['end_date']);
  });

  it('given an end_date on the start_date, when created, then the rota lasts that one day', () => {
    const event = created(5, 10, 100) as Extract<CreateEvent, { type: 'rotas.RotaCreated' }>;
    rotas
      .given([])
      .when({ ...create, endDate: '2027-01-04' }, ctx())
      .then([{ ...event, data: { ...event.data, endDate: '2027-01-04' } }, added(5, 10)]);
  });

  it('given a blank or over-long name, when created, then it is a 422 naming name', () => {
    rotas
      .given([])
      .when({ ...create, name: '  ' }, ctx())
      .thenThrows(ValidationError, ['name']);
    rotas
      .given([])
      .when({ ...create, name: 'x'.repeat(256) }, ctx())
      .thenThrows(ValidationError, ['name']);
  });

  it('given restricted_by_role, when created without role profiles, then it is a 422 naming role_profiles', () => {
    rotas
      .given([])
      .when({ ...create, restrictedByRole: true }, ctx())
      .thenThrows(ValidationError, ['role_profiles']);
    rotas
      .given([])
      .when({ ...create, restrictedByRole: true, roleProfiles: [] }, ctx())
      .thenThrows(ValidationError, ['role_profiles']);
  });

  it('given role profiles and contacts that are not the organisation’s, when created, then each is named by its item', () => {
    rotas
      .given([])
      .when(
        {
          ...create,
          roleProfiles: [
            { id: 20, field: 'role_profiles.0' },
            { id: 99, field: 'role_profiles.1.id' },
          ],
          contacts: [
            { id: 30, field: 'contacts.0' },
            { id: 98, field: 'contacts.1' },
          ],
        },
        ctx(),
      )
      .thenThrows(ValidationError, ['role_profiles.1.id', 'contacts.1']);
  });

  it('given an unknown or archived pattern, when created, then it is a 422 naming pattern_id', () => {
    rotas
      .given([])
      .when(create, ctx({ pattern: null }))
      .thenThrows(ValidationError, ['pattern_id']);
    rotas
      .given([])
      .when(create, ctx({ pattern: { id: 3, archived: true, timeslots: [monday] } }))
      .thenThrows(ValidationError, ['pattern_id']);
  });

  it('given teams unknown, outside the caller’s manage-rotas or listed twice, when created, then each is named by its item', () => {
    const teams = [
      { id: 10, field: 'team.0.id' },
      { id: 99, field: 'team.1.id' },
      { id: 12, field: 'team.2.id' },
      { id: 10, field: 'team.3' },
    ];
    rotas
      .given([])
      .when({ ...create, ids: [5, 6, 7, 8], teams }, ctx())
      .thenThrows(ValidationError, ['team.1.id', 'team.2.id', 'team.3']);
  });

  it('given no team, when created, then it is a 422 naming team', () => {
    rotas
      .given([])
      .when({ ...create, ids: [], teams: [] }, ctx())
      .thenThrows(ValidationError, ['team']);
  });

  it(
    'given a team rota running on the new start date, when a rota is created, then the running one ends ' +
      'the day before (superseded) in the same decision',
    () => {
      rotas
        .given(existing(2, '2026-06-01'))
        .when(create, ctx())
        .then([
          {
            type: 'rotas.RotaEnded',
            data: {
              id: 2,
              organisationId: 1,
              effectiveFrom: '2027-01-04',
              endDate: '2027-01-03',
              reason: 'superseded',
              supersededBy: 5,
              calendar: {
                startDate: '2026-06-01',
                endDate: '2027-01-03',
                archived: false,
                closedDates: [],
                timeline: [{ from: '2026-06-01', to: null, timeslots: [{ id: 52, ...monday }] }],
              },
            },
          },
          created(5, 10, 100),
          added(5, 10),
        ]);
    },
  );

  it('given a team rota with an end date on or after the new start, when a rota is created, then that end moves to the day before', () => {
    rotas
      .given(existing(2, '2026-06-01', { endDate: '2027-05-01' }))
      .when(create, ctx())
      .then([
        {
          type: 'rotas.RotaEnded',
          data: {
            id: 2,
            organisationId: 1,
            effectiveFrom: '2027-01-04',
            endDate: '2027-01-03',
            reason: 'superseded',
            supersededBy: 5,
            calendar: {
              startDate: '2026-06-01',
              endDate: '2027-01-03',
              archived: false,
              closedDates: [],
              timeline: [{ from: '2026-06-01', to: null, timeslots: [{ id: 52, ...monday }] }],
            },
          },
        },
        created(5, 10, 100),
        added(5, 10),
      ]);
  });

  it('given a team rota that ended before the new start, when a rota is created, then it is left as it is', () => {
    rotas
      .given(existing(2, '2026-06-01', { endDate: '2027-01-03' }))
      .when(create, ctx())
      .then([created(5, 10, 100), added(5, 10)]);
  });

  it('given a rota of another team running on the new start, when a rota is created, then it is left as it is', () => {
    rotas
      .given(existing(2, '2026-06-01', { teamId: 11 }))
      .when(create, ctx())
      .then([created(5, 10, 100), added(5, 10)]);
  });

  it('given a team rota starting on or after the new start, when a rota is created, then it is a clash: a 422 naming team', () => {
    rotas.given(existing(2, '2027-01-04')).when(create, ctx()).thenThrows(ValidationError, ['team']);
    rotas
      .given(existing(2, '2027-03-01'))
      .when({ ...create, endDate: '2027-01-31' }, ctx())
      .thenThrows(ValidationError, ['team']);
  });

  it('given archived team rotas, when a rota is created, then they neither clash nor are ended', () => {
    rotas
      .given([...existing(2, '2027-02-01'), archived(2), ...existing(3, '2026-01-01'), archived(3)])
      .when(create, ctx())
      .then([created(5, 10, 100), added(5, 10)]);
  });

  it('given two teams of which one clashes, when created, then nothing is created for either (all or nothing)', () => {
    const two = {
      ...create,
      ids: [5, 6],
      teams: [
        { id: 10, field: 'team.0.id' },
        { id: 11, field: 'team.1.id' },
      ],
    };
    rotas
      .given(existing(2, '2027-02-01', { teamId: 11 }))
      .when(two, ctx())
      .thenThrows(ValidationError, ['team']);
  });

  it('given a team stream listing a rota the decision was not given, when a rota is created, then the race is lost: a conflict', () => {
    const [, teamOnly] = existing(2, '2026-06-01');
    rotas.given([teamOnly!]).when(create, ctx()).thenThrows(ConflictError);
  });

  it('sends each event to its stream: rota events to the rota, contact events to their rota, team events to the team', () => {
    expect(streamOfEvent(created(5, 10, 100))).toBe('rotas.Rota-5');
    expect(
      streamOfEvent({ type: 'rotas.RotaContactAdded', data: { id: 200, organisationId: 1, rotaId: 5, userId: 30 } }),
    ).toBe('rotas.Rota-5');
    expect(streamOfEvent(added(5, 10))).toBe('rotas.Team-10');
  });
});

describe('updating a rota', () => {
  const rota = testDecider({ evolve, decide: decideUpdateRota });
  const [created] = existing(2, '2026-06-01') as [RotaEvent];
  const contact = (id: number, userId: number): RotaEvent => ({
    type: 'rotas.RotaContactAdded',
    data: { id, organisationId: 1, rotaId: 2, userId },
  });
  const ctx = (): UpdateRotaContext => ({
    roleProfilesOfOrganisation: new Set([20, 21]),
    usersOfOrganisation: new Set([30, 31, 32]),
    contactIds: idSource([300, 301]),
  });
  const update = (over: Omit<UpdateRota, 'organisationId'>): UpdateRota => ({ organisationId: 1, ...over });
  const changed = (changes: Partial<RotaSettings>): RotaEvent => ({
    type: 'rotas.RotaChanged',
    data: { id: 2, organisationId: 1, changes },
  });

  it('given a rota, when its settings change, then only the changed ones are recorded', () => {
    rota
      .given([created])
      .when(
        update({
          name: 'Evenings',
          colour: '#123456',
          selfManage: true,
          allowSameDayAdd: true,
          allowSameDayEdit: true,
        }),
        ctx(),
      )
      .then([changed({ name: 'Evenings', selfManage: true, allowSameDayEdit: true })]);
  });

  it('given a rota, when nothing differs (or every field is null), then nothing is recorded', () => {
    rota
      .given([created])
      .when(update({ name: 'Mornings', roleProfiles: [], contacts: [] }), ctx())
      .then([]);
    rota
      .given([created])
      .when(update({ name: null, colour: null, selfManage: null, roleProfiles: null, contacts: null }), ctx())
      .then([]);
  });

  it('given an archived rota, when anything is changed, then it is a conflict', () => {
    rota
      .given([created, archived(2)])
      .when(update({ name: 'Evenings' }), ctx())
      .thenThrows(ConflictError);
    rota
      .given([created, archived(2)])
      .when(update({}), ctx())
      .thenThrows(ConflictError);
  });

  it('given no rota, or another organisation’s, when updated, then it is not found', () => {
    rota
      .given([])
      .when(update({ name: 'x' }), ctx())
      .thenThrows(NotFoundError);
    rota.given([created]).when({ organisationId: 2, name: 'x' }, ctx()).thenThrows(NotFoundError);
  });

  it('given a blank name, when updated, then it is a 422 naming name', () => {
    rota
      .given([created])
      .when(update({ name: '' }), ctx())
      .thenThrows(ValidationError, ['name']);
  });

  it('given contacts, when a contact list is sent, then it replaces the set: users left out removed, new ones added, those staying kept', () => {
    rota
      .given([created, contact(200, 30), contact(201, 31)])
      .when(
        update({
          contacts: [
            { id: 32, field: 'contacts.0' },
            { id: 31, field: 'contacts.1.id' },
            { id: 32, field: 'contacts.2' },
          ],
        }),
        ctx(),
      )
      .then([
        { type: 'rotas.RotaContactRemoved', data: { id: 200, organisationId: 1, rotaId: 2, userId: 30 } },
        { type: 'rotas.RotaContactAdded', data: { id: 300, organisationId: 1, rotaId: 2, userId: 32 } },
      ]);
  });

  it('given contacts, when the list is empty, then every contact is removed; when it is null or absent, then they stay', () => {
    rota
      .given([created, contact(200, 30)])
      .when(update({ contacts: [] }), ctx())
      .then([{ type: 'rotas.RotaContactRemoved', data: { id: 200, organisationId: 1, rotaId: 2, userId: 30 } }]);
    rota
      .given([created, contact(200, 30)])
      .when(update({ contacts: null }), ctx())
      .then([]);
    rota
      .given([created, contact(200, 30)])
      .when(update({ name: 'Evenings' }), ctx())
      .then([changed({ name: 'Evenings' })]);
  });

  it('given contacts or role profiles that are not the organisation’s, when updated, then each is named by its item', () => {
    rota
      .given([created])
      .when(
        update({
          contacts: [{ id: 99, field: 'contacts.0.id' }],
          roleProfiles: [{ id: 98, field: 'role_profiles.0' }],
        }),
        ctx(),
      )
      .thenThrows(ValidationError, ['contacts.0.id', 'role_profiles.0']);
  });

  it(
    'given an unrestricted rota, when restricted_by_role is set without role profiles, then it is a 422 ' +
      'naming role_profiles; with them, both are recorded',
    () => {
      rota
        .given([created])
        .when(update({ restrictedByRole: true }), ctx())
        .thenThrows(ValidationError, ['role_profiles']);
      rota
        .given([created])
        .when(
          update({
            restrictedByRole: true,
            roleProfiles: [
              { id: 21, field: 'role_profiles.0' },
              { id: 20, field: 'role_profiles.1' },
            ],
          }),
          ctx(),
        )
        .then([changed({ restrictedByRole: true, roleProfileIds: [20, 21] })]);
    },
  );

  it('given a restricted rota, when its role profiles are emptied, then it is a 422 naming role_profiles; lifting the restriction as well is fine', () => {
    const restricted = changed({ restrictedByRole: true, roleProfileIds: [20] });
    rota
      .given([created, restricted])
      .when(update({ roleProfiles: [] }), ctx())
      .thenThrows(ValidationError, ['role_profiles']);
    rota
      .given([created, restricted])
      .when(update({ roleProfiles: [], restrictedByRole: false }), ctx())
      .then([changed({ restrictedByRole: false, roleProfileIds: [] })]);
  });
});

describe('updating a rota’s timeslots', () => {
  const rota = testDecider({ evolve, decide: decideUpdateTimeslots });
  const [created] = existing(2, '2027-01-04') as [RotaEvent];
  const old = [{ id: 52, ...monday }];
  const tuesday = { start_time: '18:00', end_time: '02:00', min: 0, ideal: 1, max: 2 };
  const newSlot: RotaTimeslot = {
    id: 400,
    weekday_start: 'tuesday',
    start_time: '18:00',
    weekday_end: 'wednesday',
    end_time: '02:00',
    min: 0,
    ideal: 1,
    max: 2,
  };
  const ctx = () => ({ today: '2027-01-20', newIds: idSource([400, 401]) });
  const changedEvent = (from: string, to: string | null, timeslots: RotaTimeslot[], timeline: unknown): RotaEvent =>
    ({
      type: 'rotas.RotaTimeslotsChanged',
      data: {
        id: 2,
        organisationId: 1,
        effectiveFrom: from,
        from,
        to,
        timeslots,
        calendar: { startDate: '2027-01-04', endDate: null, archived: false, closedDates: [], timeline },
      },
    }) as RotaEvent;

  it('given a rota, when timeslots are written without `to`, then they replace everything from `from` on', () => {
    rota
      .given([created])
      .when({ organisationId: 1, from: '2027-02-01', weekdays: { tuesday: [tuesday] } }, ctx())
      .then([
        changedEvent(
          '2027-02-01',
          null,
          [newSlot],
          [
            { from: '2027-01-04', to: '2027-01-31', timeslots: old },
            { from: '2027-02-01', to: null, timeslots: [newSlot] },
          ],
        ),
      ]);
  });

  it('given a rota, when timeslots are written over [from, to], then what stood after `to` stands again with its ids', () => {
    rota
      .given([created])
      .when(
        { organisationId: 1, from: '2027-02-01', to: '2027-02-28', weekdays: { tuesday: [tuesday], monday: [] } },
        ctx(),
      )
      .then([
        changedEvent(
          '2027-02-01',
          '2027-02-28',
          [newSlot],
          [
            { from: '2027-01-04', to: '2027-01-31', timeslots: old },
            { from: '2027-02-01', to: '2027-02-28', timeslots: [newSlot] },
            { from: '2027-03-01', to: null, timeslots: old },
          ],
        ),
      ]);
  });

  it('given a rota, when every weekday is omitted or empty, then the rota is closed on every day of the range (an empty version)', () => {
    rota
      .given([created])
      .when({ organisationId: 1, from: '2027-01-20', weekdays: { monday: [], sunday: null } }, ctx())
      .then([
        changedEvent(
          '2027-01-20',
          null,
          [],
          [
            { from: '2027-01-04', to: '2027-01-19', timeslots: old },
            { from: '2027-01-20', to: null, timeslots: [] },
          ],
        ),
      ]);
  });

  it('given a rota, when `from` is before today, then it is a 422 naming from; `to` before `from` names to', () => {
    rota
      .given([created])
      .when({ organisationId: 1, from: '2027-01-19', weekdays: {} }, ctx())
      .thenThrows(ValidationError, ['from']);
    rota
      .given([created])
      .when({ organisationId: 1, from: '2027-02-01', to: '2027-01-31', weekdays: {} }, ctx())
      .thenThrows(ValidationError, ['to']);
  });

  it('given a rota, when the weekdays break their rules, then every refusal is named in one 422 with the range’s', () => {
    const weekdays = {
      monday: [{ start_time: '09:00', end_time: '12:00', min: 3, ideal: 2, max: 1 }],
      funday: [],
      tuesday: [tuesday, { ...tuesday, start_time: '20:00' }],
    };
    rota
      .given([created])
      .when({ organisationId: 1, from: '2027-01-01', weekdays }, ctx())
      .thenThrows(ValidationError, [
        'from',
        'weekdays.monday.0.min',
        'weekdays.monday.0.ideal',
        'weekdays.funday',
        'weekdays.tuesday.1',
      ]);
  });

  it('given an archived rota, when timeslots are written, then it is a conflict; no rota, or another organisation’s, is not found', () => {
    rota
      .given([created, archived(2)])
      .when({ organisationId: 1, from: '2027-02-01', weekdays: {} }, ctx())
      .thenThrows(ConflictError);
    rota.given([]).when({ organisationId: 1, from: '2027-02-01', weekdays: {} }, ctx()).thenThrows(NotFoundError);
    rota
      .given([created])
      .when({ organisationId: 2, from: '2027-02-01', weekdays: {} }, ctx())
      .thenThrows(NotFoundError);
  });
});
