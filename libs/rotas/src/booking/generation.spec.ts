import { describe, expect, it } from '@jest/globals';
import { testDecider } from '#app/platform';
import type { BookedSpan, BookingRota } from '../domain/booking-rules.js';
import { WEEKDAYS } from '../domain/weekly-timeslots.js';
import type { RepeatingShiftEvent } from '../rotas.events.js';
import type { Booker } from './booking-facts.js';
import {
  type ChunkPlan,
  decideExtension,
  decideGeneration,
  evolveGeneration,
  type GenerationEvent,
  type GenerationFacts,
  planChunk,
} from './generation.js';
import { evolve, type SeriesState } from './repeating-shift.js';

const ZONE = 'Europe/London';
type Started = Extract<RepeatingShiftEvent, { type: 'rotas.RepeatingShiftStarted' }>;

/** A weekly Monday 09:00–17:00 series for user 5 on rota 3 (team 10), from Monday 2027-01-04, booked up to 2027-02-01. */
const started = (over: Partial<Started['data']> = {}): Started => ({
  type: 'rotas.RepeatingShiftStarted',
  data: {
    id: 9,
    organisationId: 1,
    userId: 5,
    rotaId: 3,
    teamId: 10,
    frequency: 1,
    weekdays: ['mon'],
    startDate: '2027-01-04',
    endDate: null,
    startTime: '09:00',
    endTime: '17:00',
    dayOffset: 0,
    firstShiftId: 100,
    ignoreOnHold: false,
    confirmRoleRestriction: false,
    until: '2027-02-01',
    ...over,
  },
});

/** Every day 00:00–23:59, from 2026-12-01 on. */
const allWeek = WEEKDAYS.map((day, i) => ({
  id: 70 + i,
  weekday_start: day,
  start_time: '00:00',
  weekday_end: day,
  end_time: '23:59',
  min: 1,
  ideal: 1,
  max: 1,
}));
const rota = (over: Partial<BookingRota> = {}, calendar: Partial<BookingRota['calendar']> = {}): BookingRota => ({
  id: 3,
  teamId: 10,
  zone: ZONE,
  selfManage: false,
  requireFullTimeslot: false,
  restrictedByRole: false,
  roleProfileIds: [],
  allowSameDayAdd: false,
  allowSameDayEdit: false,
  allowSameDayCancel: false,
  calendar: {
    start_date: '2026-12-01',
    end_date: null,
    archived: false,
    closed_dates: new Set(),
    timeline: [{ from: '2026-12-01', to: null, timeslots: allWeek }],
    ...calendar,
  },
  ...over,
});
const booker = (over: Partial<Booker> = {}): Booker => ({
  onHold: false,
  roleProfileIds: new Set([40]),
  seen: new Set([10]),
  ...over,
});

const stateOf = (events: RepeatingShiftEvent[]): SeriesState => events.reduce<SeriesState | null>(evolve, null)!;
const planOf = (events: RepeatingShiftEvent[], limit?: number): ChunkPlan => planChunk(stateOf(events), ZONE, limit)!;
/** The facts of a chunk: ids 1000, 1001, … for its dates with times. */
const factsFor = (plan: ChunkPlan, over: Partial<GenerationFacts> = {}): GenerationFacts => ({
  zone: ZONE,
  rota: rota(),
  booker: booker(),
  userShifts: [],
  now: Date.parse('2026-11-22T12:00:00Z'),
  shiftIds: new Map(plan.occurrences.filter((o) => o.times).map((o, i) => [o.date, 1000 + i])),
  ...over,
});

const generation = testDecider<SeriesState, ChunkPlan, RepeatingShiftEvent | GenerationEvent, GenerationFacts>({
  evolve: evolveGeneration,
  decide: decideGeneration,
});

