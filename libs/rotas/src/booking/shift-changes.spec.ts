import { describe, expect, it } from '@jest/globals';
import { ForbiddenError, NotFoundError, testDecider, ValidationError } from '#app/platform';
import type { BookedSpan, BookingRota } from '../domain/booking-rules.js';
import type { RotaCalendar } from '../domain/rota-calendar.js';
import type { RotaTimeslot, Weekday } from '../domain/weekly-timeslots.js';
import { type RepeatingShiftEvent, type ShiftEvent, type ShiftTimesData, streamOf } from '../rotas.events.js';
import type { CallerReach } from '../rotas.policy.js';
import { evolve as evolveSeries, type SeriesState } from './repeating-shift.js';
import { decideCancelSeries } from './series-changes.js';
import { evolve, type ShiftState } from './shift.js';
import {
  type ChangeContext,
  type ChangePlan,
  type ChangeRequest,
  decideCancelShift,
  decideChangeShift,
  endSeries,
  laterOccurrences,
  occurrenceAt,
  changePlanHolds,
  type ChangeStates,
  planChange,
  timesOfDayOf,
} from './shift-changes.js';

// January in London: the wall clock is UTC. 2027-01-11 is a Monday; "now" is the Monday before.
const ZONE = 'Europe/London';
const NOW = Date.parse('2027-01-04T12:00:00Z');
const TODAY = '2027-01-04';
const times = (start: string, end: string): ShiftTimesData => ({
  date: start.slice(0, 10),
  start: new Date(`${start.replace(' ', 'T')}Z`).toISOString(),
  end: new Date(`${end.replace(' ', 'T')}Z`).toISOString(),
  startWall: start,
  endWall: end,
});
const DAYS: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const slot = (id: number, day: Weekday, start: string, end: string): RotaTimeslot => ({
  id,
  weekday_start: day,
  start_time: start,
  weekday_end: day,
  end_time: end,
  min: 0,
  ideal: 1,
  max: 1,
});
const calendar = (more: Partial<RotaCalendar> = {}): RotaCalendar => ({
  start_date: '2027-01-01',
  end_date: null,
  archived: false,
  closed_dates: new Set(),
  timeline: [{ from: '2027-01-01', to: null, timeslots: DAYS.map((d, i) => slot(i + 1, d, '09:00', '17:00')) }],
  ...more,
});
const ROTA: BookingRota = {
  id: 3,
  teamId: 4,
  calendar: calendar(),
  zone: ZONE,
  selfManage: true,
  requireFullTimeslot: false,
  restrictedByRole: false,
  roleProfileIds: [],
  allowSameDayAdd: false,
  allowSameDayEdit: false,
  allowSameDayCancel: false,
};
const reach = (userId: number, manager = false): CallerReach => ({
  userId,
  seen: new Set([4]),
  manages: new Set(),
  addsShifts: new Set(manager ? [4] : []),
  onHold: false,
});
const VOLUNTEER = reach(7);
const MANAGER = reach(1, true);

const booked = (id: number, start: string, end: string, seriesId: number | null = 20): ShiftEvent => ({
  type: 'rotas.ShiftBooked',
  data: { id, organisationId: 1, rotaId: 3, teamId: 4, userId: 7, seriesId, ...times(start, end) },
});
const stateOf = (events: ShiftEvent[]): ShiftState => events.reduce<ShiftState | null>(evolve, null)!;
const started: RepeatingShiftEvent = {
  type: 'rotas.RepeatingShiftStarted',
  data: {
    id: 20,
    organisationId: 1,
    userId: 7,
    rotaId: 3,
    teamId: 4,
    frequency: 1,
    weekdays: ['mon'],
    startDate: '2027-01-11',
    endDate: null,
    startTime: '09:00',
    endTime: '12:00',
    dayOffset: 0,
    firstShiftId: 100,
    ignoreOnHold: false,
    confirmRoleRestriction: false,
    until: '2027-07-11',
  },
};
const seriesOf = (...events: RepeatingShiftEvent[]): SeriesState =>
  [started, ...events].reduce<SeriesState | null>(evolveSeries, null)!;

// The series' first three Mondays.
const FIRST = stateOf([booked(100, '2027-01-11 09:00', '2027-01-11 12:00')]);
const SECOND = stateOf([booked(101, '2027-01-18 09:00', '2027-01-18 12:00')]);
const THIRD = stateOf([booked(102, '2027-01-25 09:00', '2027-01-25 12:00')]);

