import { describe, expect, it } from '@jest/globals';
import { op, type StoredEvent } from '#app/event-store';
import type { RotaEvent } from '../rotas.events.js';
import { RotasProjection } from './rotas.projection.js';

const at = new Date('2027-01-01T10:00:00Z');
const stored = (event: RotaEvent): StoredEvent => ({
  position: 1,
  transactionId: '1',
  eventId: 'e',
  streamId: 's',
  streamVersion: 1,
  type: event.type,
  schemaVersion: 1,
  data: event.data,
  metadata: {},
  recordedAt: at,
});

describe('the rotas projection', () => {
  const projection = new RotasProjection();

  it('writes a created rota as one row of the table’s columns only (its settings among the event’s other fields)', () => {
    const slot = {
      id: 9,
      weekday_start: 'monday',
      start_time: '09:00',
      weekday_end: 'monday',
      end_time: '12:00',
      min: 1,
      ideal: 2,
      max: 3,
    } as const;
    const created: RotaEvent = {
      type: 'rotas.RotaCreated',
      data: {
        id: 5,
        organisationId: 1,
        teamId: 10,
        patternId: 3,
        name: 'Mornings',
        colour: '#123456',
        selfManage: true,
        allowSameDayAdd: true,
        allowSameDayCancel: false,
        allowSameDayEdit: false,
        restrictedByRole: true,
        roleProfileIds: [20],
        requireFullTimeslot: false,
        startDate: '2027-01-04',
        endDate: null,
        timeslots: [slot],
      },
    };
    expect(projection.project(stored(created))).toEqual([
      op.upsert('rotas', ['id'], {
        id: 5,
        organisation_id: 1,
        team_id: 10,
        pattern_id: 3,
        name: 'Mornings',
        colour: '#123456',
        self_manage: true,
        allow_same_day_add: true,
        allow_same_day_cancel: false,
        allow_same_day_edit: false,
        restricted_by_role: true,
        role_profile_ids: [20],
        require_full_timeslot: false,
        start_date: '2027-01-04',
        end_date: null,
        archived: false,
        closed_dates: [],
        timeline: [{ from: '2027-01-04', to: null, timeslots: [slot] }],
        created_at: at,
        updated_at: at,
      }),
    ]);
  });

  it('writes only the settings a change carries', () => {
    const changed: RotaEvent = {
      type: 'rotas.RotaChanged',
      data: { id: 5, organisationId: 1, changes: { name: 'Evenings', roleProfileIds: [] } },
    };
    expect(projection.project(stored(changed))).toEqual([
      op.update('rotas', { id: 5 }, { name: 'Evenings', role_profile_ids: [], updated_at: at }),
    ]);
  });
});
