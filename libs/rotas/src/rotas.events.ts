import type { SeriesWeekday } from './domain/series-dates.js';
import type { Timeline } from './domain/timeslot-timeline.js';
import type { RotaTimeslot } from './domain/weekly-timeslots.js';

/**
 * Every event of the rota context. Streams: `rotas.ShiftPattern-<id>`, `rotas.Rota-<id>` (a rota's
 * contacts live in its stream: "at most one contact per user" is decided there), `rotas.Team-<id>`
 * (the rotas created for a team: one rota per team per day is decided over it).
 *
 * Rota changes that can leave booked shifts outside the rota (timeslots, replace, close, end date,
 * archive) carry the rota's whole calendar after the change (`calendar`) and the first date the
 * change affects (`effectiveFrom`). The change's own write cancels, from `effectiveFrom` on, the
 * booked shifts that no longer fit (`shiftsThatNoLongerFit` in domain/shift-fit.ts), one
 * `ShiftCancelled` per shift (ADR 0006), beside the change (rota/rota-change.write.ts).
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
  | {
      type: 'rotas.RotaTimeslotsChanged';
      data: RotaCalendarChange & { from: string; to: string | null; timeslots: RotaTimeslot[] };
    }
  /** `POST /api/rotas/replace`: as a timeslot write, plus the pattern now recorded as the rota's (and a new name when given). */
  | {
      type: 'rotas.RotaPatternReplaced';
      data: RotaCalendarChange & {
        patternId: number;
        from: string;
        to: string | null;
        timeslots: RotaTimeslot[];
        name: string | null;
      };
    }
  /** Bulk `end_date`, or a new rota of the same team starting later (the one-rota-per-team rule). */
  | {
      type: 'rotas.RotaEnded';
      data: RotaCalendarChange & { endDate: string; reason: 'end_date' | 'superseded'; supersededBy: number | null };
    }
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
export type TeamEvent = {
  type: 'rotas.TeamRotaAdded';
  data: { teamId: number; organisationId: number; rotaId: number; startDate: string };
};

/** A shift's times as events carry them: instants (ISO 8601, UTC) and the wall clock they show in the rota zone. */
export interface ShiftTimesData {
  /** The local date the shift starts on. */
  date: string;
  start: string;
  end: string;
  /** `YYYY-MM-DD HH:MM` in the rota zone. */
  startWall: string;
  endWall: string;
}

/** Why a booked shift was cancelled: by a person, with its series, or by a rota change (shift-fit's MisfitReason). */
export type ShiftCancelReason =
  | 'cancelled'
  | 'series_cancelled'
  | 'series_ended'
  | 'rota_archived'
  | 'rota_not_started'
  | 'rota_ended'
  | 'rota_closed'
  | 'outside_timeslot'
  /** The volunteer was anonymised (docs/privacy.md#anonymising-a-user): told to the contacts as their own cancellation. */
  | 'user_anonymised';

/**
 * Stream `rotas.Shift-<id>`: one booking. Who did it is the events' metadata (`actor`): the
 * notifications tell a volunteer's own changes from a manager's (docs/rota-domain.md#notifications).
 */