const context = (more: Partial<ChangeContext> = {}): ChangeContext => ({
  zone: ZONE,
  today: TODAY,
  now: NOW,
  rota: ROTA,
  booker: { onHold: false, roleProfileIds: new Set(), seen: new Set([4]) },
  reach: VOLUNTEER,
  userShifts: [],
  rotaDayShifts: [],
  newSeriesId: null,
  ...more,
});
const request = (
  start: string,
  end: string,
  mode: ChangeRequest['mode'] = 'single',
  recurrence?: unknown,
): ChangeRequest => ({ times: times(start, end), mode, recurrence });
const WEEKLY = { recurrence_period: 'week', recurrence_frequency: 1 };
const PATTERN = { frequency: 1, weekdays: ['mon'] as const, endDate: null };

/** decideChangeShift after the store's check that the streams give the handler's plan. */
function planned(s: ChangeStates, req: ChangeRequest, plan: ChangePlan, ctx: ChangeContext) {
  expect(changePlanHolds(s, req, plan)).toBe(true);
  return decideChangeShift(s, req, ctx);
}

/** decideChangeShift with the plan the handler would have made from the same states. */
function change(
  states: { shift: ShiftState | null; series?: SeriesState | null; later?: (ShiftState | null)[] },
  req: ChangeRequest,
  ctx: ChangeContext = context(),
) {
  const s = { shift: states.shift, series: states.series ?? null, later: states.later ?? [] };
  const plan = planChange(s.shift!, s.series, req);
  expect(changePlanHolds(s, req, plan)).toBe(true);
  return decideChangeShift(s, req, ctx);
}
const moved = (s: ShiftState, start: string, end: string): ShiftEvent => ({
  type: 'rotas.ShiftMoved',
  data: {
    id: s.id,
    organisationId: 1,
    rotaId: 3,
    userId: 7,
    ...times(start, end),
    sequence: s.sequence + 1,
    was: { date: s.date, start: s.start, end: s.end, startWall: s.startWall, endWall: s.endWall },
  },
});
const cancelled = (s: ShiftState, reason: string): ShiftEvent =>
  ({
    type: 'rotas.ShiftCancelled',
    data: { id: s.id, organisationId: 1, rotaId: 3, userId: 7, date: s.date, reason, sequence: s.sequence + 1 },
  }) as ShiftEvent;
const fieldsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return Object.keys(error.errors ?? {}).sort();
    throw error;
  }
  throw new Error('expected a 422');
};

describe('planChange: what an update does', () => {
  const inSeries = { date: '2027-01-11', seriesId: 20 };
  const alone = { date: '2027-01-11', seriesId: null };

  it(
    'given edit_mode single, then this shift alone, whatever the series; given a non-null ' +
      'recurrence_pattern with it, then a 422 naming recurrence_pattern',
    () => {
      expect(planChange(inSeries, PATTERN, request('2027-01-12 10:00', '2027-01-12 11:00'))).toEqual({
        kind: 'single',
      });
      expect(planChange(alone, null, request('2027-01-11 10:00', '2027-01-11 11:00', 'single', null))).toEqual({
        kind: 'single',
      });
      expect(
        fieldsOf(() =>
          planChange(inSeries, PATTERN, request('2027-01-11 10:00', '2027-01-11 11:00', 'single', WEEKLY)),
        ),
      ).toEqual(['recurrence_pattern']);
    },
  );

  it('given recurring on a series shift without a pattern, or with the same one, then a retime; with null, an end; with another pattern, a split', () => {
    expect(planChange(inSeries, PATTERN, request('2027-01-11 10:00', '2027-01-11 11:00', 'recurring'))).toEqual({
      kind: 'retime',
      seriesId: 20,
    });
    expect(
      planChange(
        inSeries,
        PATTERN,
        request('2027-01-11 10:00', '2027-01-11 11:00', 'recurring', { ...WEEKLY, mon: 1 }),
      ),
    ).toEqual({ kind: 'retime', seriesId: 20 });
    expect(planChange(inSeries, PATTERN, request('2027-01-11 10:00', '2027-01-11 11:00', 'recurring', null))).toEqual({
      kind: 'end',
      seriesId: 20,
    });
    expect(
      planChange(
        inSeries,
        PATTERN,
        request('2027-01-11 10:00', '2027-01-11 11:00', 'recurring', { ...WEEKLY, recurrence_frequency: 2 }),
      ),
    ).toEqual({
      kind: 'split',
      seriesId: 20,
      pattern: { frequency: 2, weekdays: ['mon'], endDate: null },
    });
    expect(
      planChange(
        inSeries,
        PATTERN,
        request('2027-01-11 10:00', '2027-01-11 11:00', 'recurring', { ...WEEKLY, end_date: '2027-03-01' }),
      ),
    ).toMatchObject({ kind: 'split' });
    expect(
      planChange(
        inSeries,
        PATTERN,
        request('2027-01-11 10:00', '2027-01-11 11:00', 'recurring', { ...WEEKLY, mon: 1, wed: 1 }),
      ),
    ).toMatchObject({ kind: 'split' });
  });

  it('given recurring on a shift of no series, then a new series with a pattern, a single edit without one', () => {
    expect(planChange(alone, null, request('2027-01-12 10:00', '2027-01-12 11:00', 'recurring', WEEKLY))).toEqual({
      kind: 'start',
      pattern: { frequency: 1, weekdays: ['tue'], endDate: null },
    });
    expect(planChange(alone, null, request('2027-01-12 10:00', '2027-01-12 11:00', 'recurring', null))).toEqual({
      kind: 'single',
    });
    expect(planChange(alone, null, request('2027-01-12 10:00', '2027-01-12 11:00', 'recurring'))).toEqual({
      kind: 'single',
    });
  });

  it('given a recurring edit that moves a series shift to another date, or a pattern the recurrence rules refuse, then 422s naming each field at once', () => {
    expect(
      fieldsOf(() => planChange(inSeries, PATTERN, request('2027-01-12 09:00', '2027-01-12 12:00', 'recurring'))),
    ).toEqual(['start_datetime']);
    expect(
      fieldsOf(() =>
        planChange(
          inSeries,
          PATTERN,
          request('2027-01-12 09:00', '2027-01-12 12:00', 'recurring', {
            recurrence_period: 'month',
            recurrence_frequency: 1,
          }),
        ),
      ),
    ).toEqual(['recurrence_pattern.recurrence_period', 'start_datetime']);
    // The first occurrence of a new series must fall on a selected weekday.
    expect(
      fieldsOf(() =>
        planChange(alone, null, request('2027-01-11 09:00', '2027-01-11 12:00', 'recurring', { ...WEEKLY, tue: 1 })),
      ),
    ).toEqual(['recurrence_pattern']);
  });
});

