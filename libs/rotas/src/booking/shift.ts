import type { AttendanceStatus, ShiftCancelReason, ShiftEvent, ShiftTimesData } from '../rotas.events.js';

/** What was recorded of a shift's attendance (docs/rota-domain.md#attendance). */
export interface AttendanceState extends ShiftTimesData {
  readonly status: AttendanceStatus;
  readonly minutes: number;
  readonly note: string | null;
  readonly recordedBy: number;
}

/** A shift as its decisions see it (stream `rotas.Shift-<id>`). */
export interface ShiftState extends ShiftTimesData {
  readonly id: number;
  readonly organisationId: number;
  readonly rotaId: number;
  readonly teamId: number;
  readonly userId: number;
  readonly seriesId: number | null;
  readonly cancelled: ShiftCancelReason | null;
  /** Changes so far (the iCalendar SEQUENCE). */
  readonly sequence: number;
  /** Null until recorded, and again once cleared. */
  readonly attendance: AttendanceState | null;
  /** An open stand-in request (docs/rota-domain.md#stand-ins-and-take-overs), else null. */
  readonly standIn: StandInState | null;
}

/** Who asked for a stand-in, and the note as it stands. */
export interface StandInState {
  readonly requestedBy: number;
  readonly note: string | null;
}

export function evolve(state: ShiftState | null, event: ShiftEvent): ShiftState | null {
  switch (event.type) {
    case 'rotas.ShiftBooked':
      return { ...event.data, cancelled: null, sequence: 0, attendance: null, standIn: null };
    case 'rotas.ShiftMoved': {
      const { date, start, end, startWall, endWall, sequence } = event.data;
      return state && { ...state, date, start, end, startWall, endWall, sequence };
    }
    case 'rotas.ShiftSeriesChanged':
      return state && { ...state, seriesId: event.data.seriesId };
    case 'rotas.ShiftCancelled':
      // A cancelled shift looks for no one.
      return state && { ...state, cancelled: event.data.reason, sequence: event.data.sequence, standIn: null };
    case 'rotas.ShiftAttendanceRecorded': {
      const { id: _id, organisationId: _o, rotaId: _r, userId: _u, ...attendance } = event.data;
      return state && { ...state, attendance };
    }
    case 'rotas.ShiftAttendanceCleared':
      return state && { ...state, attendance: null };
    case 'rotas.ShiftStandInRequested':
      return state && { ...state, standIn: { requestedBy: event.data.requestedBy, note: event.data.note } };
    case 'rotas.ShiftStandInNoteChanged':
      return state && { ...state, standIn: state.standIn && { ...state.standIn, note: event.data.note } };
    case 'rotas.ShiftStandInWithdrawn':
      return state && { ...state, standIn: null };
    case 'rotas.ShiftHandedOver': {
      const { toUserId, sequence } = event.data;
      return state && { ...state, userId: toUserId, seriesId: null, standIn: null, sequence };
    }
  }
}

/** The times part of a state, as events carry it. */
export const timesOf = (s: ShiftTimesData): ShiftTimesData => ({
  date: s.date,
  start: s.start,
  end: s.end,
  startWall: s.startWall,
  endWall: s.endWall,
});