export type ShiftEvent =
  | {
      type: 'rotas.ShiftBooked';
      data: ShiftTimesData & {
        id: number;
        organisationId: number;
        rotaId: number;
        teamId: number;
        userId: number;
        seriesId: number | null;
      };
    }
  /** New times (an edit). `sequence` counts the changes, for the iCalendar SEQUENCE. */
  | {
      type: 'rotas.ShiftMoved';
      data: ShiftTimesData & {
        id: number;
        organisationId: number;
        rotaId: number;
        userId: number;
        sequence: number;
        was: ShiftTimesData;
      };
    }
  /** `edit_mode: single` on an occurrence, or a split: it leaves its series (`seriesId` null) or joins a new one. */
  | { type: 'rotas.ShiftSeriesChanged'; data: { id: number; organisationId: number; seriesId: number | null } }
  | {
      type: 'rotas.ShiftCancelled';
      data: {
        id: number;
        organisationId: number;
        rotaId: number;
        userId: number;
        date: string;
        reason: ShiftCancelReason;
        sequence: number;
      };
    }
  /**
   * Attendance recorded by a manager or checked in by the shift's volunteer (docs/rota-domain.md#attendance).
   * The worked times are their own: a later ShiftMoved does not move them. `minutes` is the real
   * minutes between them for `attended`, 0 for `no_show`. `recordedBy` is the user who recorded it.
   */
  | {
      type: 'rotas.ShiftAttendanceRecorded';
      data: ShiftTimesData & {
        id: number;
        organisationId: number;
        rotaId: number;
        userId: number;
        status: AttendanceStatus;
        minutes: number;
        note: string | null;
        recordedBy: number;
      };
    }
  /** What was recorded is cleared (`status: null`): the shift counts as unrecorded again. */
  | {
      type: 'rotas.ShiftAttendanceCleared';
      data: { id: number; organisationId: number; rotaId: number; userId: number };
    }
  /**
   * A stand-in asked for (docs/rota-domain.md#stand-ins-and-take-overs): the shift stays its
   * volunteer's (`userId`), coverage leaves it out. `requestedBy` asked and wrote the note (sealed
   * under their key, rotas.personal-data.ts).
   */
  | {
      type: 'rotas.ShiftStandInRequested';
      data: StandInShiftData & { requestedBy: number; note: string | null };
    }
  /** Asked again: the note replaced by `writtenBy` (sealed under their key); who asked, and when, stay. */
  | {
      type: 'rotas.ShiftStandInNoteChanged';
      data: { id: number; organisationId: number; writtenBy: number; note: string | null };
    }
  /** The request withdrawn: the shift counts for coverage again. */
  | { type: 'rotas.ShiftStandInWithdrawn'; data: StandInShiftData }
  /**
   * The shift changed hands (a take-over, or one side of an accepted swap): its user becomes
   * `toUserId`, it leaves its series (`leftSeriesId`, null when it had none) and drops its stand-in
   * request. `sequence` counts the change (the iCalendar SEQUENCE of the previous volunteer's CANCEL).
   * The series never books the date again: generation never goes back over a date it considered
   * (docs/rota-domain.md#generation), and a split counts the date as an exception.
   */
  | {
      type: 'rotas.ShiftHandedOver';
      data: {
        id: number;
        organisationId: number;
        rotaId: number;
        date: string;
        fromUserId: number;
        toUserId: number;
        by: 'take_over' | 'swap';
        swapId: number | null;
        leftSeriesId: number | null;
        sequence: number;
      };
    };

/** What a stand-in event names of its shift. */
export interface StandInShiftData {
  id: number;
  organisationId: number;
  rotaId: number;
  userId: number;
  date: string;
}

export type AttendanceStatus = 'attended' | 'no_show';

export type { SeriesWeekday };

/** Why an occurrence was not booked (docs/rota-domain.md#skip-reasons). */
export interface SkippedOccurrence {
  date: string;
  reason: string;
}

/**
 * Stream `rotas.RepeatingShift-<id>`: a series. The request books its first shift and starts it;
 * the worker books the other occurrences up to `until` (RepeatingShiftGenerated, in chunks, each
 * moving `generatedUntil` on), and the daily extension moves `until` on (RepeatingShiftExtended).
 * While `generatedUntil < until` the series has generation pending (the views' `data_ready`).
 */