describe('decideChangeShift: single', () => {
  it('given a volunteer moving their own series shift, then ShiftMoved (sequence + 1, was) and it leaves its series', () => {
    expect(change({ shift: FIRST, series: seriesOf() }, request('2027-01-12 10:00', '2027-01-12 11:00'))).toEqual([
      {
        streamId: streamOf.shift(100),
        events: [
          moved(FIRST, '2027-01-12 10:00', '2027-01-12 11:00'),
          { type: 'rotas.ShiftSeriesChanged', data: { id: 100, organisationId: 1, seriesId: null } },
        ],
      },
    ]);
  });

  it('given the same times on a shift of no series, then nothing is recorded; given the same times in a series, then it only leaves it', () => {
    const lone = stateOf([booked(100, '2027-01-11 09:00', '2027-01-11 12:00', null)]);
    expect(change({ shift: lone }, request('2027-01-11 09:00', '2027-01-11 12:00'))).toEqual([]);
    expect(change({ shift: FIRST, series: seriesOf() }, request('2027-01-11 09:00', '2027-01-11 12:00'))).toEqual([
      {
        streamId: streamOf.shift(100),
        events: [{ type: 'rotas.ShiftSeriesChanged', data: { id: 100, organisationId: 1, seriesId: null } }],
      },
    ]);
  });

  it('given a cancelled or unknown shift, then 404', () => {
    expect(() =>
      change(
        { shift: stateOf([booked(100, '2027-01-11 09:00', '2027-01-11 12:00'), cancelled(FIRST, 'cancelled')]) },
        request('2027-01-11 10:00', '2027-01-11 11:00'),
      ),
    ).toThrow(NotFoundError);
    expect(() =>
      decideChangeShift(
        { shift: null, series: null, later: [] },
        request('2027-01-11 10:00', '2027-01-11 11:00'),
        context(),
      ),
    ).toThrow(NotFoundError);
  });

  it("given another user's shift and a volunteer, or a rota without self_manage, then 403; given a manager, then allowed", () => {
    expect(() =>
      change({ shift: FIRST }, request('2027-01-11 10:00', '2027-01-11 11:00'), context({ reach: reach(8) })),
    ).toThrow(ForbiddenError);
    expect(() =>
      change(
        { shift: FIRST },
        request('2027-01-11 10:00', '2027-01-11 11:00'),
        context({ rota: { ...ROTA, selfManage: false } }),
      ),
    ).toThrow(ForbiddenError);
    expect(
      change(
        { shift: FIRST },
        request('2027-01-11 10:00', '2027-01-11 11:00'),
        context({ reach: MANAGER, rota: { ...ROTA, selfManage: false } }),
      ),
    ).toHaveLength(1);
  });

  it('given new times outside every timeslot, or over another shift of the user (the edited one itself left out), then 422 on start_datetime', () => {
    expect(fieldsOf(() => change({ shift: FIRST }, request('2027-01-11 08:00', '2027-01-11 12:00')))).toEqual([
      'start_datetime',
    ]);
    const other: BookedSpan = {
      id: 300,
      userId: 7,
      rotaId: 9,
      date: '2027-01-11',
      start: Date.parse('2027-01-11T13:00:00Z'),
      end: Date.parse('2027-01-11T14:00:00Z'),
    };
    const itself: BookedSpan = {
      id: 100,
      userId: 7,
      rotaId: 3,
      date: '2027-01-11',
      start: Date.parse(FIRST.start),
      end: Date.parse(FIRST.end),
    };
    expect(
      fieldsOf(() =>
        change(
          { shift: FIRST },
          request('2027-01-11 12:00', '2027-01-11 14:00'),
          context({ userShifts: [other, itself] }),
        ),
      ),
    ).toEqual(['start_datetime']);
    expect(
      change(
        { shift: FIRST },
        request('2027-01-11 10:00', '2027-01-11 12:30'),
        context({ userShifts: [other, itself] }),
      ),
    ).toHaveLength(1);
  });

  it("rule 8: given a volunteer editing today's shift, or onto today, without allow_same_day_edit, then 422; with it, allowed; a manager is not bound", () => {
    const today = stateOf([booked(100, '2027-01-04 14:00', '2027-01-04 15:00', null)]);
    expect(fieldsOf(() => change({ shift: today }, request('2027-01-04 15:00', '2027-01-04 16:00')))).toEqual([
      'start_datetime',
    ]);
    expect(fieldsOf(() => change({ shift: FIRST }, request('2027-01-04 15:00', '2027-01-04 16:00')))).toEqual([
      'start_datetime',
    ]);
    expect(
      change(
        { shift: today },
        request('2027-01-04 15:00', '2027-01-04 16:00'),
        context({ rota: { ...ROTA, allowSameDayEdit: true } }),
      ),
    ).toHaveLength(1);
    expect(
      change({ shift: today }, request('2027-01-04 15:00', '2027-01-04 16:00'), context({ reach: MANAGER })),
    ).toHaveLength(1);
    const past = stateOf([booked(100, '2027-01-04 10:00', '2027-01-04 11:00', null)]);
    expect(
      fieldsOf(() =>
        change(
          { shift: past },
          request('2027-01-11 10:00', '2027-01-11 11:00'),
          context({ rota: { ...ROTA, allowSameDayEdit: true } }),
        ),
      ),
    ).toEqual(['start_datetime']);
  });

  it(
    'given a user on hold, then rule 4 binds the edit as a booking: a volunteer and a manager without ' +
      "ignore_on_hold get 422 on user; a manager with it moves the shift, a volunteer's flag is ignored",
    () => {
      const onHold = context({ booker: { onHold: true, roleProfileIds: new Set(), seen: new Set([4]) } });
      const move = request('2027-01-11 10:00', '2027-01-11 11:00');
      expect(fieldsOf(() => change({ shift: FIRST }, move, onHold))).toEqual(['user']);
      expect(fieldsOf(() => change({ shift: FIRST }, move, { ...onHold, reach: MANAGER }))).toEqual(['user']);
      expect(fieldsOf(() => change({ shift: FIRST }, { ...move, ignoreOnHold: true }, onHold))).toEqual(['user']);
      expect(change({ shift: FIRST }, { ...move, ignoreOnHold: true }, { ...onHold, reach: MANAGER })).toHaveLength(1);
    },
  );

  it(
    'given a role-restricted rota and a user without an allowed role, then rule 5 binds the edit: a ' +
      'manager moves it only with confirm_role_restriction',
    () => {
      const restricted = context({ rota: { ...ROTA, restrictedByRole: true, roleProfileIds: [9] }, reach: MANAGER });
      const move = request('2027-01-11 10:00', '2027-01-11 11:00');
      expect(fieldsOf(() => change({ shift: FIRST }, move, restricted))).toEqual(['user']);
      expect(change({ shift: FIRST }, { ...move, confirmRoleRestriction: true }, restricted)).toHaveLength(1);
    },
  );

  it('given streams that show another plan than the one the handler listed them for, then the plan does not hold', () => {
    const left = stateOf([
      booked(100, '2027-01-11 09:00', '2027-01-11 12:00'),
      { type: 'rotas.ShiftSeriesChanged', data: { id: 100, organisationId: 1, seriesId: null } },
    ]);
    const states = { shift: left, series: null, later: [] };
    const move = request('2027-01-11 10:00', '2027-01-11 11:00', 'recurring');
    expect(changePlanHolds(states, move, { kind: 'retime', seriesId: 20 })).toBe(false);
    expect(changePlanHolds(states, move, { kind: 'single' })).toBe(true);
  });
});

