import { describe, expect, it } from '@jest/globals';
import { testDecider } from '#app/platform';
import type { RotaCalendar } from '../domain/rota-calendar.js';
import { calendarData } from './rota.js';
import { mondaySlot, rotaSeven, rotaSevenClosedOn as closedOn } from './rota.fixtures.js';
import type { RepeatingShiftEvent, RotaEvent, ShiftEvent } from '../rotas.events.js';
import {
  calendarChangesOf,
  type CancelMisfits,
  decideCancelMisfits,
  decideMisfits,
  evolveMisfits,
  type MisfitEvent,
  type MisfitsContext,
  type MisfitsState,
  misfitStreams,
} from './misfits.js';

type GivenEvent = ShiftEvent | RepeatingShiftEvent;

const ZONE = 'Europe/London';
const slot = mondaySlot;
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
const booked = (
  id: number,
  date: string,
  from: string,
  to: string,
  over: { rotaId?: number; organisationId?: number } = {},
): GivenEvent => ({
  type: 'rotas.ShiftBooked',
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
const moved = (id: number, date: string, from: string, to: string, sequence = 1): GivenEvent => ({
  type: 'rotas.ShiftMoved',
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
): MisfitEvent & GivenEvent => ({
  type: 'rotas.ShiftCancelled',
  data: { id, organisationId: 1, rotaId: 7, userId: 100 + id, date, reason, sequence },
});
const series = (id: number, over: { endDate?: string | null; until?: string; rotaId?: number } = {}): GivenEvent => ({
  type: 'rotas.RepeatingShiftStarted',
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

const change = (type: CancelMisfits['change'], effectiveFrom: string, after: RotaCalendar): CancelMisfits => ({
  change: type,
  organisationId: 1,
  rotaId: 7,
  effectiveFrom,
  before,
  after,
});
const ctx: MisfitsContext = { zone: ZONE, requireFullTimeslot: false, now: Date.parse('2026-11-20T12:00:00Z') };
const misfits = testDecider<MisfitsState, CancelMisfits, GivenEvent, MisfitsContext>({
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

  it('given a shift with attendance recorded (a check-in before its start), when its day is closed, then it stays (docs/rota-domain.md#attendance)', () => {
    const shift = booked(1, '2026-11-23', '10:00', '12:00');
    misfits
      .given([
        shift,
        {
          type: 'rotas.ShiftAttendanceRecorded',
          data: {
            ...(shift.data as Extract<GivenEvent, { type: 'rotas.ShiftBooked' }>['data']),
            status: 'attended',
            minutes: 120,
            note: null,
            recordedBy: 101,
          },
        } as GivenEvent,
      ])
      .when(change('rotas.RotaClosed', '2026-11-23', calendar({ closed_dates: new Set(['2026-11-23']) })), ctx)
      .then([]);
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

  it('given a moved shift, then it is judged by its new times, and its SEQUENCE follows the move', () => {
    misfits
      .given([booked(1, '2026-11-30', '10:00', '12:00'), moved(1, '2026-11-23', '10:00', '12:00', 1)])
      .when(change('rotas.RotaClosed', '2026-11-23', calendar({ closed_dates: new Set(['2026-11-23']) })), ctx)
      .then([cancel(1, '2026-11-23', 'rota_closed', 2)]);
  });

  it('given a shift already cancelled (by a person, or by an earlier change), then nothing is decided again', () => {
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
    const ended: GivenEvent = {
      type: 'rotas.RepeatingShiftEnded',
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

describe('a rota change’s cancellations in its own write (rota/rota-change.write.ts)', () => {
  const rota = rotaSeven();
  const archived: RotaEvent = {
    type: 'rotas.RotaArchived',
    data: {
      id: 7,
      organisationId: 1,
      effectiveFrom: '2026-11-20',
      calendar: calendarData({ ...rota, archived: true }),
    },
  };
  const row = (id: number, date: string, rotaId = 7) => ({
    id,
    rotaId,
    date,
    start: Date.parse(`${date}T10:00:00Z`),
    end: Date.parse(`${date}T12:00:00Z`),
  });
  const context = { zone: ZONE, now: ctx.now };

  it('given a close and a rename among the decided events, then only the close is a calendar change, with the calendar before and after it', () => {
    const renamed: RotaEvent = {
      type: 'rotas.RotaChanged',
      data: { id: 7, organisationId: 1, changes: { name: 'New' } },
    };
    const changes = calendarChangesOf(new Map([[7, rota]]), [renamed, closedOn('2026-11-23')]);
    expect(changes).toEqual([
      {
        command: expect.objectContaining({
          change: 'rotas.RotaClosed',
          rotaId: 7,
          effectiveFrom: '2026-11-23',
          before: expect.objectContaining({ closed_dates: new Set() }),
          after: expect.objectContaining({ closed_dates: new Set(['2026-11-23']) }),
        }),
        requireFullTimeslot: false,
      },
    ]);
    expect(calendarChangesOf(new Map(), [closedOn('2026-11-23')])).toEqual([]);
  });

  it('given rows of two rotas, when one closes a day, then only its row on that day is a stream to read; an archive also names the series it cuts short', () => {
    const rows = {
      shifts: [row(1, '2026-11-23'), row(2, '2026-11-30'), row(3, '2026-11-23', 8)],
      series: [
        { id: 1, rotaId: 7, endDate: null },
        { id: 2, rotaId: 7, endDate: '2026-11-10' },
        { id: 3, rotaId: 8, endDate: null },
      ],
    };
    const rotas = new Map([[7, rota]]);
    expect(misfitStreams(calendarChangesOf(rotas, [closedOn('2026-11-23')]), rows, context)).toEqual({
      shifts: [1],
      series: [],
    });
    expect(misfitStreams(calendarChangesOf(rotas, [archived]), rows, context)).toEqual({ shifts: [1, 2], series: [1] });
  });

  it('given two changes of one rota in one write, then a shift both leave behind is cancelled once', () => {
    const state = [booked(1, '2026-11-23', '10:00', '12:00'), series(1)].reduce<MisfitsState | null>(
      evolveMisfits,
      null,
    )!;
    const changes = calendarChangesOf(new Map([[7, rota]]), [closedOn('2026-11-23'), archived]);
    expect(decideMisfits(state, changes, context).map((e) => [e.type, e.data.id])).toEqual([
      ['rotas.ShiftCancelled', 1],
      ['rotas.RepeatingShiftEnded', 1],
    ]);
  });
});
