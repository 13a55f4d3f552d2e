import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { ShiftEvent, ShiftTimesData } from '../rotas.events.js';

const timeColumns = (d: ShiftTimesData) => ({
  date: d.date,
  starts_at: d.start,
  ends_at: d.end,
  start_wall: d.startWall,
  end_wall: d.endWall,
});

/** Shifts, booked and cancelled, as the shift routes, the booking rules and the views read them. */
@AsProjection()
@Injectable()
export class ShiftsProjection extends defineProjection<ShiftEvent>({
  name: 'rotas.shifts',
  version: 1,
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
    'rotas.ShiftCancelled': ({ data: d, recordedAt: at }) => [
      op.update(
        'rota_shifts',
        { id: d.id },
        { status: 'cancelled', cancel_reason: d.reason, sequence: d.sequence, updated_at: at },
      ),
    ],
    // Filled by the attendance change (its columns and their migration come with it).
    'rotas.ShiftAttendanceRecorded': null,
    'rotas.ShiftAttendanceCleared': null,
  },
}) {}