describe('decideChangeShift: recurring', () => {
  const series = seriesOf();
  const later = [SECOND, THIRD];
  const retimed: RepeatingShiftEvent = {
    type: 'rotas.RepeatingShiftRetimed',
    data: { id: 20, organisationId: 1, from: '2027-01-11', startTime: '10:00', endTime: '13:00', dayOffset: 0 },
  };

  it('given new times of day, then this and every later occurrence move to them on their own dates, and the series is retimed from this date', () => {
    expect(
      change({ shift: FIRST, series, later }, request('2027-01-11 10:00', '2027-01-11 13:00', 'recurring')),
    ).toEqual([
      { streamId: streamOf.shift(100), events: [moved(FIRST, '2027-01-11 10:00', '2027-01-11 13:00')] },
      { streamId: streamOf.series(20), events: [retimed] },
      { streamId: streamOf.shift(101), events: [moved(SECOND, '2027-01-18 10:00', '2027-01-18 13:00')] },
      { streamId: streamOf.shift(102), events: [moved(THIRD, '2027-01-25 10:00', '2027-01-25 13:00')] },
    ]);
  });

  it('given occurrences that left the series, were cancelled, are dated before this one or have started, then they are left alone', () => {
    const left = stateOf([
      booked(101, '2027-01-18 09:00', '2027-01-18 12:00'),
      { type: 'rotas.ShiftSeriesChanged', data: { id: 101, organisationId: 1, seriesId: null } },
    ]);
    const gone = stateOf([booked(102, '2027-01-25 09:00', '2027-01-25 12:00'), cancelled(THIRD, 'cancelled')]);
    const onSecond = change(
      { shift: SECOND, series, later: [FIRST, left, gone, null] },
      request('2027-01-18 10:00', '2027-01-18 13:00', 'recurring'),
    );
    expect(onSecond.map((s) => s.streamId)).toEqual([streamOf.shift(101), streamOf.series(20)]);
    expect(
      laterOccurrences([FIRST, SECOND, THIRD], FIRST, 20, Date.parse('2027-01-20T00:00:00Z')).map((s) => s.id),
    ).toEqual([102]);
  });

  it("given the series' own times, then nothing is recorded", () => {
    expect(
      change({ shift: FIRST, series, later }, request('2027-01-11 09:00', '2027-01-11 12:00', 'recurring')),
    ).toEqual([]);
  });

  it('given a later occurrence the new times no longer fit (a closed day, no timeslot that day), then it is cancelled with the reason', () => {
    const rota = {
      ...ROTA,
      calendar: calendar({
        closed_dates: new Set(['2027-01-18']),
        timeline: [
          { from: '2027-01-01', to: '2027-01-24', timeslots: DAYS.map((d, i) => slot(i + 1, d, '09:00', '17:00')) },
          { from: '2027-01-25', to: null, timeslots: DAYS.map((d, i) => slot(i + 1, d, '09:00', '12:00')) },
        ],
      }),
    };
    expect(
      change(
        { shift: FIRST, series, later },
        request('2027-01-11 10:00', '2027-01-11 13:00', 'recurring'),
        context({ rota }),
      ),
    ).toEqual([
      { streamId: streamOf.shift(100), events: [moved(FIRST, '2027-01-11 10:00', '2027-01-11 13:00')] },
      { streamId: streamOf.series(20), events: [retimed] },
      { streamId: streamOf.shift(101), events: [cancelled(SECOND, 'rota_closed')] },
      { streamId: streamOf.shift(102), events: [cancelled(THIRD, 'outside_timeslot')] },
    ]);
  });

  it(
    'given a later occurrence whose new times would overlap another shift of the user, then the whole ' +
      'request is a 422 on start_datetime naming that date',
    () => {
      const clash: BookedSpan = {
        id: 300,
        userId: 7,
        rotaId: 9,
        date: '2027-01-25',
        start: Date.parse('2027-01-25T12:00:00Z'),
        end: Date.parse('2027-01-25T13:00:00Z'),
      };
      let error: unknown;
      try {
        change(
          { shift: FIRST, series, later },
          request('2027-01-11 10:00', '2027-01-11 13:00', 'recurring'),
          context({ userShifts: [clash] }),
        );
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors).toEqual({ start_datetime: [expect.stringContaining('2027-01-25')] });
    },
  );

  it('given recurrence_pattern null, then the series ends at this shift and later occurrences are cancelled (series_ended)', () => {
    expect(
      change({ shift: FIRST, series, later }, request('2027-01-11 10:00', '2027-01-11 13:00', 'recurring', null)),
    ).toEqual([
      { streamId: streamOf.shift(100), events: [moved(FIRST, '2027-01-11 10:00', '2027-01-11 13:00')] },
      {
        streamId: streamOf.series(20),
        events: [
          {
            type: 'rotas.RepeatingShiftEnded',
            data: { id: 20, organisationId: 1, endDate: '2027-01-11', until: '2027-01-11', reason: 'ended' },
          },
        ],
      },
      { streamId: streamOf.shift(101), events: [cancelled(SECOND, 'series_ended')] },
      { streamId: streamOf.shift(102), events: [cancelled(THIRD, 'series_ended')] },
    ]);
  });

  it(
    'given another pattern, then the series splits: the old one ends the day before, its later ' +
      'occurrences are cancelled, a new one starts with this shift',
    () => {
      const plan: ChangePlan = {
        kind: 'split',
        seriesId: 20,
        pattern: { frequency: 2, weekdays: ['mon'], endDate: '2027-06-30' },
      };
      const req = request('2027-01-18 10:00', '2027-01-18 13:00', 'recurring', {
        ...WEEKLY,
        recurrence_frequency: 2,
        end_date: '2027-06-30',
      });
      expect(planned({ shift: SECOND, series, later: [THIRD] }, req, plan, context({ newSeriesId: 21 }))).toEqual([
        {
          streamId: streamOf.shift(101),
          events: [
            moved(SECOND, '2027-01-18 10:00', '2027-01-18 13:00'),
            { type: 'rotas.ShiftSeriesChanged', data: { id: 101, organisationId: 1, seriesId: 21 } },
          ],
        },
        {
          streamId: streamOf.series(20),
          events: [
            {
              type: 'rotas.RepeatingShiftEnded',
              data: { id: 20, organisationId: 1, endDate: '2027-01-17', until: '2027-01-17', reason: 'split' },
            },
          ],
        },
        { streamId: streamOf.shift(102), events: [cancelled(THIRD, 'series_ended')] },
        {
          streamId: streamOf.series(21),
          events: [
            {
              type: 'rotas.RepeatingShiftStarted',
              data: {
                id: 21,
                organisationId: 1,
                userId: 7,
                rotaId: 3,
                teamId: 4,
                frequency: 2,
                weekdays: ['mon'],
                startDate: '2027-01-18',
                endDate: '2027-06-30',
                startTime: '10:00',
                endTime: '13:00',
                dayOffset: 0,
                firstShiftId: 101,
                ignoreOnHold: false,
                confirmRoleRestriction: false,
                until: '2027-06-30',
                exceptions: [],
              },
            },
          ],
        },
      ]);
    },
  );

  it(
    'given a split of a series generated past this shift, then the dates it had left without an ' +
      "occurrence (cancelled or edited alone) are the new series' exceptions",
    () => {
      const generated: RepeatingShiftEvent = {
        type: 'rotas.RepeatingShiftGenerated',
        data: {
          id: 20,
          organisationId: 1,
          generatedUntil: '2027-02-08',
          booked: [
            { date: '2027-01-18', shiftId: 101 },
            { date: '2027-01-25', shiftId: 102 },
            { date: '2027-02-01', shiftId: 103 },
            { date: '2027-02-08', shiftId: 104 },
          ],
          skipped: [],
        },
      };
      // 2027-02-01 was cancelled alone and 2027-02-08 moved alone (it left the series): only THIRD is still an occurrence after SECOND.
      const plan: ChangePlan = {
        kind: 'split',
        seriesId: 20,
        pattern: { frequency: 1, weekdays: ['mon'], endDate: '2027-06-30' },
      };
      const req = request('2027-01-18 10:00', '2027-01-18 13:00', 'recurring', { ...WEEKLY, end_date: '2027-06-30' });
      const events = planned(
        { shift: SECOND, series: seriesOf(generated), later: [THIRD] },
        req,
        plan,
        context({ newSeriesId: 21 }),
      );
      expect(events.find((s) => s.streamId === streamOf.series(21))!.events[0]!.data).toMatchObject({
        startDate: '2027-01-18',
        exceptions: ['2027-02-01', '2027-02-08'],
      });
    },
  );

  it('given a pattern on a shift of no series, then it becomes the first occurrence of a new one, booked six months ahead', () => {
    const lone = stateOf([booked(100, '2027-01-11 09:00', '2027-01-11 12:00', null)]);
    const events = change(
      { shift: lone },
      request('2027-01-11 09:00', '2027-01-11 12:00', 'recurring', WEEKLY),
      context({ newSeriesId: 21 }),
    );
    expect(events).toEqual([
      {
        streamId: streamOf.shift(100),
        events: [{ type: 'rotas.ShiftSeriesChanged', data: { id: 100, organisationId: 1, seriesId: 21 } }],
      },
      {
        streamId: streamOf.series(21),
        events: [
          expect.objectContaining({
            type: 'rotas.RepeatingShiftStarted',
            data: expect.objectContaining({
              id: 21,
              startDate: '2027-01-11',
              weekdays: ['mon'],
              until: '2027-07-11',
              firstShiftId: 100,
            }),
          }),
        ],
      },
    ]);
  });
});

