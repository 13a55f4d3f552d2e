import { describe, it } from '@jest/globals';
import { testDecider } from '#app/platform';
import type { RotaCalendar } from '../domain/rota-calendar.js';
import type { RotaTimeslot } from '../domain/weekly-timeslots.js';
import {
  type CancelMisfits,
  decideCancelMisfits,
  evolveMisfits,
  type MisfitEvent,
  type MisfitsContext,
  type MisfitsState,
  type PositionedEvent,
} from './misfits.js';

const ZONE = 'Europe/London';
const slot = (start_time: string, end_time: string, id = 1): RotaTimeslot => ({
  id,
  weekday_start: 'monday',
  start_time,
  weekday_end: 'monday',
  end_time,
  min: 1,
  ideal: 2,
  max: 3,
});
const calendar = (over: Partial<RotaCalendar> = {}): RotaCalendar => ({
  start_date: '2026-11-01',
  end_date: null,
  archived: false,
  closed_dates: new Set(),
  timeline: [{ from: '2026-11-01', to: null, timeslots: [slot('09:00', '17:00')] }],
  ...over,
});
const before = calendar();

// Mondays in November 2026 are on GMT: wall clock = UTC.
let position = 0;
const booked = (
  id: number,
  date: string,
  from: string,
  to: string,
  over: { rotaId?: number; organisationId?: number; at?: number } = {},
): PositionedEvent => ({
  type: 'rotas.ShiftBooked',
  position: over.at ?? ++position,
  data: {
    id,
    organisationId: over.organisationId ?? 1,
    rotaId: over.rotaId ?? 7,
    teamId: 3,
    userId: 100 + id,
    seriesId: null,
    date,
    start: `${date}T${from}:00.000Z`,
    end: `${date}T${to}:00.000Z`,
    startWall: `${date} ${from}`,
    endWall: `${date} ${to}`,
  },
});
const moved = (id: number, date: string, from: string, to: string, at: number, sequence = 1): PositionedEvent => ({
  type: 'rotas.ShiftMoved',
  position: at,
  data: {
    id,
    organisationId: 1,
    rotaId: 7,
    userId: 100 + id,
    sequence,
    date,
    start: `${date}T${from}:00.000Z`,
    end: `${date}T${to}:00.000Z`,
    startWall: `${date} ${from}`,
    endWall: `${date} ${to}`,
    was: { date, start: '', end: '', startWall: '', endWall: '' },
  },
});
const cancelled = (
  id: number,
  date: string,
  reason: 'cancelled' | 'rota_closed',
  sequence = 1,
): MisfitEvent & PositionedEvent => ({
  type: 'rotas.ShiftCancelled',
  position: ++position,
  data: { id, organisationId: 1, rotaId: 7, userId: 100 + id, date, reason, sequence },
});
const series = (
  id: number,
  over: { endDate?: string | null; until?: string; rotaId?: number } = {},
): PositionedEvent => ({
  type: 'rotas.RepeatingShiftStarted',
  position: ++position,
  data: {
    id,
    organisationId: 1,
    userId: 200 + id,
    rotaId: over.rotaId ?? 7,
    teamId: 3,
    frequency: 1,
    weekdays: ['mon'],
    startDate: '2026-11-23',
    endDate: over.endDate ?? null,
    startTime: '10:00',
    endTime: '12:00',
    dayOffset: 0,
    firstShiftId: 90 + id,
    ignoreOnHold: false,
    confirmRoleRestriction: false,
    until: over.until ?? '2027-05-23',
  },
});

const CHANGE_AT = 1_000;
const change = (type: CancelMisfits['change'], effectiveFrom: string, after: RotaCalendar): CancelMisfits => ({
  change: type,
  organisationId: 1,
  rotaId: 7,
  position: CHANGE_AT,
  effectiveFrom,
  before,
  after,
});
const ctx: MisfitsContext = { zone: ZONE, requireFullTimeslot: false, now: Date.parse('2026-11-20T12:00:00Z') };
const misfits = testDecider<MisfitsState, CancelMisfits, PositionedEvent, MisfitsContext>({
  evolve: evolveMisfits,
  decide: decideCancelMisfits,
});
const cancel = (id: number, date: string, reason: string, sequence = 1): MisfitEvent =>
  ({
    type: 'rotas.ShiftCancelled',
    data: { id, organisationId: 1, rotaId: 7, userId: 100 + id, date, reason, sequence },
  }) as MisfitEvent;

