import { describe, expect, it } from '@jest/globals';
import { ConflictError, ForbiddenError, NotFoundError, testDecider, ValidationError } from '#app/platform';
import type { BookedSpan } from '../domain/booking-rules.js';
import type { RotaCalendar } from '../domain/rota-calendar.js';
import type { ShiftEvent } from '../rotas.events.js';
import type { CallerReach } from '../rotas.policy.js';
import type { Booker, RotaForBooking } from './booking-facts.js';
import { evolve } from './shift.js';
import { decideAskStandIn, decideWithdrawStandIn, STAND_IN_NOTE_MAX, type StandInContext } from './stand-in.js';
import { decideTakeOver, type TakeOver, type TakeOverContext } from './take-over.js';

// January in London: the wall clock is UTC. 2027-01-11 is a Monday; "now" is the Monday before.
const NOW = Date.parse('2027-01-04T12:00:00Z');
const VOLUNTEER = 7;
const TAKER = 8;
const calendar: RotaCalendar = {
  start_date: '2027-01-01',
  end_date: null,
  archived: false,
  closed_dates: new Set(),
  timeline: [
    {
      from: '2027-01-01',
      to: null,
      timeslots: [
        // max 1: a take-over still passes (rule 7 is not applied).
        {
          id: 1,
          weekday_start: 'monday',
          start_time: '09:00',
          weekday_end: 'monday',
          end_time: '12:00',
          min: 1,
          ideal: 1,
          max: 1,
        },
      ],
    },
  ],
};
const rota = (more: Partial<RotaForBooking> = {}): RotaForBooking => ({
  id: 3,
  teamId: 4,
  name: 'Café',
  calendar,
  zone: 'Europe/London',
  selfManage: true,
  requireFullTimeslot: false,
  restrictedByRole: false,
  roleProfileIds: [],
  allowSameDayAdd: false,
  allowSameDayEdit: false,
  allowSameDayCancel: false,
  ...more,
});
const reach = (userId: number, more: Partial<CallerReach> = {}): CallerReach => ({
  userId,
  seen: new Set([4]),
  manages: new Set(),
  addsShifts: new Set(),
  onHold: false,
  ...more,
});
const MANAGER = reach(1, { addsShifts: new Set([4]) });

const booked = (
  userId = VOLUNTEER,
  seriesId: number | null = null,
  start = '2027-01-11T09:00:00.000Z',
): ShiftEvent => ({
  type: 'rotas.ShiftBooked',
  data: {
    id: 100,
    organisationId: 1,
    rotaId: 3,
    teamId: 4,
    userId,
    seriesId,
    date: start.slice(0, 10),
    start,
    end: new Date(Date.parse(start) + 3 * 3_600_000).toISOString(),
    startWall: `${start.slice(0, 10)} ${start.slice(11, 16)}`,
    endWall: '2027-01-11 12:00',
  },
});
const ids = { id: 100, organisationId: 1, rotaId: 3, userId: VOLUNTEER, date: '2027-01-11' };
const requested = (requestedBy = VOLUNTEER, note: string | null = null): ShiftEvent => ({
  type: 'rotas.ShiftStandInRequested',
  data: { ...ids, requestedBy, note },
});
const withdrawn: ShiftEvent = { type: 'rotas.ShiftStandInWithdrawn', data: ids };
const cancelled: ShiftEvent = {
  type: 'rotas.ShiftCancelled',
  data: { ...ids, reason: 'cancelled', sequence: 1 },
};
const handedOver = (toUserId = TAKER, leftSeriesId: number | null = null, sequence = 1): ShiftEvent => ({
  type: 'rotas.ShiftHandedOver',
  data: {
    id: 100,
    organisationId: 1,
    rotaId: 3,
    date: '2027-01-11',
    fromUserId: VOLUNTEER,
    toUserId,
    by: 'take_over',
    swapId: null,
    leftSeriesId,
    sequence,
  },
});

const ctx = (more: Partial<StandInContext> = {}): StandInContext => ({ rota: rota(), now: NOW, ...more });

