import { describe, expect, it } from '@jest/globals';
import { type StoredEvent, userActor } from '#app/event-store';
import type { RotaCalendarChange, RotasEvent } from '../rotas.events.js';
import { ROTA_HISTORY, SHIFT_HISTORY } from './rota-history.js';

const stored = <E extends RotasEvent>(event: E): StoredEvent => ({
  position: 1,
  transactionId: '1',
  eventId: 'e',
  streamId: 's',
  streamVersion: 1,
  schemaVersion: 1,
  metadata: { actor: userActor(1) },
  recordedAt: new Date(),
  ...event,
});
const times = {
  date: '2027-03-01',
  start: '2027-03-01T09:00:00.000Z',
  end: '2027-03-01T12:30:00.000Z',
  startWall: '2027-03-01 09:00',
  endWall: '2027-03-01 12:30',
};
const calendar: RotaCalendarChange = {
  id: 4,
  organisationId: 1,
  effectiveFrom: '2027-03-01',
  calendar: { startDate: '2027-01-04', endDate: null, archived: false, closedDates: [], timeline: [] as never },
};
const slot = {
  id: 70,
  weekday_start: 'monday',
  start_time: '09:00',
  weekday_end: 'monday',
  end_time: '17:00',
  min: 1,
  ideal: 2,
  max: 3,
} as const;
const slotShown = { ...slot, start_time: '09:00:00', end_time: '17:00:00' };

