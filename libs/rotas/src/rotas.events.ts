import type { Timeline } from './domain/timeslot-timeline.js';
import type { RotaTimeslot } from './domain/weekly-timeslots.js';

/**
 * Every event of the rota context. Streams: `rotas.ShiftPattern-<id>`, `rotas.Rota-<id>` (a rota's
 * contacts live in its stream: "at most one contact per user" is decided there), `rotas.Team-<id>`
 * (the rotas created for a team: one rota per team per day is decided over it).
 *
 * Rota changes that can leave booked shifts outside the rota (timeslots, replace, close, end date,
 * archive) carry what part 2 needs to find them without reading anything else: the rota's whole
 * calendar after the change (`calendar`) and the first date the change affects (`effectiveFrom`).
 * Part 2's reactor cancels, from `effectiveFrom` on, the booked shifts that no longer fit
 * (`shiftsThatNoLongerFit` in domain/shift-fit.ts), one `ShiftCancelled` per shift (ADR 0006).
 */

/** The pattern as created: its numbers and its timeslots, each with the id it keeps. */
export interface ShiftPatternData {
  id: number;
  organisationId: number;
  name: string;
  min: number;
  ideal: number;
  max: number;
  categoryId: number | null;
  timeslots: RotaTimeslot[];
}

export type ShiftPatternEvent =
  | { type: 'rotas.ShiftPatternCreated'; data: ShiftPatternData }
  /** `DELETE /api/shift-patterns/{id}`: out of the default list and of new rotas; rotas made from it run on. */
  | { type: 'rotas.ShiftPatternArchived'; data: { id: number; organisationId: number } };

/** A rota's calendar after a change: what `RotaCalendar` (domain/rota-calendar.ts) needs. */
export interface RotaCalendarData {
  startDate: string;
  endDate: string | null;
  archived: boolean;
  closedDates: string[];
  timeline: Timeline;
}

/** The settings `PUT /api/rotas/{id}` changes (and create sets). */
export interface RotaSettings {
  name: string;
  colour: string;
  selfManage: boolean;
  allowSameDayAdd: boolean;
  allowSameDayCancel: boolean;
  allowSameDayEdit: boolean;
  restrictedByRole: boolean;
  roleProfileIds: number[];
  requireFullTimeslot: boolean;
}

export interface RotaCreatedData extends RotaSettings {
  id: number;
  organisationId: number;
  teamId: number;
  patternId: number;
  startDate: string;
  endDate: string | null;
  /** The pattern's timeslots, copied with new ids, from `startDate` on. */
  timeslots: RotaTimeslot[];
}

/** What a change that may leave shifts behind carries (see the top of this file). */
export interface RotaCalendarChange {
  id: number;
  organisationId: number;
  /** The first date whose timeslots or activity the change may alter. */
  effectiveFrom: string;
  calendar: RotaCalendarData;
}

export type RotaEvent =
  | { type: 'rotas.RotaCreated'; data: RotaCreatedData }
  /** Only the settings that changed are present. */
  | { type: 'rotas.RotaChanged'; data: { id: number; organisationId: number; changes: Partial<RotaSettings> } }
  /** `PUT /api/rotas/{id}/timeslots`: `timeslots` (new ids) written over `[from, to]`. */
  | { type: 'rotas.RotaTimeslotsChanged'; data: RotaCalendarChange & { from: string; to: string | null; timeslots: RotaTimeslot[] } }
  /** `POST /api/rotas/replace`: as a timeslot write, plus the pattern now recorded as the rota's (and a new name when given). */
  | { type: 'rotas.RotaPatternReplaced'; data: RotaCalendarChange & { patternId: number; from: string; to: string | null; timeslots: RotaTimeslot[]; name: string | null } }
  /** Bulk `end_date`, or a new rota of the same team starting later (the one-rota-per-team rule). */
  | { type: 'rotas.RotaEnded'; data: RotaCalendarChange & { endDate: string; reason: 'end_date' | 'superseded'; supersededBy: number | null } }
  | { type: 'rotas.RotaClosed'; data: RotaCalendarChange & { dates: string[] } }
  /** Addition: lifts closures; cancelled shifts stay cancelled. */
  | { type: 'rotas.RotaReopened'; data: { id: number; organisationId: number; dates: string[]; closedDates: string[] } }
  | { type: 'rotas.RotaArchived'; data: RotaCalendarChange }
  | { type: 'rotas.RotaContactAdded'; data: { id: number; organisationId: number; rotaId: number; userId: number } }
  | { type: 'rotas.RotaContactRemoved'; data: { id: number; organisationId: number; rotaId: number; userId: number } };

/**
 * Stream `rotas.Team-<id>`: one event per rota created for the team. Every create appends here at
 * the version it read, so two creates for one team cannot both pass the one-rota-per-team rule on
 * what they read: the second append conflicts (409). The stream also lists the team's rotas, so a
 * create that read the team's rotas before another create committed sees a rota it did not load.
 */
export type TeamEvent = { type: 'rotas.TeamRotaAdded'; data: { teamId: number; organisationId: number; rotaId: number; startDate: string } };

export type RotasEvent = ShiftPatternEvent | RotaEvent | TeamEvent;

export const streamOf = {
  pattern: (id: number) => `rotas.ShiftPattern-${id}`,
  rota: (id: number) => `rotas.Rota-${id}`,
  team: (id: number) => `rotas.Team-${id}`,
};
