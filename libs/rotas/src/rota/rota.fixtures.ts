import type { RotaTimeslot } from '../domain/weekly-timeslots.js';
import type { RotaEvent } from '../rotas.events.js';
import { calendarData, type RotaState } from './rota.js';

/** Test data for the rota specs (not used by the service). */

/** A Monday timeslot, 09:00–17:00 unless given. */
export const mondaySlot = (start_time = '09:00', end_time = '17:00', id = 1): RotaTimeslot => ({
  id,
  weekday_start: 'monday',
  start_time,
  weekday_end: 'monday',
  end_time,
  min: 1,
  ideal: 2,
  max: 3,
});

/** Rota 7 of organisation 1 and team 3, from 1 November 2026 with no end, open on Mondays 09:00–17:00. */
export const rotaSeven = (over: Partial<RotaState> = {}): RotaState => ({
  id: 7,
  organisationId: 1,
  teamId: 3,
  patternId: 1,
  startDate: '2026-11-01',
  endDate: null,
  archived: false,
  closedDates: [],
  timeline: [{ from: '2026-11-01', to: null, timeslots: [mondaySlot()] }],
  contacts: new Map(),
  name: 'Shop',
  colour: '#112233',
  selfManage: false,
  allowSameDayAdd: false,
  allowSameDayCancel: false,
  allowSameDayEdit: false,
  restrictedByRole: false,
  roleProfileIds: [],
  requireFullTimeslot: false,
  ...over,
});

/** Rota 7 closed on `date`, from `rota` (rotaSeven unless given). */
export const rotaSevenClosedOn = (date: string, rota: RotaState = rotaSeven()): RotaEvent => ({
  type: 'rotas.RotaClosed',
  data: {
    id: 7,
    organisationId: 1,
    effectiveFrom: date,
    dates: [date],
    calendar: calendarData({ ...rota, closedDates: [date] }),
  },
});
