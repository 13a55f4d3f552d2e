import { describe, expect, it } from '@jest/globals';
import { ConflictError, testDecider, ValidationError } from '#app/platform';
import type { RotaTimeslot } from '../domain/weekly-timeslots.js';
import type { RotaCreatedData, RotaEvent } from '../rotas.events.js';
import { byRotaStream } from './bulk.js';
import { type BulkCommand, type BulkContext, decideBulk, evolveRotas } from './bulk.js';
import { calendarData, evolve, type RotaState } from './rota.js';

const today = '2026-11-20';
const slot: RotaTimeslot = {
  id: 70,
  weekday_start: 'monday',
  start_time: '09:00',
  weekday_end: 'monday',
  end_time: '12:00',
  min: 1,
  ideal: 2,
  max: 3,
};

const created = (id: number, over: Partial<RotaCreatedData> = {}): RotaEvent => ({
  type: 'rotas.RotaCreated',
  data: {
    id,
    organisationId: 1,
    teamId: 10,
    patternId: 5,
    startDate: '2026-11-01',
    endDate: null,
    timeslots: [slot],
    name: `Rota ${id}`,
    colour: '#112233',
    selfManage: false,
    allowSameDayAdd: true,
    allowSameDayCancel: false,
    allowSameDayEdit: false,
    restrictedByRole: false,
    roleProfileIds: [],
    requireFullTimeslot: false,
    ...over,
  },
});
const archived = (id: number): RotaEvent => ({
  type: 'rotas.RotaArchived',
  data: {
    id,
    organisationId: 1,
    effectiveFrom: '2026-11-10',
    calendar: {
      startDate: '2026-11-01',
      endDate: null,
      archived: true,
      closedDates: [],
      timeline: [{ from: '2026-11-01', to: null, timeslots: [slot] }],
    },
  },
});
const contact = (id: number, rotaId: number, userId: number): RotaEvent => ({
  type: 'rotas.RotaContactAdded',
  data: { id, organisationId: 1, rotaId, userId },
});

/** A rota's state after its events: what the decision saw, for the expected calendars. */
const stateOf = (events: RotaEvent[]): RotaState => events.reduce<RotaState | null>(evolve, null)!;

const ctx: BulkContext = { today, manages: new Set([10]), features: new Set(), users: new Set(), contactIds: [] };
const bulk = testDecider({ evolve: evolveRotas, decide: decideBulk });
const command = (action: BulkCommand['action'], data: unknown, rotaIds: number[] = [1, 2]): BulkCommand => ({
  organisationId: 1,
  action,
  rotaIds,
  data,
});

describe('bulk actions: the rotas they may name (all or nothing)', () => {
  it(
    'given rotas the caller manages and one of another team, when any action names them, then it is one ' +
      '422 naming rota_ids with the offending id, and nothing changes',
    () => {
      const err = bulk
        .given([created(1), created(2), created(3, { teamId: 11 })])
        .when(command('name', { name: 'New' }, [1, 3, 2]), ctx)
        .thenThrows(ValidationError, ['rota_ids']);
      expect(err.errors!.rota_ids![0]).toMatch(/: 3\.$/);
    },
  );

  it('given a rota of another organisation and an unknown id, when named, then both are listed under rota_ids', () => {
    const err = bulk
      .given([created(1), created(2, { organisationId: 2 })])
      .when(command('archive_rotas', undefined, [1, 2, 99]), ctx)
      .thenThrows(ValidationError, ['rota_ids']);
    expect(err.errors!.rota_ids![0]).toMatch(/: 2, 99\.$/);
  });

  it('given no rota ids, or more than 500 (counted as sent), then it is a 422 naming rota_ids', () => {
    bulk
      .given([created(1)])
      .when(command('archive_rotas', undefined, []), ctx)
      .thenThrows(ValidationError, ['rota_ids']);
    bulk
      .given([created(1)])
      .when(
        command(
          'archive_rotas',
          undefined,
          Array.from({ length: 501 }, () => 1),
        ),
        ctx,
      )
      .thenThrows(ValidationError, ['rota_ids']);
  });

  it('given a rota id listed twice, when acted on, then the rota is acted on once', () => {
    bulk
      .given([created(1)])
      .when(command('name', { name: 'Once' }, [1, 1]), ctx)
      .then([{ type: 'rotas.RotaChanged', data: { id: 1, organisationId: 1, changes: { name: 'Once' } } }]);
  });

  it('given a bad rota id and bad data, then one 422 names both', () => {
    bulk
      .given([created(1)])
      .when(command('name', { name: '' }, [1, 2]), ctx)
      .thenThrows(ValidationError, ['rota_ids', 'data.name']);
  });

  it('given data with a field of another action, then it is a 422 naming that field', () => {
    bulk
      .given([created(1)])
      .when(command('name', { name: 'A', date: today }, [1]), ctx)
      .thenThrows(ValidationError, ['data.date']);
    bulk
      .given([created(1)])
      .when(command('archive_rotas', { colour: '#000000' }, [1]), ctx)
      .thenThrows(ValidationError, ['data.colour']);
  });

  it('given data that is not an object, then it is a 422 naming data', () => {
    bulk
      .given([created(1)])
      .when(command('end_date', 'tomorrow', [1]), ctx)
      .thenThrows(ValidationError, ['data']);
    bulk
      .given([created(1)])
      .when(command('end_date', [today], [1]), ctx)
      .thenThrows(ValidationError, ['data']);
  });
});