/** The ShiftBooked of an occurrence on `date` with id `id`, from `start` to `end` (ISO instants). */
const booked = (
  id: number,
  date: string,
  start: string,
  end: string,
  startWall: string,
  endWall: string,
): GenerationEvent => ({
  type: 'rotas.ShiftBooked',
  data: { id, organisationId: 1, rotaId: 3, teamId: 10, userId: 5, seriesId: 9, date, start, end, startWall, endWall },
});
const winter = (id: number, date: string) =>
  booked(id, date, `${date}T09:00:00.000Z`, `${date}T17:00:00.000Z`, `${date} 09:00`, `${date} 17:00`);
const generated = (
  generatedUntil: string,
  bookedOnes: [string, number][],
  skipped: [string, string][] = [],
): Extract<GenerationEvent, { type: 'rotas.RepeatingShiftGenerated' }> => ({
  type: 'rotas.RepeatingShiftGenerated',
  data: {
    id: 9,
    organisationId: 1,
    generatedUntil,
    booked: bookedOnes.map(([date, shiftId]) => ({ date, shiftId })),
    skipped: skipped.map(([date, reason]) => ({ date, reason })),
  },
});
const dates = (plan: ChunkPlan | null) => plan?.occurrences.map((o) => o.date) ?? null;

describe('planChunk: the occurrences of the next chunk', () => {
  it('given a weekly series just started, then every Monday after the first shift up to until (the first shift is generated already)', () => {
    const plan = planOf([started()]);
    expect(plan).toMatchObject({ after: '2027-01-04', end: '2027-02-01' });
    expect(dates(plan)).toEqual(['2027-01-11', '2027-01-18', '2027-01-25', '2027-02-01']);
  });

  it('given a limit, then the chunk ends at its last occurrence, and the next one goes on from there', () => {
    const first = planOf([started()], 2);
    expect({ end: first.end, dates: dates(first) }).toEqual({ end: '2027-01-18', dates: ['2027-01-11', '2027-01-18'] });
    const next = planOf(
      [
        started(),
        generated('2027-01-18', [
          ['2027-01-11', 1],
          ['2027-01-18', 2],
        ]),
      ],
      2,
    );
    expect({ after: next.after, end: next.end, dates: dates(next) }).toEqual({
      after: '2027-01-18',
      end: '2027-02-01',
      dates: ['2027-01-25', '2027-02-01'],
    });
  });

  it('given a fortnightly Mon+Thu series, then weeks 0, 2, 4 … counted from the first shift’s Monday', () => {
    const plan = planOf([started({ frequency: 2, weekdays: ['mon', 'thu'], until: '2027-02-15' })]);
    expect(dates(plan)).toEqual(['2027-01-07', '2027-01-18', '2027-01-21', '2027-02-01', '2027-02-04', '2027-02-15']);
  });

  it('given a series generated up to until, or ended before it, then nothing is pending', () => {
    expect(planChunk(stateOf([started(), generated('2027-02-01', [])]), ZONE)).toBeNull();
    const ended: RepeatingShiftEvent = {
      type: 'rotas.RepeatingShiftEnded',
      data: { id: 9, organisationId: 1, endDate: '2027-01-18', until: '2027-01-18', reason: 'ended' },
    };
    expect(dates(planChunk(stateOf([started(), ended]), ZONE))).toEqual(['2027-01-11', '2027-01-18']);
    expect(planChunk(stateOf([started(), generated('2027-01-18', []), ended]), ZONE)).toBeNull();
    expect(planChunk(null, ZONE)).toBeNull();
  });

  it('given an end_date before until, then the series stops at its end_date', () => {
    expect(dates(planOf([started({ endDate: '2027-01-20' })]))).toEqual(['2027-01-11', '2027-01-18']);
  });

  it('given a retiming from a date, then occurrences from that date on take the new times of day', () => {
    const retimed: RepeatingShiftEvent = {
      type: 'rotas.RepeatingShiftRetimed',
      data: { id: 9, organisationId: 1, from: '2027-01-25', startTime: '10:00', endTime: '12:00', dayOffset: 0 },
    };
    const plan = planOf([started(), retimed]);
    expect(plan.occurrences.map((o) => `${o.times!.startWall}–${o.times!.endWall.slice(11)}`)).toEqual([
      '2027-01-11 09:00–17:00',
      '2027-01-18 09:00–17:00',
      '2027-01-25 10:00–12:00',
      '2027-02-01 10:00–12:00',
    ]);
  });
});

