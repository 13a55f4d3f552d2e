import type { RotaCalendar } from '../domain/rota-calendar.js';
import type { Timeline } from '../domain/timeslot-timeline.js';
import type { RotaCalendarData, RotaEvent, RotaSettings } from '../rotas.events.js';

/**
 * A rota as its decisions see it: its settings, its calendar (dates, timeline, closures) and its
 * contacts (user id → contact id). One stream per rota (`rotas.Rota-<id>`).
 */
export interface RotaState extends RotaSettings {
  readonly id: number;
  readonly organisationId: number;
  readonly teamId: number;
  readonly patternId: number;
  readonly startDate: string;
  readonly endDate: string | null;
  readonly archived: boolean;
  readonly closedDates: readonly string[];
  readonly timeline: Timeline;
  readonly contacts: ReadonlyMap<number, number>;
}

const withCalendar = (state: RotaState, c: RotaCalendarData): RotaState => ({
  ...state,
  startDate: c.startDate,
  endDate: c.endDate,
  archived: c.archived,
  closedDates: c.closedDates,
  timeline: c.timeline,
});

export function evolve(state: RotaState | null, event: RotaEvent): RotaState | null {
  switch (event.type) {
    case 'rotas.RotaCreated': {
      const { timeslots, ...d } = event.data;
      return {
        ...d,
        archived: false,
        closedDates: [],
        timeline: [{ from: d.startDate, to: null, timeslots }],
        contacts: new Map(),
      };
    }
    case 'rotas.RotaChanged':
      return state && { ...state, ...event.data.changes };
    case 'rotas.RotaTimeslotsChanged':
    case 'rotas.RotaEnded':
    case 'rotas.RotaClosed':
    case 'rotas.RotaArchived':
      return state && withCalendar(state, event.data.calendar);
    case 'rotas.RotaPatternReplaced': {
      if (!state) return null;
      const d = event.data;
      return { ...withCalendar(state, d.calendar), patternId: d.patternId, name: d.name ?? state.name };
    }
    case 'rotas.RotaReopened':
      return state && { ...state, closedDates: event.data.closedDates };
    case 'rotas.RotaContactAdded':
      return state && { ...state, contacts: new Map([...state.contacts, [event.data.userId, event.data.id]]) };
    case 'rotas.RotaContactRemoved': {
      if (!state) return null;
      const contacts = new Map(state.contacts);
      contacts.delete(event.data.userId);
      return { ...state, contacts };
    }
  }
}

/** The calendar part of a state, as the events carry it. */
export const calendarData = (
  state: Pick<RotaState, 'startDate' | 'endDate' | 'archived' | 'closedDates' | 'timeline'>,
): RotaCalendarData => ({
  startDate: state.startDate,
  endDate: state.endDate,
  archived: state.archived,
  closedDates: [...state.closedDates].sort(),
  timeline: state.timeline,
});

/** The pure calendar functions' view of a state (domain/rota-calendar.ts). */
export const calendarOf = (
  state: Pick<RotaState, 'startDate' | 'endDate' | 'archived' | 'closedDates' | 'timeline'>,
): RotaCalendar => ({
  start_date: state.startDate,
  end_date: state.endDate,
  archived: state.archived,
  closed_dates: new Set(state.closedDates),
  timeline: state.timeline,
});