describe('endSeries', () => {
  it('given a series ending after the date (or open-ended), then it ends there with until brought down; given one ending by then, then nothing', () => {
    expect(endSeries(seriesOf(), '2027-02-01', 'cancelled')).toEqual({
      type: 'rotas.RepeatingShiftEnded',
      data: { id: 20, organisationId: 1, endDate: '2027-02-01', until: '2027-02-01', reason: 'cancelled' },
    });
    expect(endSeries(seriesOf(), '2027-09-01', 'cancelled')?.data).toMatchObject({
      endDate: '2027-09-01',
      until: '2027-07-11',
    });
    const ended = seriesOf({
      type: 'rotas.RepeatingShiftEnded',
      data: { id: 20, organisationId: 1, endDate: '2027-01-31', until: '2027-01-31', reason: 'ended' },
    });
    expect(endSeries(ended, '2027-02-01', 'cancelled')).toBeNull();
    expect(endSeries(ended, '2027-01-20', 'cancelled')?.data.endDate).toBe('2027-01-20');
  });
});

describe('occurrenceAt / timesOfDayOf', () => {
  it('given wall-clock times, then the same times on another date across the clock change; a time the clocks skip, then null', () => {
    const overnight = times('2027-01-11 22:00', '2027-01-12 06:00');
    expect(timesOfDayOf(overnight)).toEqual({ startTime: '22:00', endTime: '06:00', dayOffset: 1 });
    expect(occurrenceAt('2027-03-29', { startTime: '09:00', endTime: '12:00', dayOffset: 0 }, ZONE)).toEqual({
      date: '2027-03-29',
      start: '2027-03-29T08:00:00.000Z',
      end: '2027-03-29T11:00:00.000Z',
      startWall: '2027-03-29 09:00',
      endWall: '2027-03-29 12:00',
    });
    expect(occurrenceAt('2027-03-28', { startTime: '01:30', endTime: '03:00', dayOffset: 0 }, ZONE)).toBeNull();
  });
});

