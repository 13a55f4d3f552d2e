import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { ShiftPatternEvent } from '../rotas.events.js';

/**
 * Shift patterns as the API lists them (`shift_patterns`): the pattern's numbers and category, its
 * timeslots as JSON (each with its id, in week order), and its stamps from the log: `created_at`
 * and `updated_at` when it was made, `deleted_at` (and `updated_at`) when it was archived.
 */
@AsProjection()
@Injectable()
export class ShiftPatternsProjection extends defineProjection<ShiftPatternEvent>({
  name: 'rotas.shift-patterns',
  version: 1,
  tables: ['shift_patterns'],
  on: {
    'rotas.ShiftPatternCreated': ({ data: d, recordedAt: at }) => [
      op.upsert('shift_patterns', ['id'], {
        id: d.id,
        organisation_id: d.organisationId,
        name: d.name,
        min: d.min,
        ideal: d.ideal,
        max: d.max,
        category_id: d.categoryId,
        timeslots: d.timeslots,
        created_at: at,
        updated_at: at,
        deleted_at: null,
      }),
    ],
    'rotas.ShiftPatternArchived': ({ data: d, recordedAt: at }) => [
      op.update('shift_patterns', { id: d.id }, { deleted_at: at, updated_at: at }),
    ],
  },
}) {}
