import { describe, it } from '@jest/globals';
import { ConflictError, ForbiddenError, NotFoundError, testDecider, ValidationError } from '#app/platform';
import type { BookingRota } from '../domain/booking-rules.js';
import type { ShiftEvent, ShiftTimesData } from '../rotas.events.js';
import type { CallerReach } from '../rotas.policy.js';
import { type AttendanceContext, decideRecordAttendance, type RecordAttendance } from './attendance.js';
import { evolve } from './shift.js';
import { decideCancelShift } from './shift-changes.js';

// docs/rota-domain.md#attendance. January in London: the wall clock is UTC.
const ZONE = 'Europe/London';
const at = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}:00Z`);
const times = (start: string, end: string): ShiftTimesData => ({
  date: start.slice(0, 10),
  start: new Date(at(start)).toISOString(),
  end: new Date(at(end)).toISOString(),
  startWall: start,
  endWall: end,
});
const reach = (
  userId: number,
  role: 'volunteer' | 'addsShifts' | 'manages' = 'volunteer',
  seen = [4],
): CallerReach => ({
  userId,
  seen: new Set(seen),
  manages: new Set(role === 'manages' ? seen : []),
  addsShifts: new Set(role === 'addsShifts' ? seen : []),
  onHold: false,
});
const VOLUNTEER = reach(7);
const SHIFTER = reach(1, 'addsShifts');
const BOSS = reach(2, 'manages');

const SHIFT = times('2027-01-11 09:00', '2027-01-11 12:00');
const ids = { id: 100, organisationId: 1, rotaId: 3, userId: 7 };
const booked: ShiftEvent = { type: 'rotas.ShiftBooked', data: { ...ids, teamId: 4, seriesId: null, ...SHIFT } };
const recorded = (
  recordedBy: number,
  more: Partial<Extract<ShiftEvent, { type: 'rotas.ShiftAttendanceRecorded' }>['data']> = {},
): ShiftEvent => ({
  type: 'rotas.ShiftAttendanceRecorded',
  data: { ...ids, ...SHIFT, status: 'attended', minutes: 180, note: null, recordedBy, ...more },
});
const cleared: ShiftEvent = { type: 'rotas.ShiftAttendanceCleared', data: ids };

const context = (now: string, selfManage = true): AttendanceContext => ({
  rota: { teamId: 4, selfManage },
  zone: ZONE,
  now: at(now),
});
const AFTER = context('2027-01-11 13:00');
const ask = (who: CallerReach, more: Partial<RecordAttendance> = {}): RecordAttendance => ({
  reach: who,
  status: 'attended',
  note: null,
  ...more,
});

describe('decideRecordAttendance', () => {
  const decider = testDecider({ evolve, decide: decideRecordAttendance });

  it('given a started shift, when a manager (add-user-shifts) records attended, then its own times and their minutes', () => {
    decider
      .given([booked])
      .when(ask(SHIFTER, { note: 'Covered the till' }), AFTER)
      .then([recorded(1, { note: 'Covered the till' })]);
  });

  it('given a started shift, when a manager (manage-rotas) records attended with worked times, then those times and their real minutes', () => {
    decider
      .given([booked])
      .when(ask(BOSS, { start: new Date(at('2027-01-11 08:30')), end: new Date(at('2027-01-11 12:15')) }), AFTER)
      .then([recorded(2, { ...times('2027-01-11 08:30', '2027-01-11 12:15'), minutes: 225 })]);
  });

  it('given a started shift, when a manager records no_show, then the shift’s own times and 0 minutes (worked times ignored)', () => {
    decider
      .given([booked])
      .when(ask(SHIFTER, { status: 'no_show', start: new Date(at('2027-01-11 10:00')) }), AFTER)
      .then([recorded(1, { status: 'no_show', minutes: 0 })]);
  });

  it('given a shift that has not started, when a manager records, then 422 naming status', () => {
    decider.given([booked]).when(ask(SHIFTER), context('2027-01-11 08:59')).thenThrows(ValidationError, ['status']);
    decider
      .given([booked])
      .when(ask(SHIFTER, { status: 'no_show' }), context('2027-01-10 09:00'))
      .thenThrows(ValidationError, ['status']);
  });

  it('given a shift at its start, when a manager records, then it has started', () => {
    decider
      .given([booked])
      .when(ask(SHIFTER), context('2027-01-11 09:00'))
      .then([recorded(1)]);
  });

  it('given a record, when a manager clears it, then ShiftAttendanceCleared; given none, then nothing', () => {
    decider
      .given([booked, recorded(7)])
      .when(ask(SHIFTER, { status: null }), AFTER)
      .then([cleared]);
    decider
      .given([booked])
      .when(ask(SHIFTER, { status: null }), AFTER)
      .then([]);
    decider
      .given([booked, recorded(1), cleared])
      .when(ask(SHIFTER, { status: null }), AFTER)
      .then([]);
  });

  it('given a check-in before the start, when a manager clears it, then ShiftAttendanceCleared (a clear needs no start)', () => {
    decider
      .given([booked, recorded(7)])
      .when(ask(SHIFTER, { status: null }), context('2027-01-11 08:50'))
      .then([cleared]);
  });

  it('given the same record, when recorded again, then nothing; a different note, then recorded again', () => {
    decider
      .given([booked, recorded(1)])
      .when(ask(SHIFTER), AFTER)
      .then([]);
    decider
      .given([booked, recorded(1)])
      .when(ask(SHIFTER, { note: 'late bus' }), AFTER)
      .then([recorded(1, { note: 'late bus' })]);
  });

  it('given a volunteer’s record, when a manager changes it, then the manager’s record', () => {
    decider
      .given([booked, recorded(7)])
      .when(ask(SHIFTER, { status: 'no_show' }), AFTER)
      .then([recorded(1, { status: 'no_show', minutes: 0 })]);
  });

  it('given the volunteer’s own shift on a self_manage rota, when they check in from 15 minutes before its start until its end, then attended by them', () => {
    for (const now of ['2027-01-11 08:45', '2027-01-11 09:00', '2027-01-11 11:59'])
      decider
        .given([booked])
        .when(ask(VOLUNTEER), context(now))
        .then([recorded(7)]);
  });

  it('given the volunteer’s own shift, when they check in earlier than 15 minutes before or once it has ended, then 422 naming status', () => {
    for (const now of ['2027-01-11 08:44', '2027-01-11 12:00', '2027-01-11 13:00'])
      decider.given([booked]).when(ask(VOLUNTEER), context(now)).thenThrows(ValidationError, ['status']);
  });

  it('given the volunteer on hold, when they check in on their own shift, then attended (a hold stops bookings, not this record)', () => {
    decider
      .given([booked])
      .when(ask({ ...VOLUNTEER, onHold: true }), context('2027-01-11 09:00'))
      .then([recorded(7)]);
  });

  it('given their own check-in, when the volunteer records again with worked times, then their new record', () => {
    decider
      .given([booked, recorded(7)])
      .when(ask(VOLUNTEER, { start: new Date(at('2027-01-11 09:10')) }), context('2027-01-11 10:00'))
      .then([recorded(7, { ...times('2027-01-11 09:10', '2027-01-11 12:00'), minutes: 170 })]);
  });

  it('given the volunteer’s own shift, when they record no_show or clear, then 403', () => {
    decider
      .given([booked])
      .when(ask(VOLUNTEER, { status: 'no_show' }), context('2027-01-11 10:00'))
      .thenThrows(ForbiddenError);
    decider
      .given([booked, recorded(7)])
      .when(ask(VOLUNTEER, { status: null }), context('2027-01-11 10:00'))
      .thenThrows(ForbiddenError);
  });

  it('given a manager’s record, when the volunteer checks in, then 403', () => {
    decider
      .given([booked, recorded(1)])
      .when(ask(VOLUNTEER), context('2027-01-11 10:00'))
      .thenThrows(ForbiddenError);
  });

  it('given the volunteer’s own shift on a rota without self_manage, when they check in, then 403', () => {
    decider.given([booked]).when(ask(VOLUNTEER), context('2027-01-11 10:00', false)).thenThrows(ForbiddenError);
  });

  it('given another user’s shift, when a volunteer of the team records, then 403; a caller who does not see the rota, 403', () => {
    decider
      .given([booked])
      .when(ask(reach(8)), context('2027-01-11 10:00'))
      .thenThrows(ForbiddenError);
    decider
      .given([booked])
      .when(ask(reach(2, 'manages', [9])), AFTER)
      .thenThrows(ForbiddenError);
  });

  it('given a cancelled or unknown shift, then 404', () => {
    const cancelledShift: ShiftEvent = {
      type: 'rotas.ShiftCancelled',
      data: { ...ids, date: SHIFT.date, reason: 'cancelled', sequence: 1 },
    };
    decider.given([booked, cancelledShift]).when(ask(SHIFTER), AFTER).thenThrows(NotFoundError);
    decider.given([]).when(ask(SHIFTER), AFTER).thenThrows(NotFoundError);
  });

  it('given worked times more than 12 hours from the shift’s, then 422 naming each field; exactly 12 hours, allowed', () => {
    decider
      .given([booked])
      .when(ask(SHIFTER, { start: new Date(at('2027-01-10 20:59')) }), AFTER)
      .thenThrows(ValidationError, ['start_datetime']);
    decider
      .given([booked])
      .when(ask(SHIFTER, { end: new Date(at('2027-01-12 00:01')) }), AFTER)
      .thenThrows(ValidationError, ['end_datetime']);
    decider
      .given([booked])
      .when(ask(SHIFTER, { start: new Date(at('2027-01-10 20:59')), end: new Date(at('2027-01-12 00:01')) }), AFTER)
      .thenThrows(ValidationError, ['end_datetime', 'start_datetime']);
    decider
      .given([booked])
      .when(ask(SHIFTER, { start: new Date(at('2027-01-10 21:00')), end: new Date(at('2027-01-12 00:00')) }), AFTER)
      .then([recorded(1, { ...times('2027-01-10 21:00', '2027-01-12 00:00'), minutes: 27 * 60 })]);
  });

  it('given a worked end not after the worked start, then 422 naming end_datetime', () => {
    decider
      .given([booked])
      .when(ask(SHIFTER, { start: new Date(at('2027-01-11 10:00')), end: new Date(at('2027-01-11 10:00')) }), AFTER)
      .thenThrows(ValidationError, ['end_datetime']);
    decider
      .given([booked])
      .when(ask(SHIFTER, { start: new Date(at('2027-01-11 12:30')) }), AFTER)
      .thenThrows(ValidationError, ['end_datetime']);
  });

  it('given the autumn clock change, when worked 00:30–03:30 local, then 240 real minutes', () => {
    const night = times('2026-10-25 00:30', '2026-10-25 03:30');
    // 00:30 BST is 23:30 UTC the day before; 03:30 GMT is 03:30 UTC.
    const real = { ...night, start: '2026-10-24T23:30:00.000Z', end: '2026-10-25T03:30:00.000Z' };
    const nightShift: ShiftEvent = { type: 'rotas.ShiftBooked', data: { ...ids, teamId: 4, seriesId: null, ...real } };
    decider
      .given([nightShift])
      .when(ask(SHIFTER), { ...AFTER, now: Date.parse('2026-10-25T04:00:00Z') })
      .then([recorded(1, { ...real, minutes: 240 })]);
  });
});

describe('decideCancelShift with attendance (docs/rota-domain.md#attendance)', () => {
  const decider = testDecider({ evolve, decide: decideCancelShift });
  const ROTA = { id: 3, teamId: 4, selfManage: true } as BookingRota;

  it('given attendance recorded, when a manager cancels, then 409; once cleared, then cancelled', () => {
    decider
      .given([booked, recorded(1)])
      .when({ reach: SHIFTER }, { rota: ROTA, now: at('2027-01-11 13:00') })
      .thenThrows(ConflictError);
    decider
      .given([booked, recorded(1), cleared])
      .when({ reach: SHIFTER }, { rota: ROTA, now: at('2027-01-11 13:00') })
      .then([
        {
          type: 'rotas.ShiftCancelled',
          data: { ...ids, date: SHIFT.date, reason: 'cancelled', sequence: 1 },
        },
      ]);
  });
});