describe('decideAskStandIn (docs/rota-domain.md#stand-ins-and-take-overs)', () => {
  const decider = testDecider({ evolve, decide: decideAskStandIn });

  it("given a volunteer's own future shift on a self-managed rota, when they ask with a note, then ShiftStandInRequested by them", () => {
    decider
      .given([booked()])
      .when({ reach: reach(VOLUNTEER), note: 'Ill' }, ctx())
      .then([requested(VOLUNTEER, 'Ill')]);
  });

  it("given another volunteer's shift, when a manager of the rota asks, then it is recorded as the manager's request, on any rota", () => {
    decider
      .given([booked()])
      .when({ reach: MANAGER, note: null }, ctx({ rota: rota({ selfManage: false }) }))
      .then([requested(1, null)]);
  });

  it('given an open request, when asked again with another note, then only the note changes (written by the caller); the same note, then nothing', () => {
    decider
      .given([booked(), requested(VOLUNTEER, 'Ill')])
      .when({ reach: MANAGER, note: 'Still ill' }, ctx())
      .then([
        {
          type: 'rotas.ShiftStandInNoteChanged',
          data: { id: 100, organisationId: 1, writtenBy: 1, note: 'Still ill' },
        },
      ]);
    decider
      .given([booked(), requested(VOLUNTEER, 'Ill')])
      .when({ reach: reach(VOLUNTEER), note: 'Ill' }, ctx())
      .then([]);
  });

  it('given a cancelled or unknown shift, then 404', () => {
    decider
      .given([booked(), cancelled])
      .when({ reach: reach(VOLUNTEER), note: null }, ctx())
      .thenThrows(NotFoundError);
    decider
      .given([])
      .when({ reach: reach(VOLUNTEER), note: null }, ctx())
      .thenThrows(NotFoundError);
  });

  it("given another volunteer's shift, a rota not self-managed, or a rota the caller does not see, then 403", () => {
    decider
      .given([booked()])
      .when({ reach: reach(TAKER), note: null }, ctx())
      .thenThrows(ForbiddenError);
    decider
      .given([booked()])
      .when({ reach: reach(VOLUNTEER), note: null }, ctx({ rota: rota({ selfManage: false }) }))
      .thenThrows(ForbiddenError);
    decider
      .given([booked()])
      .when({ reach: reach(VOLUNTEER, { seen: new Set() }), note: null }, ctx())
      .thenThrows(ForbiddenError);
  });

  it('given a shift that has started, then 422 naming start_datetime, for a manager too', () => {
    const later = ctx({ now: Date.parse('2027-01-11T09:30:00Z') });
    decider
      .given([booked()])
      .when({ reach: MANAGER, note: null }, later)
      .thenThrows(ValidationError, ['start_datetime']);
  });

  it('given a shift today on a rota without allow_same_day_cancel, then the volunteer gets 422 (rule 8 as a cancel); a manager does not', () => {
    const sameDay = ctx({ now: Date.parse('2027-01-11T07:00:00Z') });
    decider
      .given([booked()])
      .when({ reach: reach(VOLUNTEER), note: null }, sameDay)
      .thenThrows(ValidationError, ['start_datetime']);
    decider
      .given([booked()])
      .when({ reach: reach(VOLUNTEER), note: null }, { ...sameDay, rota: rota({ allowSameDayCancel: true }) })
      .then([requested()]);
    decider
      .given([booked()])
      .when({ reach: MANAGER, note: null }, sameDay)
      .then([requested(1)]);
  });

  it(`given a note longer than ${STAND_IN_NOTE_MAX} characters, then 422 naming note; exactly ${STAND_IN_NOTE_MAX} passes`, () => {
    decider
      .given([booked()])
      .when({ reach: reach(VOLUNTEER), note: 'x'.repeat(STAND_IN_NOTE_MAX + 1) }, ctx())
      .thenThrows(ValidationError, ['note']);
    const note = 'é'.repeat(STAND_IN_NOTE_MAX);
    decider
      .given([booked()])
      .when({ reach: reach(VOLUNTEER), note }, ctx())
      .then([requested(VOLUNTEER, note)]);
  });
});

