import type { UserAnonymisedEvent } from '#app/identity';
import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { RotaCalendarData, RotaEvent, RotaSettings } from '../rotas.events.js';

const COLUMNS: Record<keyof RotaSettings, string> = {
  name: 'name',
  colour: 'colour',
  selfManage: 'self_manage',
  allowSameDayAdd: 'allow_same_day_add',
  allowSameDayCancel: 'allow_same_day_cancel',
  allowSameDayEdit: 'allow_same_day_edit',
  restrictedByRole: 'restricted_by_role',
  roleProfileIds: 'role_profile_ids',
  requireFullTimeslot: 'require_full_timeslot',
};

/**
 * Settings as columns (the ops writer sends jsonb values as JSON itself). Only the settings' keys:
 * RotaCreated's data holds the settings among its other fields.
 */
function settingsColumns(changes: Partial<RotaSettings>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(COLUMNS) as [keyof RotaSettings, string][]) {
    if (changes[key] !== undefined) row[column] = changes[key];
  }
  return row;
}

const calendarColumns = (c: RotaCalendarData) => ({
  start_date: c.startDate,
  end_date: c.endDate,
  archived: c.archived,
  closed_dates: c.closedDates,
  timeline: c.timeline,
});

/** Rotas and their contacts, as the administration routes and the views read them. */
@AsProjection()
@Injectable()
export class RotasProjection extends defineProjection<RotaEvent | UserAnonymisedEvent>({
  name: 'rotas.rotas',
  version: 1,
  tables: ['rotas', 'rota_contacts'],
  on: {
    'rotas.RotaCreated': ({ data: d, recordedAt: at }) => [
      op.upsert('rotas', ['id'], {
        id: d.id,
        organisation_id: d.organisationId,
        team_id: d.teamId,
        pattern_id: d.patternId,
        ...settingsColumns(d),
        ...calendarColumns({
          startDate: d.startDate,
          endDate: d.endDate,
          archived: false,
          closedDates: [],
          timeline: [{ from: d.startDate, to: null, timeslots: d.timeslots }],
        }),
        created_at: at,
        updated_at: at,
      }),
    ],
    'rotas.RotaChanged': ({ data: d, recordedAt: at }) => [
      op.update('rotas', { id: d.id }, { ...settingsColumns(d.changes), updated_at: at }),
    ],
    'rotas.RotaTimeslotsChanged': ({ data: d, recordedAt: at }) => [
      op.update('rotas', { id: d.id }, { ...calendarColumns(d.calendar), updated_at: at }),
    ],
    'rotas.RotaPatternReplaced': ({ data: d, recordedAt: at }) => [
      op.update(
        'rotas',
        { id: d.id },
        {
          ...calendarColumns(d.calendar),
          pattern_id: d.patternId,
          ...(d.name === null ? {} : { name: d.name }),
          updated_at: at,
        },
      ),
    ],
    'rotas.RotaEnded': ({ data: d, recordedAt: at }) => [
      op.update('rotas', { id: d.id }, { ...calendarColumns(d.calendar), updated_at: at }),
    ],
    'rotas.RotaClosed': ({ data: d, recordedAt: at }) => [
      op.update('rotas', { id: d.id }, { ...calendarColumns(d.calendar), updated_at: at }),
    ],
    'rotas.RotaReopened': ({ data: d, recordedAt: at }) => [
      op.update('rotas', { id: d.id }, { closed_dates: d.closedDates, updated_at: at }),
    ],
    'rotas.RotaArchived': ({ data: d, recordedAt: at }) => [
      op.update('rotas', { id: d.id }, { ...calendarColumns(d.calendar), updated_at: at }),
    ],
    'rotas.RotaContactAdded': ({ data: d, recordedAt: at }) => [
      op.upsert('rota_contacts', ['id'], {
        id: d.id,
        organisation_id: d.organisationId,
        rota_id: d.rotaId,
        user_id: d.userId,
        created_at: at,
      }),
    ],
    'rotas.RotaContactRemoved': ({ data: d }) => [op.delete('rota_contacts', { id: d.id })],
    // docs/privacy.md#anonymising-a-user: an anonymised user is no longer a contact of any rota.
    'identity.UserAnonymised': ({ data: d }) => [op.delete('rota_contacts', { user_id: d.userId })],
  },
}) {}