describe('decideGeneration: books the chunk, skipping with reasons', () => {
  it(
    'given a weekly series, when its chunk is generated, then a ShiftBooked per date (on the series, as ' +
      'a manager would) and RepeatingShiftGenerated up to until',
    () => {
      const given = [started()];
      const plan = planOf(given);
      generation
        .given(given)
        .when(plan, factsFor(plan))
        .then([
          winter(1000, '2027-01-11'),
          winter(1001, '2027-01-18'),
          winter(1002, '2027-01-25'),
          winter(1003, '2027-02-01'),
          generated('2027-02-01', [
            ['2027-01-11', 1000],
            ['2027-01-18', 1001],
            ['2027-01-25', 1002],
            ['2027-02-01', 1003],
          ]),
        ]);
    },
  );

  it('given the series moved on since the plan (another run generated it, or it was extended), then nothing: the handler plans again', () => {
    const plan = planOf([started()]);
    generation
      .given([started(), generated('2027-01-18', [])])
      .when(plan, factsFor(plan))
      .then([]);
    generation
      .given([
        started(),
        { type: 'rotas.RepeatingShiftExtended', data: { id: 9, organisationId: 1, until: '2027-03-01' } },
      ])
      .when(plan, factsFor(plan))
      .then([]);
    generation.given([]).when(plan, factsFor(plan)).then([]);
  });

  it('given a date the rota is closed, then that occurrence is skipped as rota_closed and the others are booked', () => {
    const plan = planOf([started()]);
    generation
      .given([started()])
      .when(plan, factsFor(plan, { rota: rota({}, { closed_dates: new Set(['2027-01-18']) }) }))
      .then([
        winter(1000, '2027-01-11'),
        winter(1002, '2027-01-25'),
        winter(1003, '2027-02-01'),
        generated(
          '2027-02-01',
          [
            ['2027-01-11', 1000],
            ['2027-01-25', 1002],
            ['2027-02-01', 1003],
          ],
          [['2027-01-18', 'rota_closed']],
        ),
      ]);
  });

  it('given a series split from another with exceptions, then those dates are skipped as series_exception and the others are booked', () => {
    const given = [started({ exceptions: ['2027-01-18', '2027-02-01'] })];
    const plan = planOf(given);
    generation
      .given(given)
      .when(plan, factsFor(plan))
      .then([
        winter(1000, '2027-01-11'),
        winter(1002, '2027-01-25'),
        generated(
          '2027-02-01',
          [
            ['2027-01-11', 1000],
            ['2027-01-25', 1002],
          ],
          [
            ['2027-01-18', 'series_exception'],
            ['2027-02-01', 'series_exception'],
          ],
        ),
      ]);
  });

  it('given an archived rota, then every occurrence is skipped as rota_archived; an ended rota skips the dates after its end as rota_ended', () => {
    const plan = planOf([started()]);
    const all = (reason: string): [string, string][] => dates(plan)!.map((d) => [d, reason]);
    generation
      .given([started()])
      .when(plan, factsFor(plan, { rota: rota({}, { archived: true }) }))
      .then([generated('2027-02-01', [], all('rota_archived'))]);
    generation
      .given([started()])
      .when(plan, factsFor(plan, { rota: rota({}, { end_date: '2027-01-20' }) }))
      .then([
        winter(1000, '2027-01-11'),
        winter(1001, '2027-01-18'),
        generated(
          '2027-02-01',
          [
            ['2027-01-11', 1000],
            ['2027-01-18', 1001],
          ],
          [
            ['2027-01-25', 'rota_ended'],
            ['2027-02-01', 'rota_ended'],
          ],
        ),
      ]);
    generation
      .given([started()])
      .when(plan, factsFor(plan, { rota: undefined }))
      .then([generated('2027-02-01', [], all('rota_not_found'))]);
  });

  it(
    'given no timeslot on Mondays from a date, then those occurrences are skipped as rota_closed; a ' +
      'timeslot that does not hold the shift, as outside_timeslot',
    () => {
      const plan = planOf([started()]);
      const noMonday = allWeek.filter((s) => s.weekday_start !== 'monday');
      const shortMonday = [...noMonday, { ...allWeek[0]!, start_time: '10:00', end_time: '12:00' }];
      generation
        .given([started()])
        .when(
          plan,
          factsFor(plan, {
            rota: rota(
              {},
              {
                timeline: [
                  { from: '2026-12-01', to: '2027-01-20', timeslots: allWeek },
                  { from: '2027-01-21', to: null, timeslots: noMonday },
                ],
              },
            ),
          }),
        )
        .then([
          winter(1000, '2027-01-11'),
          winter(1001, '2027-01-18'),
          generated(
            '2027-02-01',
            [
              ['2027-01-11', 1000],
              ['2027-01-18', 1001],
            ],
            [
              ['2027-01-25', 'rota_closed'],
              ['2027-02-01', 'rota_closed'],
            ],
          ),
        ]);
      const fourth = planOf([started({ until: '2027-01-11' })]);
      generation
        .given([started({ until: '2027-01-11' })])
        .when(
          fourth,
          factsFor(fourth, {
            rota: rota({}, { timeline: [{ from: '2026-12-01', to: null, timeslots: shortMonday }] }),
          }),
        )
        .then([generated('2027-01-11', [], [['2027-01-11', 'outside_timeslot']])]);
    },
  );

  it('given the user has left the organisation, or holds no role under the rota’s team, then every occurrence is skipped with that reason', () => {
    const given = [started({ until: '2027-01-18' })];
    const plan = planOf(given);
    generation
      .given(given)
      .when(plan, factsFor(plan, { booker: undefined }))
      .then([
        generated(
          '2027-01-18',
          [],
          [
            ['2027-01-11', 'user_not_in_organisation'],
            ['2027-01-18', 'user_not_in_organisation'],
          ],
        ),
      ]);
    generation
      .given(given)
      .when(plan, factsFor(plan, { booker: booker({ seen: new Set([11]) }) }))
      .then([
        generated(
          '2027-01-18',
          [],
          [
            ['2027-01-11', 'user_not_on_rota'],
            ['2027-01-18', 'user_not_on_rota'],
          ],
        ),
      ]);
  });

  it('given the user on hold, then user_on_hold, unless the series was posted with ignore_on_hold', () => {
    const plan = planOf([started({ until: '2027-01-11' })]);
    generation
      .given([started({ until: '2027-01-11' })])
      .when(plan, factsFor(plan, { booker: booker({ onHold: true }) }))
      .then([generated('2027-01-11', [], [['2027-01-11', 'user_on_hold']])]);
    const ignoring = [started({ until: '2027-01-11', ignoreOnHold: true })];
    generation
      .given(ignoring)
      .when(planOf(ignoring), factsFor(plan, { booker: booker({ onHold: true }) }))
      .then([winter(1000, '2027-01-11'), generated('2027-01-11', [['2027-01-11', 1000]])]);
  });

  it('given a rota restricted to a role the user lacks, then role_not_allowed, unless the series was posted with confirm_role_restriction', () => {
    const restricted = rota({ restrictedByRole: true, roleProfileIds: [41] });
    const plan = planOf([started({ until: '2027-01-11' })]);
    generation
      .given([started({ until: '2027-01-11' })])
      .when(plan, factsFor(plan, { rota: restricted }))
      .then([generated('2027-01-11', [], [['2027-01-11', 'role_not_allowed']])]);
    const confirmed = [started({ until: '2027-01-11', confirmRoleRestriction: true })];
    generation
      .given(confirmed)
      .when(planOf(confirmed), factsFor(plan, { rota: restricted }))
      .then([winter(1000, '2027-01-11'), generated('2027-01-11', [['2027-01-11', 1000]])]);
  });

  it('given the user already has a shift at that time on another rota, then overlap; one that only touches it is no overlap', () => {
    const plan = planOf([started({ until: '2027-01-18' })]);
    const other = (start: string, end: string): BookedSpan => ({
      id: 50,
      userId: 5,
      rotaId: 4,
      date: start.slice(0, 10),
      start: Date.parse(start),
      end: Date.parse(end),
    });
    generation
      .given([started({ until: '2027-01-18' })])
      .when(
        plan,
        factsFor(plan, {
          userShifts: [
            other('2027-01-11T16:00:00Z', '2027-01-11T18:00:00Z'),
            other('2027-01-18T17:00:00Z', '2027-01-18T18:00:00Z'),
          ],
        }),
      )
      .then([winter(1001, '2027-01-18'), generated('2027-01-18', [['2027-01-18', 1001]], [['2027-01-11', 'overlap']])]);
  });

  it('given a daily series of 25-hour shifts, then each booked occurrence counts for the next: every other day is an overlap', () => {
    const given = [
      started({
        weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        endTime: '10:00',
        dayOffset: 1,
        until: '2027-01-08',
      }),
    ];
    const plan = planOf(given);
    const events = decideGeneration(
      stateOf(given),
      plan,
      factsFor(plan, {
        rota: rota(
          {},
          {
            timeline: [
              {
                from: '2026-12-01',
                to: null,
                timeslots: allWeek.map((s) => ({
                  ...s,
                  start_time: '09:00',
                  end_time: '10:00',
                  weekday_end: WEEKDAYS[(WEEKDAYS.indexOf(s.weekday_start) + 2) % 7]!,
                })),
              },
            ],
          },
        ),
      }),
    );
    // The first shift (2027-01-04 09:00 → 01-05 10:00) is not among the facts here: the 5th is booked.
    expect(events.at(-1)).toEqual(
      generated(
        '2027-01-08',
        [
          ['2027-01-05', 1000],
          ['2027-01-07', 1002],
        ],
        [
          ['2027-01-06', 'overlap'],
          ['2027-01-08', 'overlap'],
        ],
      ),
    );
  });

  it(
    'given a weekly Sunday 09:00–17:00 Europe/London series from 2027-03-14, then it keeps 09:00–17:00 ' +
      'local across the spring change: 09:00Z before, 08:00Z after',
    () => {
      const given = [started({ weekdays: ['sun'], startDate: '2027-03-14', until: '2027-04-04' })];
      const plan = planOf(given);
      generation
        .given(given)
        .when(plan, factsFor(plan))
        .then([
          booked(
            1000,
            '2027-03-21',
            '2027-03-21T09:00:00.000Z',
            '2027-03-21T17:00:00.000Z',
            '2027-03-21 09:00',
            '2027-03-21 17:00',
          ),
          booked(
            1001,
            '2027-03-28',
            '2027-03-28T08:00:00.000Z',
            '2027-03-28T16:00:00.000Z',
            '2027-03-28 09:00',
            '2027-03-28 17:00',
          ),
          booked(
            1002,
            '2027-04-04',
            '2027-04-04T08:00:00.000Z',
            '2027-04-04T16:00:00.000Z',
            '2027-04-04 09:00',
            '2027-04-04 17:00',
          ),
          generated('2027-04-04', [
            ['2027-03-21', 1000],
            ['2027-03-28', 1001],
            ['2027-04-04', 1002],
          ]),
        ]);
    },
  );

  it(
    'given a Sunday 01:30–03:00 series, then the occurrence on the spring-change night does not exist: ' +
      'skipped as time_does_not_exist, with no id drawn for it',
    () => {
      const given = [
        started({
          weekdays: ['sun'],
          startDate: '2027-03-21',
          startTime: '01:30',
          endTime: '03:00',
          until: '2027-04-04',
        }),
      ];
      const plan = planOf(given);
      expect(plan.occurrences.map((o) => o.times !== null)).toEqual([false, true]);
      generation
        .given(given)
        .when(plan, factsFor(plan))
        .then([
          booked(
            1000,
            '2027-04-04',
            '2027-04-04T00:30:00.000Z',
            '2027-04-04T02:00:00.000Z',
            '2027-04-04 01:30',
            '2027-04-04 03:00',
          ),
          generated('2027-04-04', [['2027-04-04', 1000]], [['2027-03-28', 'time_does_not_exist']]),
        ]);
    },
  );

  it('given a chunk with no occurrence (the unselected week of a fortnightly series), then RepeatingShiftGenerated alone moves generatedUntil on', () => {
    const given = [
      started({ frequency: 2, until: '2027-01-04' }),
      { type: 'rotas.RepeatingShiftExtended' as const, data: { id: 9, organisationId: 1, until: '2027-01-16' } },
    ];
    const plan = planOf(given);
    expect(plan.occurrences).toEqual([]);
    generation
      .given(given)
      .when(plan, factsFor(plan))
      .then([generated('2027-01-16', [])]);
  });
});