describe('decideCancelShift', () => {
  const decider = testDecider({ evolve, decide: decideCancelShift });
  const given = [booked(100, '2027-01-11 09:00', '2027-01-11 12:00')];

  it("given a volunteer's own future shift on a self-managed rota, then ShiftCancelled (cancelled, sequence + 1)", () => {
    decider
      .given(given)
      .when({ reach: VOLUNTEER }, { rota: ROTA, now: NOW })
      .then([cancelled(FIRST, 'cancelled')]);
  });

  it("given a cancelled or unknown shift, then 404; another user's shift, then 403 unless a manager", () => {
    decider
      .given([...given, cancelled(FIRST, 'cancelled')])
      .when({ reach: VOLUNTEER }, { rota: ROTA, now: NOW })
      .thenThrows(NotFoundError);
    decider.given([]).when({ reach: VOLUNTEER }, { rota: ROTA, now: NOW }).thenThrows(NotFoundError);
    decider
      .given(given)
      .when({ reach: reach(8) }, { rota: ROTA, now: NOW })
      .thenThrows(ForbiddenError);
    decider
      .given(given)
      .when({ reach: MANAGER }, { rota: ROTA, now: NOW })
      .then([cancelled(FIRST, 'cancelled')]);
  });

  it(
    "rule 8: given today's shift, then only with allow_same_day_cancel; an overnight one on its start " +
      'date never; a started one never; managers are not bound',
    () => {
      const today = [booked(100, '2027-01-04 14:00', '2027-01-04 15:00')];
      const overnight = [booked(100, '2027-01-04 22:00', '2027-01-05 06:00')];
      const started = [booked(100, '2027-01-04 10:00', '2027-01-04 13:00')];
      decider
        .given(today)
        .when({ reach: VOLUNTEER }, { rota: ROTA, now: NOW })
        .thenThrows(ValidationError, ['start_datetime']);
      decider
        .given(today)
        .when({ reach: VOLUNTEER }, { rota: { ...ROTA, allowSameDayCancel: true }, now: NOW })
        .then([cancelled(stateOf(today), 'cancelled')]);
      decider
        .given(overnight)
        .when({ reach: VOLUNTEER }, { rota: { ...ROTA, allowSameDayCancel: true }, now: NOW })
        .thenThrows(ValidationError, ['start_datetime']);
      decider
        .given(started)
        .when({ reach: VOLUNTEER }, { rota: { ...ROTA, allowSameDayCancel: true }, now: NOW })
        .thenThrows(ValidationError, ['start_datetime']);
      decider
        .given(overnight)
        .when({ reach: MANAGER }, { rota: ROTA, now: NOW })
        .then([cancelled(stateOf(overnight), 'cancelled')]);
    },
  );
});

