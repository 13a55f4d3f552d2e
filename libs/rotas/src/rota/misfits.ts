import { groupBy } from '#app/platform';
import type { RotaCalendar } from '../domain/rota-calendar.js';
import { type BookedShift, shiftsThatNoLongerFit } from '../domain/shift-fit.js';
import { evolve as evolveSeries, type SeriesState } from '../booking/repeating-shift.js';
import { calendarOf, evolve as evolveRota, type RotaState } from './rota.js';
import type { RepeatingShiftEvent, RotaEvent, ShiftEvent } from '../rotas.events.js';
import { evolve as evolveShift, type ShiftState } from '../booking/shift.js';

/**
 * docs/rota-domain.md#shifts-that-no-longer-fit: what a rota change (a timeslot write, a replace, a
 * close, an end date, an archive) cancels and ends in its own write. Pure: the write
 * (rota/rota-change.write.ts) reads the rotas' streams, the booked shifts' rows and the streams of the
 * shifts and series the rows point at; this decides, one `ShiftCancelled` per shift (ADR 0006) and
 * one `RepeatingShiftEnded` per series the change cuts short.
 */

/** The rota events that carry a calendar and can leave booked shifts behind. */
export const CALENDAR_CHANGES = [
  'rotas.RotaTimeslotsChanged',
  'rotas.RotaPatternReplaced',
  'rotas.RotaEnded',
  'rotas.RotaClosed',
  'rotas.RotaArchived',
] as const;
export type CalendarChangeType = (typeof CALENDAR_CHANGES)[number];
type CalendarChangeEvent = Extract<RotaEvent, { type: CalendarChangeType }>;

const isCalendarChange = (event: { type: string }): event is CalendarChangeEvent =>
  (CALENDAR_CHANGES as readonly string[]).includes(event.type);

/** The shifts and series a change may touch, by id. */
export interface MisfitsState {
  readonly shifts: ReadonlyMap<number, ShiftState>;
  readonly series: ReadonlyMap<number, SeriesState>;
}

const isShiftEvent = (event: ShiftEvent | RepeatingShiftEvent): event is ShiftEvent =>
  event.type.startsWith('rotas.Shift');

/** The fold over several streams (the specs' given, and the decision's own events); the write folds each stream alone and joins them (misfitsStateOf). */
export function evolveMisfits(state: MisfitsState | null, event: ShiftEvent | RepeatingShiftEvent): MisfitsState {
  const { shifts, series } = state ?? { shifts: new Map(), series: new Map() };
  if (isShiftEvent(event)) {
    const next = evolveShift(shifts.get(event.data.id) ?? null, event);
    return { shifts: next ? new Map([...shifts, [next.id, next]]) : shifts, series };
  }
  const next = evolveSeries(series.get(event.data.id) ?? null, event);
  return { shifts, series: next ? new Map([...series, [next.id, next]]) : series };
}

/** The joined states of separately folded streams. */
export function misfitsStateOf(
  shifts: readonly (ShiftState | null)[],
  series: readonly (SeriesState | null)[],
): MisfitsState {
  return {
    shifts: new Map(shifts.flatMap((s) => (s ? [[s.id, s] as const] : []))),
    series: new Map(series.flatMap((s) => (s ? [[s.id, s] as const] : []))),
  };
}

/** One rota change, as its event and the rota's stream tell it. */
export interface CancelMisfits {
  readonly change: CalendarChangeType;
  readonly organisationId: number;
  readonly rotaId: number;
  /** The first date the change may alter: shifts before it are not looked at. */
  readonly effectiveFrom: string;
  /** The rota's calendar before the change: only the dates it touched are looked at (shift-fit's dayChanged). */
  readonly before: RotaCalendar | null;
  readonly after: RotaCalendar;
}

export interface MisfitsContext {
  /** The rota zone. */
  readonly zone: string;
  readonly requireFullTimeslot: boolean;
  /** A shift that has started is in the past and never touched. */
  readonly now: number;
}