describe('bulk end_date', () => {
  it('given two rotas, when the end date is set, then each ends that day, effective the day after, with the calendar after the change', () => {
    const events = [created(1), created(2, { endDate: '2027-06-30' })];
    bulk
      .given(events)
      .when(command('end_date', { date: '2026-12-31' }), ctx)
      .then(
        [1, 2].map((id, i) => ({
          type: 'rotas.RotaEnded',
          data: {
            id,
            organisationId: 1,
            effectiveFrom: '2027-01-01',
            calendar: calendarData({ ...stateOf([events[i]!]), endDate: '2026-12-31' }),
            endDate: '2026-12-31',
            reason: 'end_date',
            supersededBy: null,
          },
        })),
      );
  });

  it('given an archived rota among them, when the end date is set, then the archived one is skipped', () => {
    const events = bulk.given([created(1), created(2), archived(2)]).when(command('end_date', { date: today }), ctx);
    events.then([
      {
        type: 'rotas.RotaEnded',
        data: {
          id: 1,
          organisationId: 1,
          effectiveFrom: '2026-11-21',
          calendar: calendarData({ ...stateOf([created(1)]), endDate: today }),
          endDate: today,
          reason: 'end_date',
          supersededBy: null,
        },
      },
    ]);
  });

  it('given a rota ending on that date already, then nothing is recorded for it', () => {
    bulk
      .given([created(1, { endDate: '2026-12-31' })])
      .when(command('end_date', { date: '2026-12-31' }, [1]), ctx)
      .then([]);
  });

  it('given a date before today, then it is a 422 naming data.date', () => {
    bulk
      .given([created(1)])
      .when(command('end_date', { date: '2026-11-19' }, [1]), ctx)
      .thenThrows(ValidationError, ['data.date']);
  });

  it(
    'given the team has a later rota, when the end date would reach its start, then it is a 422 naming ' +
      'data.date (one rota per team per day); the day before is fine',
    () => {
      const later = { ...ctx, nextTeamStarts: new Map([[1, { rotaId: 7, startDate: '2027-03-01' }]]) };
      const err = bulk
        .given([created(1)])
        .when(command('end_date', { date: '2027-03-01' }, [1]), later)
        .thenThrows(ValidationError, ['data.date']);
      expect(err.errors!['data.date']![0]).toMatch(/rota 1 \(its team's rota 7 starts on 2027-03-01\)/);
      bulk
        .given([created(1)])
        .when(command('end_date', { date: '2027-02-28' }, [1]), later)
        .then([
          {
            type: 'rotas.RotaEnded',
            data: {
              id: 1,
              organisationId: 1,
              effectiveFrom: '2027-03-01',
              calendar: calendarData({ ...stateOf([created(1)]), endDate: '2027-02-28' }),
              endDate: '2027-02-28',
              reason: 'end_date',
              supersededBy: null,
            },
          },
        ]);
    },
  );

  it('given a date before a rota’s start, then the whole request is a 422 naming data.date', () => {
    bulk
      .given([created(1), created(2, { startDate: '2027-02-01' })])
      .when(command('end_date', { date: '2027-01-01' }), ctx)
      .thenThrows(ValidationError, ['data.date']);
  });

  it('given no date, then it is a 422 naming data.date', () => {
    bulk
      .given([created(1)])
      .when(command('end_date', undefined, [1]), ctx)
      .thenThrows(ValidationError, ['data.date']);
  });
});

describe('bulk name', () => {
  it('given two rotas, one named so already, when renamed, then only the other records the change', () => {
    bulk
      .given([created(1), created(2, { name: 'Shop' })])
      .when(command('name', { name: 'Shop' }), ctx)
      .then([{ type: 'rotas.RotaChanged', data: { id: 1, organisationId: 1, changes: { name: 'Shop' } } }]);
  });

  it('given a name of 256 characters, then it is a 422 naming data.name', () => {
    bulk
      .given([created(1)])
      .when(command('name', { name: 'x'.repeat(256) }, [1]), ctx)
      .thenThrows(ValidationError, ['data.name']);
  });

  it('given an archived rota among them, then the whole request is a 409', () => {
    bulk
      .given([created(1), created(2), archived(2)])
      .when(command('name', { name: 'New' }), ctx)
      .thenThrows(ConflictError, /archived rotas: 2\./);
  });
});

describe('bulk close and reopen', () => {
  const closed = (id: number, dates: string[], closedDates = dates): RotaEvent => ({
    type: 'rotas.RotaClosed',
    data: {
      id,
      organisationId: 1,
      effectiveFrom: dates[0]!,
      calendar: calendarData({ ...stateOf([created(id)]), closedDates }),
      dates,
    },
  });

  it('given two rotas, when dates are closed, then each records the dates it newly closes, effective from the earliest', () => {
    const first = closed(1, ['2026-12-25']);
    bulk
      .given([created(1), first, created(2)])
      .when(command('close', { dates: ['2026-12-26', '2026-12-25', '2026-12-26'] }), ctx)
      .then([closed(1, ['2026-12-26'], ['2026-12-25', '2026-12-26']), closed(2, ['2026-12-25', '2026-12-26'])]);
  });

  it('given dates closed already, when closed again, then nothing is recorded', () => {
    bulk
      .given([created(1), closed(1, ['2026-12-25'])])
      .when(command('close', { dates: ['2026-12-25'] }, [1]), ctx)
      .then([]);
  });

  it('given a past date and a malformed one, then the 422 names each by its index', () => {
    bulk
      .given([created(1)])
      .when(command('close', { dates: ['2026-12-25', '2026-11-19', '2026-02-30'] }, [1]), ctx)
      .thenThrows(ValidationError, ['data.dates.1', 'data.dates.2']);
  });

  it('given no dates or 367 of them, then it is a 422 naming data.dates', () => {
    bulk
      .given([created(1)])
      .when(command('close', { dates: [] }, [1]), ctx)
      .thenThrows(ValidationError, ['data.dates']);
    bulk
      .given([created(1)])
      .when(command('close', { dates: Array.from({ length: 367 }, () => '2026-12-25') }, [1]), ctx)
      .thenThrows(ValidationError, ['data.dates']);
  });

  it('given an archived rota, when closing, then it is a 409', () => {
    bulk
      .given([created(1), archived(1)])
      .when(command('close', { dates: ['2026-12-25'] }, [1]), ctx)
      .thenThrows(ConflictError);
  });

  it('given closed dates, when some are reopened, then the closures are lifted and the rest stay', () => {
    bulk
      .given([created(1), closed(1, ['2026-12-25', '2026-12-26'])])
      .when(command('reopen', { dates: ['2026-12-26', '2026-12-27'] }, [1]), ctx)
      .then([
        {
          type: 'rotas.RotaReopened',
          data: { id: 1, organisationId: 1, dates: ['2026-12-26'], closedDates: ['2026-12-25'] },
        },
      ]);
  });

  it('given no closed date among them, when reopened, then nothing is recorded', () => {
    bulk
      .given([created(1)])
      .when(command('reopen', { dates: ['2026-12-26'] }, [1]), ctx)
      .then([]);
  });

  it('given a past date, when reopened, then it is a 422 naming it', () => {
    bulk
      .given([created(1)])
      .when(command('reopen', { dates: ['2026-01-01'] }, [1]), ctx)
      .thenThrows(ValidationError, ['data.dates.0']);
  });

  it('given an archived rota, when reopening, then it is a 409', () => {
    bulk
      .given([created(1), archived(1)])
      .when(command('reopen', { dates: ['2026-12-25'] }, [1]), ctx)
      .thenThrows(ConflictError);
  });
});

describe('bulk archive_rotas', () => {
  it('given two rotas, one archived already, when archived, then the other is archived effective today, and the archived one is left as it is', () => {
    bulk
      .given([created(1), created(2), archived(2)])
      .when(command('archive_rotas', undefined), ctx)
      .then([
        {
          type: 'rotas.RotaArchived',
          data: {
            id: 1,
            organisationId: 1,
            effectiveFrom: today,
            calendar: calendarData({ ...stateOf([created(1)]), archived: true }),
          },
        },
      ]);
  });

  it('given data null or empty, then it is accepted', () => {
    bulk
      .given([created(1), archived(1)])
      .when(command('archive_rotas', null, [1]), ctx)
      .then([]);
    bulk
      .given([created(1), archived(1)])
      .when(command('archive_rotas', {}, [1]), ctx)
      .then([]);
  });
});

describe('bulk add_contacts', () => {
  const v2: BulkContext = {
    ...ctx,
    features: new Set(['rota_v2']),
    users: new Set([30, 31]),
    contactIds: [500, 501, 502],
  };

  it('given an organisation without rota_v2, then it is a 422 naming action', () => {
    bulk
      .given([created(1)])
      .when(command('add_contacts', { user_ids: [30] }, [1]), { ...v2, features: new Set() })
      .thenThrows(ValidationError, ['action']);
  });

  it('given a rota with one of the users as a contact, when both are added to two rotas, then only the new pairs are added, with the ids drawn', () => {
    bulk
      .given([created(1), contact(400, 1, 30), created(2)])
      .when(command('add_contacts', { user_ids: [30, 31, 31] }), v2)
      .then([
        { type: 'rotas.RotaContactAdded', data: { id: 500, organisationId: 1, rotaId: 1, userId: 31 } },
        { type: 'rotas.RotaContactAdded', data: { id: 501, organisationId: 1, rotaId: 2, userId: 30 } },
        { type: 'rotas.RotaContactAdded', data: { id: 502, organisationId: 1, rotaId: 2, userId: 31 } },
      ]);
  });

  it('given a user who is not of the organisation, then it is a 422 naming data.user_ids with the id', () => {
    const err = bulk
      .given([created(1)])
      .when(command('add_contacts', { user_ids: [30, 77] }, [1]), v2)
      .thenThrows(ValidationError, ['data.user_ids']);
    expect(err.errors!['data.user_ids']![0]).toMatch(/: 77\.$/);
  });

  it('given no users, 51 of them or a non-integer, then it is a 422 naming the list or the item', () => {
    bulk
      .given([created(1)])
      .when(command('add_contacts', { user_ids: [] }, [1]), v2)
      .thenThrows(ValidationError, ['data.user_ids']);
    bulk
      .given([created(1)])
      .when(command('add_contacts', { user_ids: Array.from({ length: 51 }, () => 30) }, [1]), v2)
      .thenThrows(ValidationError, ['data.user_ids']);
    bulk
      .given([created(1)])
      .when(command('add_contacts', { user_ids: [30, 'x'] }, [1]), v2)
      .thenThrows(ValidationError, ['data.user_ids.1']);
    bulk
      .given([created(1)])
      .when(command('add_contacts', {}, [1]), v2)
      .thenThrows(ValidationError, ['data.user_ids']);
  });

  it('given an archived rota, then it is a 409', () => {
    bulk
      .given([created(1), archived(1)])
      .when(command('add_contacts', { user_ids: [30] }, [1]), v2)
      .thenThrows(ConflictError);
  });

  it('given fewer contact ids drawn than contacts to add (a contact removed meanwhile), then it is a 409 and nothing is added', () => {
    bulk
      .given([created(1), created(2)])
      .when(command('add_contacts', { user_ids: [30, 31] }), v2)
      .thenThrows(ConflictError, /changed/);
  });
});

describe('the decision’s events by rota stream', () => {
  it('groups events by their rota (a contact event by rotaId), in the order of first appearance', () => {
    const events: RotaEvent[] = [
      contact(500, 2, 30),
      { type: 'rotas.RotaChanged', data: { id: 1, organisationId: 1, changes: { name: 'x' } } },
      contact(501, 2, 31),
    ];
    expect(byRotaStream(events)).toEqual([
      { streamId: 'rotas.Rota-2', events: [events[0], events[2]] },
      { streamId: 'rotas.Rota-1', events: [events[1]] },
    ]);
  });
});