describe('decideCancelSeries', () => {
  const today = stateOf([booked(103, '2027-01-04 14:00', '2027-01-04 15:00')]);
  const startedToday = stateOf([booked(104, '2027-01-04 09:00', '2027-01-04 10:00')]);
  const ctx = (rota: BookingRota = ROTA) => ({ rota, today: TODAY, now: NOW });
  const ends = {
    streamId: streamOf.series(20),
    events: [
      {
        type: 'rotas.RepeatingShiftEnded',
        data: { id: 20, organisationId: 1, endDate: TODAY, until: TODAY, reason: 'cancelled' },
      },
    ],
  };

  it('given an occurrence with attendance recorded (a check-in before its start), then it stays, as a started one does (docs/rota-domain.md#attendance)', () => {
    const checkedIn = stateOf([
      booked(103, '2027-01-04 14:00', '2027-01-04 15:00'),
      {
        type: 'rotas.ShiftAttendanceRecorded',
        data: {
          id: 103,
          organisationId: 1,
          rotaId: 3,
          userId: 7,
          ...times('2027-01-04 14:00', '2027-01-04 15:00'),
          status: 'attended',
          minutes: 60,
          note: null,
          recordedBy: 7,
        },
      },
    ]);
    expect(decideCancelSeries(seriesOf(), [checkedIn, FIRST], { reach: MANAGER }, ctx())).toEqual([
      { streamId: streamOf.shift(100), events: [cancelled(FIRST, 'series_cancelled')] },
      ends,
    ]);
  });

  it('given a manager, then every occurrence that has not started is cancelled (series_cancelled) and the series ends today', () => {
    expect(decideCancelSeries(seriesOf(), [startedToday, today, FIRST, SECOND], { reach: MANAGER }, ctx())).toEqual([
      { streamId: streamOf.shift(103), events: [cancelled(today, 'series_cancelled')] },
      { streamId: streamOf.shift(100), events: [cancelled(FIRST, 'series_cancelled')] },
      { streamId: streamOf.shift(101), events: [cancelled(SECOND, 'series_cancelled')] },
      ends,
    ]);
  });

  it("given the series' volunteer, then their occurrence today stays without allow_same_day_cancel, and goes with it", () => {
    expect(decideCancelSeries(seriesOf(), [today, FIRST], { reach: VOLUNTEER }, ctx()).map((s) => s.streamId)).toEqual([
      streamOf.shift(100),
      streamOf.series(20),
    ]);
    expect(
      decideCancelSeries(
        seriesOf(),
        [today, FIRST],
        { reach: VOLUNTEER },
        ctx({ ...ROTA, allowSameDayCancel: true }),
      ).map((s) => s.streamId),
    ).toEqual([streamOf.shift(103), streamOf.shift(100), streamOf.series(20)]);
  });

  it("given another volunteer, or the series' user on a rota without self_manage, then 403; an unknown series, 404", () => {
    expect(() => decideCancelSeries(seriesOf(), [FIRST], { reach: reach(8) }, ctx())).toThrow(ForbiddenError);
    expect(() =>
      decideCancelSeries(seriesOf(), [FIRST], { reach: VOLUNTEER }, ctx({ ...ROTA, selfManage: false })),
    ).toThrow(ForbiddenError);
    expect(() => decideCancelSeries(null, [], { reach: MANAGER }, ctx())).toThrow(NotFoundError);
  });

  it('given a series already ended by today with nothing left to cancel, then nothing is recorded', () => {
    const ended = seriesOf({
      type: 'rotas.RepeatingShiftEnded',
      data: { id: 20, organisationId: 1, endDate: '2027-01-03', until: '2027-01-03', reason: 'cancelled' },
    });
    expect(decideCancelSeries(ended, [], { reach: MANAGER }, ctx())).toEqual([]);
  });
});
