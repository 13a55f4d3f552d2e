import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { RepeatingShiftEvent } from '../rotas.events.js';

/**
 * Series and their skipped occurrences. `until` is capped at the series' end, so
 * `generated_until < until` is exactly "generation pending" (the views' data_ready).
 */
@AsProjection()
@Injectable()
export class RepeatingShiftsProjection extends defineProjection<RepeatingShiftEvent>({
  name: 'rotas.repeating-shifts',
  version: 1,
  tables: ['rota_repeating_shifts', 'rota_series_skips'],
  on: {
    'rotas.RepeatingShiftStarted': ({ data: d, recordedAt: at }) => [
      op.upsert('rota_repeating_shifts', ['id'], {
        id: d.id,
        organisation_id: d.organisationId,
        user_id: d.userId,
        rota_id: d.rotaId,
        team_id: d.teamId,
        frequency: d.frequency,
        weekdays: d.weekdays,
        start_date: d.startDate,
        end_date: d.endDate,
        start_time: d.startTime,
        end_time: d.endTime,
        day_offset: d.dayOffset,
        ignore_on_hold: d.ignoreOnHold,
        confirm_role_restriction: d.confirmRoleRestriction,
        until: d.endDate !== null && d.endDate < d.until ? d.endDate : d.until,
        generated_until: d.startDate,
        ended_reason: null,
        created_at: at,
        updated_at: at,
      }),
    ],
    'rotas.RepeatingShiftExtended': ({ data: d, recordedAt: at }) => [
      op.update('rota_repeating_shifts', { id: d.id }, { until: d.until, updated_at: at }),
    ],
    'rotas.RepeatingShiftGenerated': ({ data: d, recordedAt: at }) => [
      op.update('rota_repeating_shifts', { id: d.id }, { generated_until: d.generatedUntil, updated_at: at }),
      ...d.skipped.map((s) =>
        op.upsert('rota_series_skips', ['series_id', 'date'], {
          series_id: d.id,
          date: s.date,
          organisation_id: d.organisationId,
          reason: s.reason,
        }),
      ),
    ],
    'rotas.RepeatingShiftRetimed': ({ data: d, recordedAt: at }) => [
      op.update('rota_repeating_shifts', { id: d.id }, { updated_at: at }),
    ],
    // An ended series generates nothing more: `until` comes down to its end, so nothing is pending past it.
    'rotas.RepeatingShiftEnded': ({ data: d, recordedAt: at }) => [
      op.update(
        'rota_repeating_shifts',
        { id: d.id },
        { end_date: d.endDate, until: d.until, ended_reason: d.reason, updated_at: at },
      ),
    ],
  },
}) {}