export type ShiftCancelledEvent = Extract<ShiftEvent, { type: 'rotas.ShiftCancelled' }>;
export type SeriesEndedEvent = Extract<RepeatingShiftEvent, { type: 'rotas.RepeatingShiftEnded' }>;
export type MisfitEvent = ShiftCancelledEvent | SeriesEndedEvent;

/**
 * The rota's booked shifts, from `effectiveFrom` on, that have not started and no longer fit the
 * rota after the change (on a date the change touched), each cancelled with shift-fit's reason and
 * its SEQUENCE raised. The change holds the rota's calendar gate while it decides, so no booking
 * or move of the rota commits meanwhile: the shifts given are all there are (docs/adr/0008).
 *
 * An archive ends the rota's series still running past the archive date (`rota_archived`), and an
 * end date those running past the new end (`ended`), `until` coming down with them so generation is
 * no longer pending past it. Shifts and series already cancelled or ended are left as they are.
 */
export function decideCancelMisfits(
  state: MisfitsState | null,
  command: CancelMisfits,
  context: MisfitsContext,
): MisfitEvent[] {
  const { shifts, series } = state ?? {
    shifts: new Map<number, ShiftState>(),
    series: new Map<number, SeriesState>(),
  };
  const { organisationId, rotaId } = command;
  const candidates = [...shifts.values()]
    .filter(
      (s) =>
        s.cancelled === null &&
        // Attendance recorded: left alone, as a started shift is (docs/rota-domain.md#attendance).
        s.attendance === null &&
        s.organisationId === organisationId &&
        s.rotaId === rotaId &&
        s.date >= command.effectiveFrom,
    )
    .sort((a, b) => Date.parse(a.start) - Date.parse(b.start) || a.id - b.id);
  const misfits = shiftsThatNoLongerFit(command.after, candidates.map(bookedShiftOf), {
    ...context,
    before: command.before,
  });
  const cancelled = misfits.map(({ shift_id, reason }): ShiftCancelledEvent => {
    const s = shifts.get(shift_id)!;
    return {
      type: 'rotas.ShiftCancelled',
      data: { id: s.id, organisationId, rotaId, userId: s.userId, date: s.date, reason, sequence: s.sequence + 1 },
    };
  });
  return [...cancelled, ...seriesEnded(series, command)];
}

/** A shift's times as shift-fit reads them. */
const bookedShiftOf = (s: { id: number; date: string; start: string; end: string }): BookedShift => ({
  id: s.id,
  date: s.date,
  start: Date.parse(s.start),
  end: Date.parse(s.end),
});

/** The last date a change leaves the rota's series: the archive date, or the new end date; null for the other changes. */
export function seriesEndOf(command: Pick<CancelMisfits, 'change' | 'effectiveFrom' | 'after'>): string | null {
  if (command.change === 'rotas.RotaArchived') return command.effectiveFrom;
  if (command.change === 'rotas.RotaEnded') return command.after.end_date;
  return null;
}

function seriesEnded(series: ReadonlyMap<number, SeriesState>, command: CancelMisfits): SeriesEndedEvent[] {
  const end = seriesEndOf(command);
  if (end === null) return [];
  const reason = command.change === 'rotas.RotaArchived' ? 'rota_archived' : 'ended';
  return [...series.values()]
    .filter(
      (s) =>
        s.ended === null &&
        s.organisationId === command.organisationId &&
        s.rotaId === command.rotaId &&
        (s.endDate === null || s.endDate > end),
    )
    .sort((a, b) => a.id - b.id)
    .map((s) => ({
      type: 'rotas.RepeatingShiftEnded',
      data: { id: s.id, organisationId: s.organisationId, endDate: end, until: s.until < end ? s.until : end, reason },
    }));
}

// ---- In the change's write ------------------------------------------------------------------------

/** One calendar change of a write, and its rota's own rule. */
export interface CalendarChange {
  readonly command: CancelMisfits;
  readonly requireFullTimeslot: boolean;
}

/**
 * The calendar changes among the events a rota change decided, in order, each with its rota's
 * calendar before and after it. `rotas`: the rotas as the write read them (a rota not among them,
 * a new one, has no shifts yet).
 */
