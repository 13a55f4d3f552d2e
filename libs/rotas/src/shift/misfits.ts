import type { RotaCalendar } from '../domain/rota-calendar.js';
import { type BookedShift, shiftsThatNoLongerFit } from '../domain/shift-fit.js';
import { evolve as evolveSeries, type SeriesState } from '../repeating-shift/repeating-shift.js';
import type { RepeatingShiftEvent, ShiftEvent } from '../rotas.events.js';
import { evolve as evolveShift, type ShiftState } from './shift.js';

/**
 * docs/rota-domain.md#shifts-that-no-longer-fit: what the worker does after a rota change (a timeslot write,
 * a replace, a close, an end date, an archive). Pure: the handler (cancel-misfits.command.ts) reads
 * the rota's stream before and after the change and the streams of the shifts and series it may
 * touch; this decides, one `ShiftCancelled` per shift (ADR 0006) and one `RepeatingShiftEnded` per
 * series the change cuts short.
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

/**
 * A shift event or a series event as the store hands it over, with its position in the log (the
 * events a decision returns have none yet; the specs give and expect both alike).
 */
export type PositionedShiftEvent = ShiftEvent & { readonly position?: number };
export type PositionedEvent = PositionedShiftEvent | (RepeatingShiftEvent & { readonly position?: number });

/** A shift, and the log position of the event that last set its times (its booking, or its latest move). */
export interface TrackedShift extends ShiftState {
  readonly timesAt: number;
}

/** A shift stream's fold for this decision: the shift's state and when its times were last decided. */
export function evolveTrackedShift(state: TrackedShift | null, event: PositionedShiftEvent): TrackedShift | null {
  const next = evolveShift(state, event);
  if (!next) return null;
  const timesSet = event.type === 'rotas.ShiftBooked' || event.type === 'rotas.ShiftMoved';
  return { ...next, timesAt: timesSet ? (event.position ?? 0) : (state?.timesAt ?? 0) };
}

/** The shifts and series a change may touch, by id. */
export interface MisfitsState {
  readonly shifts: ReadonlyMap<number, TrackedShift>;
  readonly series: ReadonlyMap<number, SeriesState>;
}

const isShiftEvent = (event: PositionedEvent): event is PositionedShiftEvent => event.type.startsWith('rotas.Shift');

/** The fold over several streams (the specs' given); the handler folds each stream alone and joins them (misfitsStateOf). */
export function evolveMisfits(state: MisfitsState | null, event: PositionedEvent): MisfitsState {
  const { shifts, series } = state ?? { shifts: new Map(), series: new Map() };
  if (isShiftEvent(event)) {
    const next = evolveTrackedShift(shifts.get(event.data.id) ?? null, event);
    return { shifts: next ? new Map([...shifts, [next.id, next]]) : shifts, series };
  }
  const next = evolveSeries(series.get(event.data.id) ?? null, event);
  return { shifts, series: next ? new Map([...series, [next.id, next]]) : series };
}

/** The joined states of separately folded streams. */
export function misfitsStateOf(
  shifts: readonly (TrackedShift | null)[],
  series: readonly (SeriesState | null)[],
): MisfitsState {
  return {
    shifts: new Map(shifts.flatMap((s) => (s ? [[s.id, s] as const] : []))),
    series: new Map(series.flatMap((s) => (s ? [[s.id, s] as const] : []))),
  };
}

/** One rota change, as the job carries it and the rota's stream tells it. */
export interface CancelMisfits {
  readonly change: CalendarChangeType;
  readonly organisationId: number;
  readonly rotaId: number;
  /** The change's position in the log: shifts whose times were decided later were checked against it already. */
  readonly position: number;
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
 * its SEQUENCE raised. A shift whose times were set after the change (a booking or move that
 * committed later) passed the booking rules on a calendar that already held the change, so it
 * stays: a late or repeated job never cancels what was decided after it.
 *
 * An archive ends the rota's series still running past the archive date (`rota_archived`), and an
 * end date those running past the new end (`ended`), `until` coming down with them so generation is
 * no longer pending past it. Shifts and series already cancelled or ended are left as they are, so
 * a second run decides nothing.
 */
export function decideCancelMisfits(
  state: MisfitsState | null,
  command: CancelMisfits,
  context: MisfitsContext,
): MisfitEvent[] {
  const { shifts, series } = state ?? {
    shifts: new Map<number, TrackedShift>(),
    series: new Map<number, SeriesState>(),
  };
  const { organisationId, rotaId } = command;
  const candidates = [...shifts.values()]
    .filter(
      (s) =>
        s.cancelled === null &&
        s.organisationId === organisationId &&
        s.rotaId === rotaId &&
        s.date >= command.effectiveFrom &&
        s.timesAt < command.position,
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
export const bookedShiftOf = (s: { id: number; date: string; start: string; end: string }): BookedShift => ({
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