describe('decideWithdrawStandIn', () => {
  const decider = testDecider({ evolve, decide: decideWithdrawStandIn });

  it('given an open request, when the volunteer or a manager withdraws it, then ShiftStandInWithdrawn', () => {
    decider
      .given([booked(), requested()])
      .when({ reach: reach(VOLUNTEER) }, ctx())
      .then([withdrawn]);
    decider.given([booked(), requested()]).when({ reach: MANAGER }, ctx()).then([withdrawn]);
  });

  it('given no open request (never asked, withdrawn, taken over), then 409', () => {
    decider
      .given([booked()])
      .when({ reach: reach(VOLUNTEER) }, ctx())
      .thenThrows(ConflictError);
    decider
      .given([booked(), requested(), withdrawn])
      .when({ reach: reach(VOLUNTEER) }, ctx())
      .thenThrows(ConflictError);
    decider.given([booked(), requested(), handedOver()]).when({ reach: MANAGER }, ctx()).thenThrows(ConflictError);
  });

  it('given someone else, then 403 before the 409; a started shift, then 422 after it', () => {
    decider
      .given([booked()])
      .when({ reach: reach(TAKER) }, ctx())
      .thenThrows(ForbiddenError);
    const later = ctx({ now: Date.parse('2027-01-11T09:30:00Z') });
    decider.given([booked()]).when({ reach: MANAGER }, later).thenThrows(ConflictError);
    decider
      .given([booked(), requested()])
      .when({ reach: MANAGER }, later)
      .thenThrows(ValidationError, ['start_datetime']);
  });
});