describe('decideExtension: the daily job moves open-ended series on to six months after today', () => {
  type Ext = Extract<RepeatingShiftEvent, { type: 'rotas.RepeatingShiftExtended' }>;
  const extension = testDecider<SeriesState, { today: string }, RepeatingShiftEvent>({
    evolve,
    decide: (s, c) => decideExtension(s, c) as Ext[],
  });
  const open = started({ startDate: '2027-01-04', until: '2027-07-04' });

  it('given an open-ended series booked up to six months after its start, when today is later, then it is extended to six months after today', () => {
    extension
      .given([open])
      .when({ today: '2027-02-10' })
      .then([{ type: 'rotas.RepeatingShiftExtended', data: { id: 9, organisationId: 1, until: '2027-08-10' } }]);
  });

  it('given the series already reaches the horizon (the same day’s second run), then nothing', () => {
    const extended: RepeatingShiftEvent = {
      type: 'rotas.RepeatingShiftExtended',
      data: { id: 9, organisationId: 1, until: '2027-08-10' },
    };
    extension.given([open, extended]).when({ today: '2027-02-10' }).then([]);
    extension.given([open]).when({ today: '2027-01-04' }).then([]);
    extension.given([open]).when({ today: '2026-12-01' }).then([]);
  });

  it('given a series whose end date lies beyond its horizon, then it is extended six months past today, never past its end date', () => {
    extension
      .given([started({ endDate: '2027-12-31', until: '2027-07-04' })])
      .when({ today: '2027-03-01' })
      .then([{ type: 'rotas.RepeatingShiftExtended', data: { id: 9, organisationId: 1, until: '2027-09-01' } }]);
    extension
      .given([started({ endDate: '2027-08-15', until: '2027-07-04' })])
      .when({ today: '2027-03-01' })
      .then([{ type: 'rotas.RepeatingShiftExtended', data: { id: 9, organisationId: 1, until: '2027-08-15' } }]);
  });

  it('given a series booked to its end date, or ended, or none, then nothing', () => {
    extension
      .given([started({ endDate: '2027-06-30', until: '2027-06-30' })])
      .when({ today: '2027-03-01' })
      .then([]);
    extension
      .given([
        open,
        {
          type: 'rotas.RepeatingShiftEnded',
          data: { id: 9, organisationId: 1, endDate: '2027-02-01', until: '2027-02-01', reason: 'cancelled' },
        },
      ])
      .when({ today: '2027-03-01' })
      .then([]);
    extension.given([]).when({ today: '2027-03-01' }).then([]);
  });

  it('given a month end, then the horizon clamps as luxon does (2027-08-31 + 6 months = 2028-02-29)', () => {
    extension
      .given([open])
      .when({ today: '2027-08-31' })
      .then([{ type: 'rotas.RepeatingShiftExtended', data: { id: 9, organisationId: 1, until: '2028-02-29' } }]);
  });
});