describe('rota and shift history formats (docs/rota-domain.md#history: record field names, output shapes)', () => {
  it('shows every shift event', () => {
    expect(SHIFT_HISTORY.types).toEqual([
      'rotas.ShiftBooked',
      'rotas.ShiftMoved',
      'rotas.ShiftSeriesChanged',
      'rotas.ShiftCancelled',
      'rotas.ShiftAttendanceRecorded',
      'rotas.ShiftAttendanceCleared',
      'rotas.ShiftStandInRequested',
      'rotas.ShiftStandInNoteChanged',
      'rotas.ShiftStandInWithdrawn',
      'rotas.ShiftHandedOver',
    ]);
  });

  it('given attendance recorded, then it as the Shift’s attendance shows it (recorded_by a user to resolve); given it cleared, null (docs/rota-domain.md#attendance)', () => {
    const ids = { id: 9, organisationId: 1, rotaId: 4, userId: 5 };
    expect(
      SHIFT_HISTORY.changes(
        stored({
          type: 'rotas.ShiftAttendanceRecorded',
          data: { ...ids, ...times, status: 'attended', minutes: 210, note: 'Late bus', recordedBy: 3 },
        }),
      ),
    ).toEqual({
      attendance: {
        status: 'attended',
        start_datetime: '2027-03-01 09:00',
        end_datetime: '2027-03-01 12:30',
        minutes: 210,
        note: 'Late bus',
        recorded_by: expect.objectContaining({ id: 3 }),
      },
    });
    expect(SHIFT_HISTORY.changes(stored({ type: 'rotas.ShiftAttendanceCleared', data: ids }))).toEqual({
      attendance: null,
    });
  });

  it('given a booking, then the shift’s volunteer (a user to resolve), rota, times as the Shift shows them and its series', () => {
    const changes = SHIFT_HISTORY.changes(
      stored({
        type: 'rotas.ShiftBooked',
        data: { ...times, id: 9, organisationId: 1, rotaId: 4, teamId: 2, userId: 5, seriesId: 8 },
      }),
    );
    expect(changes).toEqual({
      user: expect.objectContaining({ id: 5 }),
      rota_id: 4,
      date: '2027-03-01',
      start_time: '09:00',
      start_datetime: '2027-03-01 09:00',
      end_time: '12:30',
      end_datetime: '2027-03-01 12:30',
      recurrence_pattern: { id: 8 },
    });
  });

  it('given a move, then the new date and times only; given a series change, the series; given a cancellation, its reason', () => {
    const moved = { ...times, date: '2027-03-02', startWall: '2027-03-02 22:00', endWall: '2027-03-03 02:00' };
    expect(
      SHIFT_HISTORY.changes(
        stored({
          type: 'rotas.ShiftMoved',
          data: { ...moved, id: 9, organisationId: 1, rotaId: 4, userId: 5, sequence: 1, was: times },
        }),
      ),
    ).toEqual({
      date: '2027-03-02',
      start_time: '22:00',
      start_datetime: '2027-03-02 22:00',
      end_time: '02:00',
      end_datetime: '2027-03-03 02:00',
    });
    expect(
      SHIFT_HISTORY.changes(
        stored({ type: 'rotas.ShiftSeriesChanged', data: { id: 9, organisationId: 1, seriesId: null } }),
      ),
    ).toEqual({ recurrence_pattern: null });
    expect(
      SHIFT_HISTORY.changes(
        stored({
          type: 'rotas.ShiftCancelled',
          data: {
            id: 9,
            organisationId: 1,
            rotaId: 4,
            userId: 5,
            date: '2027-03-01',
            reason: 'rota_closed',
            sequence: 2,
          },
        }),
      ),
    ).toEqual({ reason: 'rota_closed' });
  });

  it('given a stand-in asked, the note changed, withdrawn, then stand_in as the Shift shows it; a take-over, the new user, the previous one and stand_in null', () => {
    const ids = { id: 9, organisationId: 1, rotaId: 4, userId: 5, date: '2027-03-01' };
    expect(
      SHIFT_HISTORY.changes(
        stored({ type: 'rotas.ShiftStandInRequested', data: { ...ids, requestedBy: 3, note: 'Ill' } }),
      ),
    ).toEqual({ stand_in: { requested_by: expect.objectContaining({ id: 3 }), note: 'Ill' } });
    expect(
      SHIFT_HISTORY.changes(
        stored({ type: 'rotas.ShiftStandInNoteChanged', data: { id: 9, organisationId: 1, writtenBy: 5, note: null } }),
      ),
    ).toEqual({ stand_in: { note: null } });
    expect(SHIFT_HISTORY.changes(stored({ type: 'rotas.ShiftStandInWithdrawn', data: ids }))).toEqual({
      stand_in: null,
    });
    expect(
      SHIFT_HISTORY.changes(
        stored({
          type: 'rotas.ShiftHandedOver',
          data: {
            id: 9,
            organisationId: 1,
            rotaId: 4,
            date: '2027-03-01',
            fromUserId: 5,
            toUserId: 6,
            by: 'take_over',
            swapId: null,
            leftSeriesId: 8,
            sequence: 1,
          },
        }),
      ),
    ).toEqual({
      user: expect.objectContaining({ id: 6 }),
      previous_user: expect.objectContaining({ id: 5 }),
      handed_over_by: 'take_over',
      recurrence_pattern: null,
      stand_in: null,
    });
  });

  it('given a rota created, then its settings, dates, team, pattern and timeslots as the Rota and pattern records show them', () => {
    const changes = ROTA_HISTORY.changes(
      stored({
        type: 'rotas.RotaCreated',
        data: {
          id: 4,
          organisationId: 1,
          teamId: 2,
          patternId: 3,
          startDate: '2027-01-04',
          endDate: null,
          timeslots: [slot],
          name: 'Shop',
          colour: '#112233',
          selfManage: true,
          allowSameDayAdd: false,
          allowSameDayCancel: true,
          allowSameDayEdit: false,
          restrictedByRole: true,
          roleProfileIds: [9, 3],
          requireFullTimeslot: false,
        },
      }),
    );
    expect(changes).toEqual({
      name: 'Shop',
      colour: '#112233',
      self_manage: true,
      allow_same_day_add: false,
      allow_same_day_cancel: true,
      allow_same_day_edit: false,
      restricted_by_role: true,
      role_profiles: [3, 9],
      require_full_timeslot: false,
      start: '2027-01-04',
      end: null,
      team_id: 2,
      pattern_id: 3,
      timeslots: [slotShown],
    });
  });

  it('given a change, then only the settings it changed, by the record’s names', () => {
    expect(
      ROTA_HISTORY.changes(
        stored({
          type: 'rotas.RotaChanged',
          data: { id: 4, organisationId: 1, changes: { name: 'Cafe', allowSameDayEdit: true } },
        }),
      ),
    ).toEqual({
      name: 'Cafe',
      allow_same_day_edit: true,
    });
  });

  it('given calendar changes, then what the change set, never the worker’s calendar bookkeeping', () => {
    const write = { ...calendar, from: '2027-03-01', to: null, timeslots: [slot] };
    expect(ROTA_HISTORY.changes(stored({ type: 'rotas.RotaTimeslotsChanged', data: write }))).toEqual({
      from: '2027-03-01',
      to: null,
      timeslots: [slotShown],
    });
    expect(
      ROTA_HISTORY.changes(stored({ type: 'rotas.RotaPatternReplaced', data: { ...write, patternId: 6, name: null } })),
    ).toEqual({ pattern_id: 6, from: '2027-03-01', to: null, timeslots: [slotShown] });
    expect(
      ROTA_HISTORY.changes(
        stored({
          type: 'rotas.RotaEnded',
          data: { ...calendar, endDate: '2027-06-30', reason: 'superseded', supersededBy: 12 },
        }),
      ),
    ).toEqual({
      end: '2027-06-30',
      reason: 'superseded',
      superseded_by: 12,
    });
    expect(
      ROTA_HISTORY.changes(stored({ type: 'rotas.RotaClosed', data: { ...calendar, dates: ['2027-03-05'] } })),
    ).toEqual({ dates: ['2027-03-05'] });
    expect(
      ROTA_HISTORY.changes(
        stored({
          type: 'rotas.RotaReopened',
          data: { id: 4, organisationId: 1, dates: ['2027-03-05'], closedDates: [] },
        }),
      ),
    ).toEqual({ dates: ['2027-03-05'] });
    expect(ROTA_HISTORY.changes(stored({ type: 'rotas.RotaArchived', data: calendar }))).toEqual({ archived: true });
  });

  it('given a contact added or removed, then the contact as the contacts list shows it', () => {
    expect(
      ROTA_HISTORY.changes(
        stored({ type: 'rotas.RotaContactAdded', data: { id: 31, organisationId: 1, rotaId: 4, userId: 5 } }),
      ),
    ).toEqual({
      contact: { id: 31, user_id: 5, user: expect.objectContaining({ id: 5 }) },
    });
  });
});
