import {
  combineStreams,
  type Folding,
  type StatesByName,
  type StreamEvents,
  type StreamRead,
  streamsById,
  type Write,
  type WriteQuery,
} from '#app/event-store';
import { groupBy } from '#app/platform';
import { evolve as evolveSeries, type SeriesState } from '../booking/repeating-shift.js';
import { evolve as evolveShift, type ShiftState } from '../booking/shift.js';
import { gateOf, type RotaEvent, streamOf } from '../rotas.events.js';
import {
  type CalendarChange,
  calendarChangesOf,
  decideMisfits,
  type MisfitEvent,
  type MisfitRows,
  misfitsStateOf,
  misfitStreams,
} from './misfits.js';
import {
  type CreateEvent,
  evolveTeam,
  streamOfEvent,
  type TeamRotasState,
  type TeamsAndRotas,
} from './rota-decisions.js';
import { evolve, type RotaState } from './rota.js';

/** A change of rotas, as its command describes it (rotaChangeWrite). */
export interface RotaChange {
  /** The organisation's zone (the rota zone). */
  readonly zone: string;
  /** The existing rotas the change decides over: read, and handed to `decide` (the ones without a stream left out). */
  readonly rotaIds: readonly number[];
  /** Team streams read beside them (a create's teams), handed to `decide` the same way. */
  readonly teamIds?: readonly number[];
  /** New rota streams under drawn ids (a create's), not read. */
  readonly newRotaIds?: readonly number[];
  /** False for a change that moves no calendar (bulk name, reopen, contacts): no gate, nothing to cancel. */
  readonly movesCalendars?: boolean;
  /** The change's own decision, pure; each event goes to its stream (streamOfEvent). */
  readonly decide: (state: TeamsAndRotas) => readonly CreateEvent[];
}

/** The streams of a change itself: its rotas by id, its teams and its new rotas. */
export type ChangeStreams = Record<number, Folding<RotaState>> &
  Record<`team ${number}`, Folding<TeamRotasState>> &
  Record<`new ${number}`, StreamRead>;

/** With the shifts and series the change may cut, named by their ids. */
export type RotaChangeStreams = ChangeStreams &
  Record<`shift ${number}`, Folding<ShiftState>> &
  Record<`series ${number}`, Folding<SeriesState>>;

/** What the plan of a calendar change decided before its cancellations are known (and the attempt's instant). */
export interface RotaChangePlan {
  readonly changes: readonly CalendarChange[];
  readonly now: number;
}

/** Reads the changed rotas' booked shifts that have not started and their open series, inside the write. */
export type MisfitReader = (db: WriteQuery, rotaIds: readonly number[], now: number) => Promise<MisfitRows>;

/** Whether a change takes the planned write (rotaChangeWrite) or the plain one (rotaEditWrite). */
export const movesCalendars = (change: RotaChange): boolean =>
  (change.movesCalendars ?? true) && change.rotaIds.length > 0;

/** A change that moves no calendar: its streams read and decided, appended together at the versions read. */
export function rotaEditWrite(change: RotaChange): Write<undefined, undefined, ChangeStreams> {
  const streams = changeStreams(change);
  return { streams: () => streams, decide: (states) => decided(change, states).events };
}

/**
 * A change that can move calendars (timeslots, replace, end date, close, archive, a create ending a
 * running rota) as one write (docs/adr/0011-declarative-writes.md,
 * docs/rota-domain.md#shifts-that-no-longer-fit):
 * 1. plan: the rotas read and the change decided, so it knows which calendars change;
 * 2. gates: the rotas' calendar gates advanced, so no booking or move of those rotas commits until it
 *    does (they hold them: docs/adr/0008-booking-gates.md);
 * 3. facts: the booked shifts that have not started and the open series of those rotas (rows, inside
 *    the write, hence exact);
 * 4. streams: the rotas' streams again, and those of the shifts and series the changes touch
 *    (misfitStreams);
 * 5. holds: the same decision gives the same calendar changes (a rota that changed since the plan
 *    is a lost race: the store plans again, a 409 only when it keeps losing);
 * 6. decide: the change, a ShiftCancelled to each shift that no longer fits and a RepeatingShiftEnded
 *    to each series it cuts short, decided on their own streams.
 * So the cancellations take a few statements however many rotas and shifts.
 */