describe('decideTakeOver', () => {
  const decider = testDecider({ evolve, decide: decideTakeOver });
  const taker = (more: Partial<Booker> = {}): Booker => ({
    onHold: false,
    roleProfileIds: new Set([20]),
    seen: new Set([4]),
    ...more,
  });
  const over = (more: Partial<TakeOverContext> = {}): TakeOverContext => ({
    rota: rota(),
    taker: taker(),
    takerShifts: [],
    now: NOW,
    ...more,
  });
  const by = (caller: CallerReach, more: Partial<TakeOver> = {}): TakeOver => ({
    reach: caller,
    takerId: caller.userId,
    ignoreOnHold: false,
    confirmRoleRestriction: false,
    ...more,
  });
  const span = (userId: number, start: string, end: string): BookedSpan => ({
    id: 200,
    userId,
    rotaId: 9,
    date: start.slice(0, 10),
    start: Date.parse(start),
    end: Date.parse(end),
  });

  it('given a shift looking for a stand-in, when an eligible volunteer takes it over, then ShiftHandedOver to them, sequence + 1', () => {
    decider
      .given([booked(), requested()])
      .when(by(reach(TAKER)), over())
      .then([handedOver()]);
  });

  it('given an occurrence of a series, then it leaves the series (leftSeriesId) and the state has no series, no request, the taker', () => {
    decider
      .given([booked(VOLUNTEER, 40), requested()])
      .when(by(reach(TAKER)), over())
      .then([handedOver(TAKER, 40)]);
    const state = [booked(VOLUNTEER, 40), requested(), handedOver(TAKER, 40)].reduce(evolve, null)!;
    expect(state).toMatchObject({ userId: TAKER, seriesId: null, standIn: null, sequence: 1 });
  });

  it('given a shift already handed over once and looking again, then a second take-over works (odoo-production#1396)', () => {
    const second: ShiftEvent = {
      type: 'rotas.ShiftStandInRequested',
      data: { ...ids, userId: TAKER, requestedBy: TAKER, note: null },
    };
    decider
      .given([booked(), requested(), handedOver(), second])
      .when(by(reach(9)), over())
      .then([
        {
          type: 'rotas.ShiftHandedOver',
          data: {
            id: 100,
            organisationId: 1,
            rotaId: 3,
            date: '2027-01-11',
            fromUserId: TAKER,
            toUserId: 9,
            by: 'take_over',
            swapId: null,
            leftSeriesId: null,
            sequence: 2,
          },
        },
      ]);
  });

  it('given a full timeslot (max 1, the shift itself), then rule 7 is not applied: the place is handed over', () => {
    decider
      .given([booked(), requested()])
      .when(by(reach(TAKER)), over())
      .then([handedOver()]);
  });

  it('given a cancelled or unknown shift, or its rota gone, then 404', () => {
    decider
      .given([booked(), requested(), cancelled])
      .when(by(reach(TAKER)), over())
      .thenThrows(NotFoundError);
    decider
      .given([booked(), requested()])
      .when(by(reach(TAKER)), over({ rota: undefined }))
      .thenThrows(NotFoundError);
  });

  it('given a volunteer naming someone else or an override, a rota not self-managed, or unseen, then 403', () => {
    const given = [booked(), requested()];
    decider
      .given(given)
      .when(by(reach(TAKER), { takerId: 9 }), over())
      .thenThrows(ForbiddenError);
    decider
      .given(given)
      .when(by(reach(TAKER), { ignoreOnHold: true }), over())
      .thenThrows(ForbiddenError);
    decider
      .given(given)
      .when(by(reach(TAKER)), over({ rota: rota({ selfManage: false }) }))
      .thenThrows(ForbiddenError);
    decider
      .given(given)
      .when(by(reach(TAKER, { seen: new Set() })), over())
      .thenThrows(ForbiddenError);
  });

  it('given no open request (never asked, withdrawn), then 409, after the 403s', () => {
    decider
      .given([booked()])
      .when(by(reach(TAKER)), over())
      .thenThrows(ConflictError);
    decider
      .given([booked(), requested(), withdrawn])
      .when(by(reach(TAKER)), over())
      .thenThrows(ConflictError);
    decider
      .given([booked()])
      .when(by(reach(TAKER), { takerId: 9 }), over())
      .thenThrows(ForbiddenError);
  });

  it('given the taker is the volunteer, then 422 naming user; a started shift, then 422 naming start_datetime', () => {
    decider
      .given([booked(), requested()])
      .when(by(MANAGER, { takerId: VOLUNTEER }), over())
      .thenThrows(ValidationError, ['user']);
    const later = over({ now: Date.parse('2027-01-11T09:30:00Z') });
    decider
      .given([booked(), requested()])
      .when(by(MANAGER, { takerId: TAKER }), later)
      .thenThrows(ValidationError, ['start_datetime']);
  });

  it('given a taker on hold, then 422 naming user (rule 4), unless a manager sends ignore_on_hold', () => {
    const onHold = over({ taker: taker({ onHold: true }) });
    decider
      .given([booked(), requested()])
      .when(by(reach(TAKER)), onHold)
      .thenThrows(ValidationError, ['user']);
    decider
      .given([booked(), requested()])
      .when(by(MANAGER, { takerId: TAKER, ignoreOnHold: true }), onHold)
      .then([handedOver()]);
  });

  it('given a taker outside the organisation or the rota, then 422 naming user (rule 3)', () => {
    decider
      .given([booked(), requested()])
      .when(by(MANAGER, { takerId: TAKER }), over({ taker: undefined }))
      .thenThrows(ValidationError, ['user']);
    decider
      .given([booked(), requested()])
      .when(by(MANAGER, { takerId: TAKER }), over({ taker: taker({ seen: new Set() }) }))
      .thenThrows(ValidationError, ['user']);
  });

  it('given a role-restricted rota and a taker without an allowed role, then 422 naming user (rule 5), unless a manager confirms', () => {
    const restricted = over({ rota: rota({ restrictedByRole: true, roleProfileIds: [30] }) });
    decider
      .given([booked(), requested()])
      .when(by(reach(TAKER)), restricted)
      .thenThrows(ValidationError, ['user']);
    decider
      .given([booked(), requested()])
      .when(by(MANAGER, { takerId: TAKER, confirmRoleRestriction: true }), restricted)
      .then([handedOver()]);
  });

  it('given the taker has an overlapping shift on any rota, then 422 naming start_datetime (rule 6)', () => {
    const busy = over({ takerShifts: [span(TAKER, '2027-01-11T11:00:00Z', '2027-01-11T13:00:00Z')] });
    decider
      .given([booked(), requested()])
      .when(by(reach(TAKER)), busy)
      .thenThrows(ValidationError, ['start_datetime']);
  });

  it('given a shift today, then a volunteer taking it gets 422 without allow_same_day_add (rule 8); a manager booking them does not', () => {
    const today = over({ now: Date.parse('2027-01-11T07:00:00Z') });
    decider
      .given([booked(), requested()])
      .when(by(reach(TAKER)), today)
      .thenThrows(ValidationError, ['start_datetime']);
    decider
      .given([booked(), requested()])
      .when(by(MANAGER, { takerId: TAKER }), today)
      .then([handedOver()]);
  });

  it('given a rota closed that day, then 422 naming rota (rule 1)', () => {
    const closed = over({ rota: rota({ calendar: { ...calendar, closed_dates: new Set(['2027-01-11']) } }) });
    decider
      .given([booked(), requested()])
      .when(by(reach(TAKER)), closed)
      .thenThrows(ValidationError, ['rota']);
  });
});
