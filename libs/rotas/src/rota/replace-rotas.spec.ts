import { describe, expect, it } from '@jest/globals';
import { ConflictError, testDecider, ValidationError } from '#app/platform';
import type { RotaTimeslot } from '../domain/weekly-timeslots.js';
import type { RotaCreatedData, RotaEvent } from '../rotas.events.js';
import { evolveRotas } from './bulk.js';
import { decideReplace, type PatternForReplace, type ReplaceCommand, type ReplaceContext } from './replace-rotas.js';

const today = '2026-11-20';
const own: RotaTimeslot = {
  id: 70,
  weekday_start: 'monday',
  start_time: '09:00',
  weekday_end: 'monday',
  end_time: '12:00',
  min: 1,
  ideal: 2,
  max: 3,
};
const later: RotaTimeslot = { ...own, id: 71, start_time: '13:00', end_time: '15:00' };
const patternSlots: RotaTimeslot[] = [
  {
    id: 1,
    weekday_start: 'tuesday',
    start_time: '10:00',
    weekday_end: 'tuesday',
    end_time: '14:00',
    min: 0,
    ideal: 1,
    max: 2,
  },
  {
    id: 2,
    weekday_start: 'sunday',
    start_time: '22:00',
    weekday_end: 'monday',
    end_time: '06:00',
    min: 1,
    ideal: 1,
    max: 1,
  },
];
const pattern: PatternForReplace = { id: 8, timeslots: patternSlots, archived: false };

