import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import { realMinutes } from '../booking/shift-times.js';
import type { ShiftEvent, ShiftTimesData } from '../rotas.events.js';

const TABLE = 'rota_volunteer_hours';

const timeColumns = (d: ShiftTimesData) => ({
  date: d.date,
  starts_at: d.start,
  booked_minutes: realMinutes(d.start, d.end),
});

/**
 * The volunteer hours report's read model (docs/rota-domain.md#volunteer-hours): one row per booked
 * shift, deleted when it is cancelled. A rota keeps its team for life (no rota event changes it), so
 * the booking's teamId stays right.
 */
@AsProjection()
@Injectable()
export class VolunteerHoursProjection extends defineProjection<ShiftEvent>({
  name: 'rotas.volunteer-hours',
  version: 1,
  tables: [TABLE],
  on: {
    'rotas.ShiftBooked': ({ data: d }) => [
      op.upsert(TABLE, ['shift_id'], {
        shift_id: d.id,
        organisation_id: d.organisationId,
        team_id: d.teamId,
        rota_id: d.rotaId,
        user_id: d.userId,
        ...timeColumns(d),
        attendance_status: null,
        attended_minutes: null,
      }),
    ],
    // A move keeps what was recorded (its worked times do not move); only the booked times change.
    'rotas.ShiftMoved': ({ data: d }) => [op.update(TABLE, { shift_id: d.id }, timeColumns(d))],
    'rotas.ShiftSeriesChanged': null,
    'rotas.ShiftCancelled': ({ data: d }) => [op.delete(TABLE, { shift_id: d.id })],
    'rotas.ShiftAttendanceRecorded': ({ data: d }) => [
      op.update(
        TABLE,
        { shift_id: d.id },
        { attendance_status: d.status, attended_minutes: d.status === 'attended' ? d.minutes : 0 },
      ),
    ],
    'rotas.ShiftAttendanceCleared': ({ data: d }) => [
      op.update(TABLE, { shift_id: d.id }, { attendance_status: null, attended_minutes: null }),
    ],
    // A stand-in request leaves the shift its volunteer's; a hand-over makes it the taker's.
    'rotas.ShiftStandInRequested': null,
    'rotas.ShiftStandInNoteChanged': null,
    'rotas.ShiftStandInWithdrawn': null,
    'rotas.ShiftHandedOver': ({ data: d }) => [op.update(TABLE, { shift_id: d.id }, { user_id: d.toUserId })],
  },
}) {}