describe('cancelling shifts a rota change leaves outside it (docs/rota-domain.md#shifts-that-no-longer-fit)', () => {
  it('given two booked Mondays, when the first is closed, then its shift is cancelled (rota_closed, SEQUENCE raised) and the other stays', () => {
    misfits
      .given([booked(1, '2026-11-23', '10:00', '12:00'), booked(2, '2026-11-30', '10:00', '12:00')])
      .when(change('rotas.RotaClosed', '2026-11-23', calendar({ closed_dates: new Set(['2026-11-23']) })), ctx)
      .then([cancel(1, '2026-11-23', 'rota_closed')]);
  });

  it('given shifts inside and outside the new timeslots, when the timeslots change, then only the one outside is cancelled (outside_timeslot)', () => {
    const after = calendar({
      timeline: [
        { from: '2026-11-01', to: '2026-11-29', timeslots: [slot('09:00', '17:00')] },
        { from: '2026-11-30', to: null, timeslots: [slot('13:00', '17:00', 2)] },
      ],
    });
    misfits
      .given([
        booked(1, '2026-11-30', '10:00', '12:00'),
        booked(2, '2026-11-30', '13:00', '15:00'),
        booked(3, '2026-11-23', '10:00', '12:00'),
      ])
      .when(change('rotas.RotaTimeslotsChanged', '2026-11-30', after), ctx)
      .then([cancel(1, '2026-11-30', 'outside_timeslot')]);
  });

  it('given a shift that has started, when its day is closed, then it stays: past shifts are never touched', () => {
    misfits
      .given([booked(1, '2026-11-23', '10:00', '12:00')])
      .when(change('rotas.RotaClosed', '2026-11-23', calendar({ closed_dates: new Set(['2026-11-23']) })), {
        ...ctx,
        now: Date.parse('2026-11-23T10:00:00Z'),
      })
      .then([]);
  });

  it(
    'given a shift moved onto the closed day after the change committed, when the late job runs, then it ' +
      'stays (it was checked against the change already)',
    () => {
      misfits
        .given([booked(1, '2026-11-30', '10:00', '12:00'), moved(1, '2026-11-23', '10:00', '12:00', CHANGE_AT + 5)])
        .when(change('rotas.RotaClosed', '2026-11-23', calendar({ closed_dates: new Set(['2026-11-23']) })), ctx)
        .then([]);
    },
  );

  it('given a shift moved before the change, then it is judged by its new times, and its SEQUENCE follows the move', () => {
    misfits
      .given([booked(1, '2026-11-30', '10:00', '12:00'), moved(1, '2026-11-23', '10:00', '12:00', CHANGE_AT - 5, 1)])
      .when(change('rotas.RotaClosed', '2026-11-23', calendar({ closed_dates: new Set(['2026-11-23']) })), ctx)
      .then([cancel(1, '2026-11-23', 'rota_closed', 2)]);
  });

  it('given a shift already cancelled (by a person, or by an earlier run of this job), then nothing is decided again', () => {
    const closed = calendar({ closed_dates: new Set(['2026-11-23']) });
    misfits
      .given([booked(1, '2026-11-23', '10:00', '12:00'), cancelled(1, '2026-11-23', 'rota_closed')])
      .when(change('rotas.RotaClosed', '2026-11-23', closed), ctx)
      .then([]);
  });

  it('given shifts of another rota and of another organisation on the closed day, then they are not touched', () => {
    misfits
      .given([
        booked(1, '2026-11-23', '10:00', '12:00', { rotaId: 8 }),
        booked(2, '2026-11-23', '13:00', '15:00', { organisationId: 2 }),
      ])
      .when(change('rotas.RotaClosed', '2026-11-23', calendar({ closed_dates: new Set(['2026-11-23']) })), ctx)
      .then([]);
  });

  it(
    'given a shift before effectiveFrom, or on a date the change did not touch, then it stays even if it ' +
      'does not fit (a manager booked it over the rules)',
    () => {
      misfits
        .given([booked(1, '2026-11-23', '18:00', '19:00'), booked(2, '2026-12-07', '18:00', '19:00')])
        .when(change('rotas.RotaClosed', '2026-11-30', calendar({ closed_dates: new Set(['2026-11-30']) })), ctx)
        .then([]);
    },
  );

  it(
    'given future shifts and series, when the rota is archived, then every future shift is cancelled ' +
      '(rota_archived) and the running series end on the archive date',
    () => {
      misfits
        .given([
          booked(1, '2026-11-23', '10:00', '12:00'),
          booked(2, '2026-11-30', '10:00', '12:00'),
          series(1),
          series(2, { endDate: '2026-12-31', until: '2026-12-31' }),
          series(3, { endDate: '2026-11-10', until: '2026-11-10' }),
          series(4, { rotaId: 8 }),
        ])
        .when(change('rotas.RotaArchived', '2026-11-20', calendar({ archived: true })), ctx)
        .then([
          cancel(1, '2026-11-23', 'rota_archived'),
          cancel(2, '2026-11-30', 'rota_archived'),
          {
            type: 'rotas.RepeatingShiftEnded',
            data: { id: 1, organisationId: 1, endDate: '2026-11-20', until: '2026-11-20', reason: 'rota_archived' },
          },
          {
            type: 'rotas.RepeatingShiftEnded',
            data: { id: 2, organisationId: 1, endDate: '2026-11-20', until: '2026-11-20', reason: 'rota_archived' },
          },
        ]);
    },
  );

  it('given an ended series, when the rota is archived, then the series is left as it ended', () => {
    const ended: PositionedEvent = {
      type: 'rotas.RepeatingShiftEnded',
      position: ++position,
      data: { id: 1, organisationId: 1, endDate: '2026-12-01', until: '2026-12-01', reason: 'cancelled' },
    };
    misfits
      .given([series(1), ended])
      .when(change('rotas.RotaArchived', '2026-11-20', calendar({ archived: true })), ctx)
      .then([]);
  });

  it(
    'given shifts and series past a new end date, when the rota ends, then those shifts are cancelled ' +
      '(rota_ended) and the series end on the end date, until coming down',
    () => {
      misfits
        .given([
          booked(1, '2026-11-23', '10:00', '12:00'),
          booked(2, '2026-11-30', '10:00', '12:00'),
          series(1),
          series(2, { endDate: '2026-11-25', until: '2026-11-25' }),
          series(3, { until: '2026-11-26', endDate: '2026-12-20' }),
        ])
        .when(change('rotas.RotaEnded', '2026-11-27', calendar({ end_date: '2026-11-26' })), ctx)
        .then([
          cancel(2, '2026-11-30', 'rota_ended'),
          {
            type: 'rotas.RepeatingShiftEnded',
            data: { id: 1, organisationId: 1, endDate: '2026-11-26', until: '2026-11-26', reason: 'ended' },
          },
          {
            type: 'rotas.RepeatingShiftEnded',
            data: { id: 3, organisationId: 1, endDate: '2026-11-26', until: '2026-11-26', reason: 'ended' },
          },
        ]);
    },
  );

  it('given a timeslot change, then no series ends: generation skips what no longer fits by itself', () => {
    const after = calendar({ timeline: [{ from: '2026-11-01', to: null, timeslots: [slot('13:00', '17:00', 2)] }] });
    misfits
      .given([series(1)])
      .when(change('rotas.RotaTimeslotsChanged', '2026-11-23', after), ctx)
      .then([]);
  });

  it('given a rota requiring full timeslots, when a timeslot is cut short, then a shift covering the old one no longer fits', () => {
    const after = calendar({
      timeline: [
        { from: '2026-11-01', to: '2026-11-22', timeslots: [slot('09:00', '17:00')] },
        { from: '2026-11-23', to: null, timeslots: [slot('09:00', '12:00', 2)] },
      ],
    });
    misfits
      .given([booked(1, '2026-11-23', '09:00', '17:00'), booked(2, '2026-11-30', '09:00', '12:00')])
      .when(change('rotas.RotaPatternReplaced', '2026-11-23', after), { ...ctx, requireFullTimeslot: true })
      .then([cancel(1, '2026-11-23', 'outside_timeslot')]);
  });
});