export function calendarChangesOf(
  rotas: ReadonlyMap<number, RotaState>,
  events: readonly RotaEvent[],
): CalendarChange[] {
  const current = new Map(rotas);
  const changes: CalendarChange[] = [];
  for (const event of events) {
    if (!isCalendarChange(event)) continue;
    const before = current.get(event.data.id);
    const after = before && evolveRota(before, event);
    if (!before || !after) continue;
    current.set(after.id, after);
    changes.push({
      command: {
        change: event.type,
        organisationId: event.data.organisationId,
        rotaId: after.id,
        effectiveFrom: event.data.effectiveFrom,
        before: calendarOf(before),
        after: calendarOf(after),
      },
      requireFullTimeslot: after.requireFullTimeslot,
    });
  }
  return changes;
}

/** The changed rotas' booked shifts that have not started and their series that have not ended, as the read tables hold them. */
export interface MisfitRows {
  readonly shifts: readonly (BookedShift & { readonly rotaId: number })[];
  readonly series: readonly { readonly id: number; readonly rotaId: number; readonly endDate: string | null }[];
}

const byRota = <T extends { rotaId: number }>(rows: readonly T[]): Map<number, T[]> => groupBy(rows, (r) => r.rotaId);

/**
 * The streams the changes' decision needs: the shifts whose rows no longer fit, and the series an
 * archive or end date may cut short. Only which streams to read comes from the rows; what is
 * cancelled is decided on the streams (decideMisfits).
 */
export function misfitStreams(
  changes: readonly CalendarChange[],
  rows: MisfitRows,
  context: Pick<MisfitsContext, 'zone' | 'now'>,
): { shifts: number[]; series: number[] } {
  const [shifts, series] = [byRota(rows.shifts), byRota(rows.series)];
  const wanted = { shifts: new Set<number>(), series: new Set<number>() };
  for (const { command, requireFullTimeslot } of changes) {
    const own = (shifts.get(command.rotaId) ?? []).filter((s) => s.date >= command.effectiveFrom);
    for (const m of shiftsThatNoLongerFit(command.after, own, {
      ...context,
      requireFullTimeslot,
      before: command.before,
    }))
      wanted.shifts.add(m.shift_id);
    const end = seriesEndOf(command);
    if (end === null) continue;
    for (const s of series.get(command.rotaId) ?? [])
      if (s.endDate === null || s.endDate > end) wanted.series.add(s.id);
  }
  return { shifts: [...wanted.shifts], series: [...wanted.series] };
}

/** decideCancelMisfits for each change in turn, each seeing what the earlier ones cancelled and ended. */
export function decideMisfits(
  state: MisfitsState,
  changes: readonly CalendarChange[],
  context: Pick<MisfitsContext, 'zone' | 'now'>,
): MisfitEvent[] {
  const shifts = byRota([...state.shifts.values()]);
  const series = byRota([...state.series.values()]);
  const rotaState = new Map<number, MisfitsState>();
  const events: MisfitEvent[] = [];
  for (const { command, requireFullTimeslot } of changes) {
    const own =
      rotaState.get(command.rotaId) ??
      misfitsStateOf(shifts.get(command.rotaId) ?? [], series.get(command.rotaId) ?? []);
    const decided = decideCancelMisfits(own, command, { ...context, requireFullTimeslot });
    // Folded into copies made once (evolveMisfits copies a map per event: thousands of shifts on an archive).
    const [shiftsAfter, seriesAfter] = [new Map(own.shifts), new Map(own.series)];
    for (const e of decided) {
      if (e.type === 'rotas.ShiftCancelled') shiftsAfter.set(e.data.id, evolveShift(shiftsAfter.get(e.data.id)!, e)!);
      else seriesAfter.set(e.data.id, evolveSeries(seriesAfter.get(e.data.id)!, e)!);
    }
    rotaState.set(command.rotaId, { shifts: shiftsAfter, series: seriesAfter });
    events.push(...decided);
  }
  return events;
}
