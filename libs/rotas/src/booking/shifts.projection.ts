import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { UserAnonymisedEvent } from '#app/identity';
import type { ShiftEvent, ShiftTimesData } from '../rotas.events.js';

const timeColumns = (d: ShiftTimesData) => ({
  date: d.date,
  starts_at: d.start,
  ends_at: d.end,
  start_wall: d.startWall,
  end_wall: d.endWall,
});

type AttendanceRecorded = Extract<ShiftEvent, { type: 'rotas.ShiftAttendanceRecorded' }>['data'];

/** A shift's attendance (docs/rota-domain.md#attendance), all null when none is recorded; a move leaves these alone. */
const attendanceColumns = (d: AttendanceRecorded | null, at: Date) => ({
  attendance_status: d?.status ?? null,
  attendance_starts_at: d?.start ?? null,
  attendance_ends_at: d?.end ?? null,
  attendance_start_wall: d?.startWall ?? null,
  attendance_end_wall: d?.endWall ?? null,
  attendance_minutes: d?.minutes ?? null,
  attendance_note: d?.note ?? null,
  attendance_recorded_by: d?.recordedBy ?? null,
  attendance_recorded_at: d ? at : null,
});

/** No open stand-in request (docs/rota-domain.md#stand-ins-and-take-overs). */
const noStandIn = {
  stand_in_requested_at: null,
  stand_in_requested_by: null,
  stand_in_note: null,
  stand_in_note_by: null,
};

/** Shifts, booked and cancelled, as the shift routes, the booking rules and the views read them. */
@AsProjection()
@Injectable()
export class ShiftsProjection extends defineProjection<ShiftEvent | UserAnonymisedEvent>({
  name: 'rotas.shifts',
  version: 3,
  tables: ['rota_shifts'],
  on: {
    'rotas.ShiftBooked': ({ data: d, recordedAt: at }) => [
      op.upsert('rota_shifts', ['id'], {
        id: d.id,
        organisation_id: d.organisationId,
        rota_id: d.rotaId,
        team_id: d.teamId,
        user_id: d.userId,
        series_id: d.seriesId,
        ...timeColumns(d),
        status: 'booked',
        cancel_reason: null,
        cancelled_at: null,
        sequence: 0,
        created_at: at,
        updated_at: at,
      }),
    ],
    'rotas.ShiftMoved': ({ data: d, recordedAt: at }) => [
      op.update('rota_shifts', { id: d.id }, { ...timeColumns(d), sequence: d.sequence, updated_at: at }),
    ],
    'rotas.ShiftSeriesChanged': ({ data: d, recordedAt: at }) => [
      op.update('rota_shifts', { id: d.id }, { series_id: d.seriesId, updated_at: at }),
    ],
    // docs/privacy.md#anonymising-a-user: attendance keeps its status and minutes, not its note.
    // The stand-in note is its writer's (rotas.personal-data.ts), whoever's shift it is on.
    'identity.UserAnonymised': ({ data: d }) => [
      op.update('rota_shifts', { user_id: d.userId }, { attendance_note: null }),
      op.update('rota_shifts', { stand_in_note_by: d.userId }, { stand_in_note: null }),
    ],
    'rotas.ShiftCancelled': ({ data: d, recordedAt: at }) => [
      op.update(
        'rota_shifts',
        { id: d.id },
        {
          status: 'cancelled',
          cancel_reason: d.reason,
          cancelled_at: at,
          sequence: d.sequence,
          ...noStandIn,
          updated_at: at,
        },
      ),
    ],
    'rotas.ShiftAttendanceRecorded': ({ data: d, recordedAt: at }) => [
      op.update('rota_shifts', { id: d.id }, { ...attendanceColumns(d, at), updated_at: at }),
    ],
    'rotas.ShiftAttendanceCleared': ({ data: d, recordedAt: at }) => [
      op.update('rota_shifts', { id: d.id }, { ...attendanceColumns(null, at), updated_at: at }),
    ],
    'rotas.ShiftStandInRequested': ({ data: d, recordedAt: at }) => [
      op.update(
        'rota_shifts',
        { id: d.id },
        {
          stand_in_requested_at: at,
          stand_in_requested_by: d.requestedBy,
          stand_in_note: d.note,
          stand_in_note_by: d.note === null ? null : d.requestedBy,
          updated_at: at,
        },
      ),
    ],
    'rotas.ShiftStandInNoteChanged': ({ data: d, recordedAt: at }) => [
      op.update(
        'rota_shifts',
        { id: d.id },
        { stand_in_note: d.note, stand_in_note_by: d.note === null ? null : d.writtenBy, updated_at: at },
      ),
    ],
    'rotas.ShiftStandInWithdrawn': ({ data: d, recordedAt: at }) => [
      op.update('rota_shifts', { id: d.id }, { ...noStandIn, updated_at: at }),
    ],
    'rotas.ShiftHandedOver': ({ data: d, recordedAt: at }) => [
      op.update(
        'rota_shifts',
        { id: d.id },
        { user_id: d.toUserId, series_id: null, sequence: d.sequence, ...noStandIn, updated_at: at },
      ),
    ],
  },
}) {}