export function rotaChangeWrite(
  change: RotaChange,
  read: MisfitReader,
): Write<RotaChangePlan, MisfitRows, RotaChangeStreams> {
  const { zone, rotaIds } = change;
  const own = changeStreams(change);
  return {
    plan: async ({ read: readStreams, now }) => ({ changes: decided(change, await readStreams(own)).changes, now }),
    gates: () => ({ advance: rotaIds.map(gateOf.rotaCalendar) }),
    facts: (db, { now }) => read(db, rotaIds, now),
    streams: ({ changes, now }, rows) => {
      const wanted = misfitStreams(changes, rows, { zone, now });
      const shifts: Record<`shift ${number}`, Folding<ShiftState>> = Object.fromEntries(
        wanted.shifts.map((id) => [`shift ${id}`, { streamId: streamOf.shift(id), evolve: evolveShift }]),
      );
      const series: Record<`series ${number}`, Folding<SeriesState>> = Object.fromEntries(
        wanted.series.map((id) => [`series ${id}`, { streamId: streamOf.series(id), evolve: evolveSeries }]),
      );
      return combineStreams(own, combineStreams(shifts, series));
    },
    holds: (states, { plan }) => sameChanges(decided(change, states).changes, plan.changes),
    decide: (states, { plan: { changes }, facts, now }) => {
      const { events } = decided(change, states);
      if (changes.length === 0) return events;
      const wanted = misfitStreams(changes, facts, { zone, now });
      const state = misfitsStateOf(
        wanted.shifts.map((id) => states[`shift ${id}`] ?? null),
        wanted.series.map((id) => states[`series ${id}`] ?? null),
      );
      return [...events, ...misfitsByStream(decideMisfits(state, changes, { zone, now }))];
    },
  };
}

/** The rotas by id, the teams and the new rotas of a change, named as ChangeStreams says. */
function changeStreams(change: RotaChange): ChangeStreams {
  const teams: Record<`team ${number}`, Folding<TeamRotasState>> = Object.fromEntries(
    (change.teamIds ?? []).map((t) => [`team ${t}`, { streamId: streamOf.team(t), evolve: evolveTeam }]),
  );
  const created: Record<`new ${number}`, StreamRead> = Object.fromEntries(
    (change.newRotaIds ?? []).map((id) => [`new ${id}`, { streamId: streamOf.rota(id), expect: 'no_stream' }]),
  );
  return combineStreams(streamsById(change.rotaIds, streamOf.rota, evolve), combineStreams(teams, created));
}

/** The change decided over the states read: its events by stream, and the calendar changes among them. */
function decided(change: RotaChange, states: StatesByName<ChangeStreams>) {
  const rotas = new Map<number, RotaState>();
  for (const id of change.rotaIds) {
    const state = states[id];
    if (state) rotas.set(id, state);
  }
  const teams = new Map<number, TeamRotasState>();
  for (const id of change.teamIds ?? []) {
    const state = states[`team ${id}`];
    if (state) teams.set(id, state);
  }
  const events = change.decide({ rotas, teams });
  return {
    events: eventsByStream(events, streamOfEvent),
    changes: calendarChangesOf(
      rotas,
      events.filter((e): e is RotaEvent => e.type !== 'rotas.TeamRotaAdded'),
    ),
  };
}

/** Whether two lists of calendar changes are the same, calendars included (closed dates are Sets, which JSON alone drops). */
const sameChanges = (a: readonly CalendarChange[], b: readonly CalendarChange[]): boolean => {
  const json = (changes: readonly CalendarChange[]) =>
    JSON.stringify(changes, (_, value: unknown) => (value instanceof Set ? [...value].sort() : value));
  return json(a) === json(b);
};

/** Events grouped by the stream each belongs to, streams in the order of their first event. */
export function eventsByStream<E extends CreateEvent | MisfitEvent>(
  events: readonly E[],
  streamIdOf: (event: E) => string,
): StreamEvents[] {
  return [...groupBy(events, streamIdOf)].map(([streamId, own]) => ({ streamId, events: own }));
}

const misfitsByStream = (events: readonly MisfitEvent[]): StreamEvents[] =>
  eventsByStream(events, (e) =>
    e.type === 'rotas.ShiftCancelled' ? streamOf.shift(e.data.id) : streamOf.series(e.data.id),
  );