export type RepeatingShiftEvent =
  | {
      type: 'rotas.RepeatingShiftStarted';
      data: {
        id: number;
        organisationId: number;
        userId: number;
        rotaId: number;
        teamId: number;
        frequency: number;
        weekdays: SeriesWeekday[];
        startDate: string;
        endDate: string | null;
        /** Times of day of every occurrence, `HH:MM`, the end `dayOffset` days after the start date. */
        startTime: string;
        endTime: string;
        dayOffset: number;
        firstShiftId: number;
        ignoreOnHold: boolean;
        confirmRoleRestriction: boolean;
        /** Occurrences are to be booked up to here; the first shift's date is generated. */
        until: string;
        /**
         * A series split from another: the dates the old one had already considered after this
         * shift and left without an occurrence of its own by then (cancelled or edited alone,
         * skipped). Never booked, as the old series would not have booked them. Absent: none.
         */
        exceptions?: string[];
      };
    }
  | { type: 'rotas.RepeatingShiftExtended'; data: { id: number; organisationId: number; until: string } }
  | {
      type: 'rotas.RepeatingShiftGenerated';
      data: {
        id: number;
        organisationId: number;
        generatedUntil: string;
        booked: { date: string; shiftId: number }[];
        skipped: SkippedOccurrence[];
      };
    }
  /** `edit_mode: recurring` with new times of day: occurrences from `from` on take them. */
  | {
      type: 'rotas.RepeatingShiftRetimed';
      data: { id: number; organisationId: number; from: string; startTime: string; endTime: string; dayOffset: number };
    }
  /** Cancelled, split, ended by `recurrence_pattern: null`, or its rota archived: no occurrence after `endDate`. */
  /** `until` comes down to the end, so generation is no longer pending past it. */
  | {
      type: 'rotas.RepeatingShiftEnded';
      data: {
        id: number;
        organisationId: number;
        endDate: string;
        until: string;
        reason: 'cancelled' | 'split' | 'ended' | 'rota_archived' | 'user_anonymised';
      };
    };

/**
 * Stream `rotas.CalendarFeed-<userId>`: a user's secret calendar feed URL
 * (docs/rota-domain.md#calendar-feeds). The events carry the token's SHA-256 only: the log is history, and a
 * secret never appears in it; the URL is told to the caller once, in the answer to the request that made it.
 * Issuing again replaces the token (the old URL stops working).
 */
export type CalendarFeedEvent =
  | { type: 'rotas.CalendarFeedIssued'; data: { userId: number; organisationId: number; tokenHash: string } }
  | { type: 'rotas.CalendarFeedRevoked'; data: { userId: number; organisationId: number } };

/** One side of a swap as proposed: the shift and what it was then (docs/rota-domain.md#swaps). */
export interface SwapSideData {
  shiftId: number;
  rotaId: number;
  teamId: number;
  userId: number;
  /** Instants (ISO 8601) as proposed: a shift moved since no longer matches them. */
  start: string;
  end: string;
}

/**
 * Stream `rotas.ShiftSwap-<id>`: a proposed exchange of two shifts (docs/rota-domain.md#swaps). The
 * stream orders accept, decline and withdraw; expiry is not an event of it (see the same section).
 */
export type ShiftSwapEvent =
  | {
      type: 'rotas.ShiftSwapProposed';
      data: { id: number; organisationId: number; shift: SwapSideData; with: SwapSideData; proposedBy: number };
    }
  | { type: 'rotas.ShiftSwapAccepted'; data: { id: number; organisationId: number; by: number } }
  | { type: 'rotas.ShiftSwapDeclined'; data: { id: number; organisationId: number; by: number } }
  | { type: 'rotas.ShiftSwapWithdrawn'; data: { id: number; organisationId: number; by: number } };

export type RotasEvent =
  ShiftPatternEvent | RotaEvent | TeamEvent | ShiftEvent | RepeatingShiftEvent | CalendarFeedEvent | ShiftSwapEvent;

export const streamOf = {
  pattern: (id: number) => `rotas.ShiftPattern-${id}`,
  rota: (id: number) => `rotas.Rota-${id}`,
  team: (id: number) => `rotas.Team-${id}`,
  shift: (id: number) => `rotas.Shift-${id}`,
  series: (id: number) => `rotas.RepeatingShift-${id}`,
  calendarFeed: (userId: number) => `rotas.CalendarFeed-${userId}`,
  swap: (id: number) => `rotas.ShiftSwap-${id}`,
};

/**
 * The gates of bookings (docs/adr/0008-booking-gates.md). Every booking or move advances the gate
 * of its rota-day (rule 7: at most `max` at every moment) and of each local date its user is on
 * duty (rule 6: no two shifts at once; two overlapping shifts share a date), and holds its rota's
 * calendar gate, which every rota change that can leave shifts behind advances.
 */
export const gateOf = {
  rotaDay: (rotaId: number, date: string) => `rotas.RotaDay-${rotaId}-${date}`,
  userDay: (userId: number, date: string) => `rotas.UserDay-${userId}-${date}`,
  rotaCalendar: (rotaId: number) => `rotas.RotaCalendar-${rotaId}`,
};
