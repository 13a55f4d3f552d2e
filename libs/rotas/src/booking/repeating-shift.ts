import type { RepeatingShiftEvent, SeriesWeekday } from '../rotas.events.js';

/** A series as its decisions see it (stream `rotas.RepeatingShift-<id>`). */
export interface SeriesState {
  readonly id: number;
  readonly organisationId: number;
  readonly userId: number;
  readonly rotaId: number;
  readonly teamId: number;
  readonly frequency: number;
  readonly weekdays: readonly SeriesWeekday[];
  readonly startDate: string;
  readonly endDate: string | null;
  readonly startTime: string;
  readonly endTime: string;
  readonly dayOffset: number;
  /** Times of day from a date on (a recurring edit): occurrences on or after `from` take them. */
  readonly retimed: readonly { from: string; startTime: string; endTime: string; dayOffset: number }[];
  readonly firstShiftId: number;
  readonly ignoreOnHold: boolean;
  readonly confirmRoleRestriction: boolean;
  readonly until: string;
  readonly generatedUntil: string;
  readonly ended: string | null;
  /** Dates never booked (RepeatingShiftStarted.exceptions: a split keeps the old series' exceptions). */
  readonly exceptions: readonly string[];
}

export function evolve(state: SeriesState | null, event: RepeatingShiftEvent): SeriesState | null {
  switch (event.type) {
    case 'rotas.RepeatingShiftStarted':
      return {
        ...event.data,
        retimed: [],
        generatedUntil: event.data.startDate,
        ended: null,
        exceptions: event.data.exceptions ?? [],
      };
    case 'rotas.RepeatingShiftExtended':
      return state && { ...state, until: event.data.until };
    case 'rotas.RepeatingShiftGenerated':
      return state && { ...state, generatedUntil: event.data.generatedUntil };
    case 'rotas.RepeatingShiftRetimed': {
      const { from, startTime, endTime, dayOffset } = event.data;
      return state && { ...state, retimed: [...state.retimed, { from, startTime, endTime, dayOffset }] };
    }
    case 'rotas.RepeatingShiftEnded':
      return state && { ...state, endDate: event.data.endDate, until: event.data.until, ended: event.data.reason };
  }
}

/** The times of day of an occurrence on `date`: the latest retiming from on or before it, else the series' own. */
export function timesOfDay(
  state: Pick<SeriesState, 'startTime' | 'endTime' | 'dayOffset' | 'retimed'>,
  date: string,
): { startTime: string; endTime: string; dayOffset: number } {
  let times = { startTime: state.startTime, endTime: state.endTime, dayOffset: state.dayOffset };
  for (const r of state.retimed)
    if (r.from <= date) times = { startTime: r.startTime, endTime: r.endTime, dayOffset: r.dayOffset };
  return times;
}

/** Occurrences still to book: the series has not been generated up to `until` (nor ended before it). */
export const generationPending = (s: Pick<SeriesState, 'generatedUntil' | 'until' | 'endDate'>): boolean =>
  s.generatedUntil < (s.endDate !== null && s.endDate < s.until ? s.endDate : s.until);
