import { type FieldErrors, ForbiddenError, NotFoundError, ValidationError } from '#app/platform';
import type { AttendanceStatus, ShiftEvent, ShiftTimesData } from '../rotas.events.js';
import { type CallerReach, isManager } from '../rotas.policy.js';
import { type AttendanceState, type ShiftState, timesOf } from './shift.js';
import { realMinutes, timesData } from './shift-times.js';

/** docs/rota-domain.md#attendance: how far worked times may lie from the shift's own, and how early a check-in opens. */
const MAX_SHIFT_MS = 12 * 60 * 60_000;
const CHECK_IN_EARLY_MS = 15 * 60_000;
export const ATTENDANCE_NOTE_MAX = 1000;

/** `PUT /api/rota/shifts/{id}/attendance`, its body's shape checked and its times parsed. */
export interface RecordAttendance {
  readonly reach: CallerReach;
  /** null clears what was recorded. */
  readonly status: AttendanceStatus | null;
  /** The worked times as sent (with `attended` only); absent: the shift's own. */
  readonly start?: Date;
  readonly end?: Date;
  readonly note: string | null;
}

export interface AttendanceContext {
  readonly rota: { readonly teamId: number; readonly selfManage: boolean };
  readonly zone: string;
  /** Epoch ms. */
  readonly now: number;
}

/**
 * docs/rota-domain.md#attendance. A cancelled (or unknown) shift is a 404. Access: a rota the caller
 * does not see, 403; a manager of the rota may record, change or clear anything; the shift's own
 * volunteer, on a self_manage rota only, may record `attended` (a check-in), never `no_show`, a
 * clear, or a change of what someone else recorded (403); anyone else 403. Then the rules: a manager
 * records on a shift that has started, a volunteer checks in from 15 minutes before its start until
 * it ends (422 naming `status`); the worked times lie within 12 real hours of the shift's own, the
 * end after the start (422 naming the field). The same record again, or a clear of nothing, is `[]`.
 */
export function decideRecordAttendance(
  state: ShiftState | null,
  command: RecordAttendance,
  context: AttendanceContext,
): ShiftEvent[] {
  if (!state || state.cancelled) throw new NotFoundError('Shift');
  const { reach, status } = command;
  const { rota, now } = context;
  if (!reach.seen.has(rota.teamId)) throw new ForbiddenError('You cannot see this shift’s rota.');
  const manager = isManager(reach, rota.teamId);
  if (!manager) checkVolunteer(state, command, rota);

  const ids = { id: state.id, organisationId: state.organisationId, rotaId: state.rotaId, userId: state.userId };
  if (status === null) return state.attendance ? [{ type: 'rotas.ShiftAttendanceCleared', data: ids }] : [];

  const [start, end] = [Date.parse(state.start), Date.parse(state.end)];
  if (manager && now < start)
    throw new ValidationError({ status: ['The shift has not started: attendance is recorded once it has.'] });
  if (!manager && (now < start - CHECK_IN_EARLY_MS || now >= end)) {
    throw new ValidationError({
      status: ['A check-in is open from 15 minutes before the shift starts until it ends.'],
    });
  }
  const times = status === 'no_show' ? timesOf(state) : workedTimes(state, command, context.zone);
  const attendance: AttendanceState = {
    ...times,
    status,
    minutes: status === 'no_show' ? 0 : realMinutes(times.start, times.end),
    note: command.note,
    recordedBy: reach.userId,
  };
  if (state.attendance && sameAttendance(state.attendance, attendance)) return [];
  return [{ type: 'rotas.ShiftAttendanceRecorded', data: { ...ids, ...attendance } }];
}

/**
 * What a volunteer may do on their own shift (docs/rota-domain.md#attendance): 403 otherwise. Being on
 * hold does not matter: a hold stops new bookings, not the record of a shift already booked.
 */
function checkVolunteer(state: ShiftState, command: RecordAttendance, rota: AttendanceContext['rota']): void {
  if (state.userId !== command.reach.userId)
    throw new ForbiddenError("Only a manager of this rota may record attendance of another user's shift.");
  if (!rota.selfManage)
    throw new ForbiddenError('This rota is not self-managed: only a manager may record attendance on it.');
  if (command.status !== 'attended')
    throw new ForbiddenError('A volunteer may only check in (attended); a manager records a no_show or clears one.');
  if (state.attendance && state.attendance.recordedBy !== state.userId)
    throw new ForbiddenError('A manager recorded this attendance: only a manager may change it.');
}

/** The worked times, each defaulting to the shift's own, within 12 real hours of them, the end after the start. */
function workedTimes(state: ShiftState, command: RecordAttendance, zone: string): ShiftTimesData {
  const [shiftStart, shiftEnd] = [Date.parse(state.start), Date.parse(state.end)];
  const start = command.start?.getTime() ?? shiftStart;
  const end = command.end?.getTime() ?? shiftEnd;
  const errors: FieldErrors = {};
  if (Math.abs(start - shiftStart) > MAX_SHIFT_MS)
    errors.start_datetime = ['The start_datetime must be within 12 hours of the shift’s start.'];
  if (Math.abs(end - shiftEnd) > MAX_SHIFT_MS)
    errors.end_datetime = ['The end_datetime must be within 12 hours of the shift’s end.'];
  else if (end <= start) errors.end_datetime = ['The end_datetime field must be after the start_datetime.'];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return timesData(new Date(start), new Date(end), zone);
}

const sameAttendance = (a: AttendanceState, b: AttendanceState) =>
  a.status === b.status && a.start === b.start && a.end === b.end && a.note === b.note && a.recordedBy === b.recordedBy;