const created = (id: number, over: Partial<RotaCreatedData> = {}): RotaEvent => ({
  type: 'rotas.RotaCreated',
  data: {
    id,
    organisationId: 1,
    teamId: 10,
    patternId: 5,
    startDate: '2026-11-01',
    endDate: '2027-12-31',
    timeslots: [own],
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
/** A later version from 2027-01-01 on (an update of timeslots). */
const laterVersion = (id: number): RotaEvent => ({
  type: 'rotas.RotaTimeslotsChanged',
  data: {
    id,
    organisationId: 1,
    effectiveFrom: '2027-01-01',
    from: '2027-01-01',
    to: null,
    timeslots: [later],
    calendar: {
      startDate: '2026-11-01',
      endDate: '2027-12-31',
      archived: false,
      closedDates: ['2026-12-25'],
      timeline: [
        { from: '2026-11-01', to: '2026-12-31', timeslots: [own] },
        { from: '2027-01-01', to: null, timeslots: [later] },
      ],
    },
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
      endDate: '2027-12-31',
      archived: true,
      closedDates: [],
      timeline: [{ from: '2026-11-01', to: null, timeslots: [own] }],
    },
  },
});

const replace = testDecider({ evolve: evolveRotas, decide: decideReplace });
const ctx: ReplaceContext = { today, manages: new Set([10]), pattern, timeslotIds: [100, 101, 102, 103] };
const cmd = (over: Partial<ReplaceCommand> = {}): ReplaceCommand => ({
  organisationId: 1,
  rotaIds: [1, 2],
  patternId: 8,
  startDate: '2026-12-01',
  ...over,
});
const withIds = (...ids: number[]) => patternSlots.map((s, i) => ({ ...s, id: ids[i]! }));

describe('replace rotas with a pattern', () => {
  it(
    'given two rotas, when replaced without end_date, then each gets the pattern’s timeslots with new ' +
      'ids from start_date on, later versions dropped, and the pattern as its own',
    () => {
      replace
        .given([created(1), laterVersion(1), created(2)])
        .when(cmd(), ctx)
        .then([
          {
            type: 'rotas.RotaPatternReplaced',
            data: {
              id: 1,
              organisationId: 1,
              effectiveFrom: '2026-12-01',
              patternId: 8,
              from: '2026-12-01',
              to: null,
              timeslots: withIds(100, 101),
              name: null,
              calendar: {
                startDate: '2026-11-01',
                endDate: '2027-12-31',
                archived: false,
                closedDates: ['2026-12-25'],
                timeline: [
                  { from: '2026-11-01', to: '2026-11-30', timeslots: [own] },
                  { from: '2026-12-01', to: null, timeslots: withIds(100, 101) },
                ],
              },
            },
          },
          {
            type: 'rotas.RotaPatternReplaced',
            data: {
              id: 2,
              organisationId: 1,
              effectiveFrom: '2026-12-01',
              patternId: 8,
              from: '2026-12-01',
              to: null,
              timeslots: withIds(102, 103),
              name: null,
              calendar: {
                startDate: '2026-11-01',
                endDate: '2027-12-31',
                archived: false,
                closedDates: [],
                timeline: [
                  { from: '2026-11-01', to: '2026-11-30', timeslots: [own] },
                  { from: '2026-12-01', to: null, timeslots: withIds(102, 103) },
                ],
              },
            },
          },
        ]);
    },
  );

  it('given a rota with a later version, when replaced with an end_date, then what stood after the end date stands again, and the rota is renamed', () => {
    replace
      .given([created(1), laterVersion(1)])
      .when(cmd({ rotaIds: [1], endDate: '2027-01-31', name: 'Winter' }), ctx)
      .then([
        {
          type: 'rotas.RotaPatternReplaced',
          data: {
            id: 1,
            organisationId: 1,
            effectiveFrom: '2026-12-01',
            patternId: 8,
            from: '2026-12-01',
            to: '2027-01-31',
            timeslots: withIds(100, 101),
            name: 'Winter',
            calendar: {
              startDate: '2026-11-01',
              endDate: '2027-12-31',
              archived: false,
              closedDates: ['2026-12-25'],
              timeline: [
                { from: '2026-11-01', to: '2026-11-30', timeslots: [own] },
                { from: '2026-12-01', to: '2027-01-31', timeslots: withIds(100, 101) },
                { from: '2027-02-01', to: null, timeslots: [later] },
              ],
            },
          },
        },
      ]);
  });

  it('given a start before the rota’s own start, then the rota’s start and end do not move', () => {
    const [event] = decideReplace(
      evolveRotas(null, created(1, { startDate: '2027-03-01' })),
      cmd({ rotaIds: [1] }),
      ctx,
    );
    expect(
      event!.type === 'rotas.RotaPatternReplaced' && [event.data.calendar.startDate, event.data.calendar.endDate],
    ).toEqual(['2027-03-01', '2027-12-31']);
  });

  it('given a rota the caller does not manage, one of another organisation and an unknown id, then it is a 422 naming replace_rotas with those ids', () => {
    const err = replace
      .given([created(1), created(2, { teamId: 11 }), created(3, { organisationId: 2 })])
      .when(cmd({ rotaIds: [1, 2, 3, 4] }), ctx)
      .thenThrows(ValidationError, ['replace_rotas']);
    expect(err.errors!.replace_rotas![0]).toMatch(/: 2, 3, 4\.$/);
  });

  it('given a pattern that is unknown (or another organisation’s) or archived, then it is a 422 naming pattern_id', () => {
    for (const p of [null, { ...pattern, archived: true }]) {
      replace
        .given([created(1), created(2)])
        .when(cmd(), { ...ctx, pattern: p })
        .thenThrows(ValidationError, ['pattern_id']);
    }
  });

  it('given a start_date before today and an end before it, then one 422 names them, with a bad name', () => {
    replace
      .given([created(1)])
      .when(cmd({ rotaIds: [1], startDate: '2026-11-19', name: '' }), ctx)
      .thenThrows(ValidationError, ['start_date', 'name']);
    replace
      .given([created(1)])
      .when(cmd({ rotaIds: [1], endDate: '2026-11-30' }), ctx)
      .thenThrows(ValidationError, ['end_date']);
  });

  it('given an archived rota among them, then the whole request is a 409', () => {
    replace
      .given([created(1), created(2), archived(2)])
      .when(cmd(), ctx)
      .thenThrows(ConflictError, /archived rotas: 2\./);
  });

  it('given a name of null, then the rotas keep their names', () => {
    const [event] = decideReplace(evolveRotas(null, created(1)), cmd({ rotaIds: [1], name: null }), ctx);
    expect(event!.type === 'rotas.RotaPatternReplaced' && event.data.name).toBeNull();
  });
});
