import { defineHistory, type HistoryChanges, userRef } from '#app/event-store';
import type { RotaTimeslot } from '../domain/weekly-timeslots.js';
import type { RotaEvent, RotaSettings, ShiftEvent, ShiftTimesData } from '../rotas.events.js';
import { timeslotView } from '../shift-pattern/shift-pattern.queries.js';

/**
 * What each event of a shift or a rota set on its record, with the record's field names and output
 * shapes (docs/rota-domain.md#history): a shift's times as the Shift shows them, its volunteer as a UserBase;
 * a rota's settings as the Rota shows them. What the Rota record does not hold (timeslots, closed
 * dates, contacts) is named as the routes that change it name it. Calendar bookkeeping the events
 * carry for the worker (`calendar`, `effectiveFrom`) is not a change anyone made, so it is left out.
 */

/** The record's name of each setting `PUT /api/rotas/{id}` changes. */
const SETTING_FIELDS: { readonly [K in keyof RotaSettings]: string } = {
  name: 'name',
  colour: 'colour',
  selfManage: 'self_manage',
  allowSameDayAdd: 'allow_same_day_add',
  allowSameDayCancel: 'allow_same_day_cancel',
  allowSameDayEdit: 'allow_same_day_edit',
  restrictedByRole: 'restricted_by_role',
  roleProfileIds: 'role_profiles',
  requireFullTimeslot: 'require_full_timeslot',
};

function settings(values: Partial<RotaSettings>): HistoryChanges {
  return Object.fromEntries(
    (Object.keys(SETTING_FIELDS) as (keyof RotaSettings)[])
      .filter((k) => values[k] !== undefined)
      // The Rota record lists role profiles ascending.
      .map((k) => [
        SETTING_FIELDS[k],
        k === 'roleProfileIds' ? [...values.roleProfileIds!].sort((a, b) => a - b) : values[k],
      ]),
  );
}

const times = (t: ShiftTimesData) => ({
  date: t.date,
  start_time: t.startWall.slice(11),
  start_datetime: t.startWall,
  end_time: t.endWall.slice(11),
  end_datetime: t.endWall,
});

const series = (seriesId: number | null) => (seriesId === null ? null : { id: seriesId });

const written = (w: { from: string; to: string | null; timeslots: RotaTimeslot[] }) => ({
  from: w.from,
  to: w.to,
  timeslots: w.timeslots.map(timeslotView),
});

export const SHIFT_HISTORY = defineHistory<ShiftEvent>({
  'rotas.ShiftBooked': ({ data: d }) => ({
    user: userRef(d.userId),
    rota_id: d.rotaId,
    ...times(d),
    recurrence_pattern: series(d.seriesId),
  }),
  'rotas.ShiftMoved': ({ data: d }) => times(d),
  'rotas.ShiftSeriesChanged': ({ data: d }) => ({ recurrence_pattern: series(d.seriesId) }),
  'rotas.ShiftCancelled': ({ data: d }) => ({ reason: d.reason }),
  'rotas.ShiftAttendanceRecorded': ({ data: d }) => ({
    attendance: {
      status: d.status,
      start_datetime: d.startWall,
      end_datetime: d.endWall,
      minutes: d.minutes,
      note: d.note,
      recorded_by: userRef(d.recordedBy),
    },
  }),
  'rotas.ShiftAttendanceCleared': () => ({ attendance: null }),
  // docs/rota-domain.md#stand-ins-and-take-overs: who asked is the entry's actor, `requested_by` whom it is recorded for.
  'rotas.ShiftStandInRequested': ({ data: d }) => ({
    stand_in: { requested_by: userRef(d.requestedBy), note: d.note },
  }),
  'rotas.ShiftStandInNoteChanged': ({ data: d }) => ({ stand_in: { note: d.note } }),
  'rotas.ShiftStandInWithdrawn': () => ({ stand_in: null }),
  'rotas.ShiftHandedOver': ({ data: d }) => ({
    user: userRef(d.toUserId),
    previous_user: userRef(d.fromUserId),
    handed_over_by: d.by,
    ...(d.swapId !== null && { swap_id: d.swapId }),
    ...(d.leftSeriesId !== null && { recurrence_pattern: null }),
    stand_in: null,
  }),
});

export const ROTA_HISTORY = defineHistory<RotaEvent>({
  'rotas.RotaCreated': ({ data: d }) => ({
    ...settings(d),
    start: d.startDate,
    end: d.endDate,
    team_id: d.teamId,
    pattern_id: d.patternId,
    timeslots: d.timeslots.map(timeslotView),
  }),
  'rotas.RotaChanged': ({ data: d }) => settings(d.changes),
  'rotas.RotaTimeslotsChanged': ({ data: d }) => written(d),
  'rotas.RotaPatternReplaced': ({ data: d }) => ({
    pattern_id: d.patternId,
    ...(d.name !== null && { name: d.name }),
    ...written(d),
  }),
  'rotas.RotaEnded': ({ data: d }) => ({
    end: d.endDate,
    reason: d.reason,
    ...(d.supersededBy !== null && { superseded_by: d.supersededBy }),
  }),
  'rotas.RotaClosed': ({ data: d }) => ({ dates: d.dates }),
  'rotas.RotaReopened': ({ data: d }) => ({ dates: d.dates }),
  'rotas.RotaArchived': () => ({ archived: true }),
  // As GET /api/rotas/{rota}/contacts shows a contact.
  'rotas.RotaContactAdded': ({ data: d }) => ({ contact: { id: d.id, user_id: d.userId, user: userRef(d.userId) } }),
  'rotas.RotaContactRemoved': ({ data: d }) => ({ contact: { id: d.id, user_id: d.userId, user: userRef(d.userId) } }),
});
