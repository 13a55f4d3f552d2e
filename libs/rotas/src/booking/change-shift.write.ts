import { combineStreams, streamsById, type WriteQuery, type Write } from '#app/event-store';
import { NotFoundError, ValidationError } from '#app/platform';
import { type RecurrenceInput, seriesPastCalendar, validateRecurrence } from '../domain/series-dates.js';
import { toFieldErrors } from '../domain/refusals.js';
import { gateOf, streamOf } from '../rotas.events.js';
import type { CallerReach } from '../rotas.policy.js';
import type { Booker, BookingFacts, BookingFactsQuery } from './booking-facts.js';
import { evolve as evolveSeries, type SeriesState } from './repeating-shift.js';
import type { SeriesRow } from './repeating-shift.queries.js';
import { evolve as evolveShift, type ShiftState } from './shift.js';
import {
  type ChangePlan,
  changePlanHolds,
  type ChangeRequest,
  type ChangeStates,
  decideChangeShift,
  type EditMode,
  laterOccurrences,
  listedStill,
  occurrenceAt,
  planChange,
  timesOfDayOf,
} from './shift-changes.js';
import { datesTouched, parseShiftTimes } from './shift-times.js';
import type { ShiftRow } from './shift.queries.js';

/** The update body, as the controller passes it on. */
export interface ShiftChange {
  readonly start_datetime: string;
  readonly end_datetime: string;
  /** As sent: undefined (absent), null or an object. */
  readonly recurrence: unknown;
  readonly mode: EditMode;
  readonly ignoreOnHold: boolean;
  readonly confirmRoleRestriction: boolean;
}

/** A shift edit as its write decides it: the body, the organisation's zone and date, the caller's reach. */
export interface ShiftEdit {
  readonly change: ShiftChange;
  readonly zone: string;
  readonly today: string;
  readonly reach: CallerReach;
}

/** The reads of an edit, tenant-scoped by the handler; `db`: inside the write, after its gates. */
export interface ShiftEditReads {
  /** The shift, once the 404 / 403s and the access rules passed (shift-access.ts shiftToChange). */
  shift(): Promise<ShiftRow>;
  series(seriesId: number): Promise<SeriesRow | null>;
  bookers(userIds: readonly number[]): Promise<ReadonlyMap<number, Booker>>;
  /** A new series id, drawn once for all attempts. */
  newSeriesId(): Promise<number>;
  occurrences(seriesId: number, fromDate: string, db?: WriteQuery): Promise<ShiftRow[]>;
  facts(db: WriteQuery, ask: BookingFactsQuery): Promise<BookingFacts>;
}

/** What the plan phase of an edit chose: the streams, the gates' spans and what the decision needs. */
export interface EditPlan {
  readonly row: ShiftRow;
  readonly request: ChangeRequest;
  readonly plan: ChangePlan;
  readonly seriesId: number | null;
  readonly later: readonly ShiftRow[];
  readonly bookers: ReadonlyMap<number, Booker>;
  readonly spans: readonly { readonly date: string; readonly start: string; readonly end: string }[];
  readonly newSeries: number | null;
}

/** The facts of an edit: the booking rules' reads, and the series' occurrences read again. */
export type EditFacts = BookingFacts & { readonly listed: readonly ShiftRow[] };

function editStreams({ row, seriesId, newSeries, later }: EditPlan) {
  return combineStreams(
    {
      shift: { streamId: streamOf.shift(row.id), evolve: evolveShift },
      ...(seriesId !== null && { series: { streamId: streamOf.series(seriesId), evolve: evolveSeries } }),
      ...(newSeries !== null && {
        newSeries: { streamId: streamOf.series(newSeries), expect: 'no_stream' as const },
      }),
    },
    streamsById(
      later.map((o) => o.id),
      streamOf.shift,
      evolveShift,
    ),
  );
}

type EditStreams = ReturnType<typeof editStreams>;

/**
 * `PUT /api/rota/shifts/{id}` (decideChangeShift) as one write (docs/adr/0011). The plan: the shift
 * (404 / 403), the access rules (403), the times and the plan (422), the later occurrences a
 * recurring edit acts on, and a new series id when one starts. Then the write over the shift's
 * stream, its series', the new series' and each later occurrence's, through the gates of every
 * rota-day and user-day the new times touch, holding the rota's calendar gate: the rota and the
 * shifts that could clash are read after the gates. An occurrence that appeared meanwhile, or
 * streams that no longer give the plan, make the plan not hold (`holds`): the store plans again.
 * Cancelling occurrences moves no gate (they only free places).
 */
export function changeShiftWrite(edit: ShiftEdit, reads: ShiftEditReads): Write<EditPlan, EditFacts, EditStreams> {
  const { change, zone, today, reach } = edit;
  let newSeriesId: number | null = null;
  return {
    plan: async ({ now }) => {
      const row = await reads.shift();
      const times = parseShiftTimes(change, zone);
      throwIfPastCalendar(change, times, zone);
      const request = {
        times,
        mode: change.mode,
        recurrence: change.recurrence,
        ignoreOnHold: change.ignoreOnHold,
        confirmRoleRestriction: change.confirmRoleRestriction,
      };
      const [series, bookers] = await Promise.all([
        row.seriesId === null ? null : reads.series(row.seriesId),
        reads.bookers([row.userId]),
      ]);
      const plan = planChange(row, series, request);
      if ((plan.kind === 'split' || plan.kind === 'start') && newSeriesId === null)
        newSeriesId = await reads.newSeriesId();
      const seriesId = 'seriesId' in plan ? plan.seriesId : null;
      const later =
        seriesId === null ? [] : laterOccurrences(await reads.occurrences(seriesId, row.date), row, seriesId, now);
      // Only a retime books new times on the later occurrences' days; their gates are taken from the rows (a row moved since makes the append lose).
      const tod = timesOfDayOf(times);
      const moves = plan.kind === 'retime' ? later.flatMap((o) => occurrenceAt(o.date, tod, zone) ?? []) : [];
      const hasNew = plan.kind === 'split' || plan.kind === 'start';
      return {
        row,
        request,
        plan,
        seriesId,
        later,
        bookers,
        spans: [times, ...moves],
        newSeries: hasNew ? newSeriesId : null,
      };
    },
    gates: ({ row, spans }) => ({
      advance: spans.flatMap((t) => [
        gateOf.rotaDay(row.rotaId, t.date),
        ...datesTouched(t, zone).map((d) => gateOf.userDay(row.userId, d)),
      ]),
      hold: [gateOf.rotaCalendar(row.rotaId)],
    }),
    facts: async (db, { row, request, spans, seriesId }) => ({
      ...(await reads.facts(db, {
        rotaIds: [row.rotaId],
        users: { ids: [row.userId], spans },
        days: [{ rotaId: row.rotaId, date: request.times.date }],
      })),
      // Read again inside the write: an occurrence the worker booked since the plan makes it plan again.
      listed: seriesId === null ? [] : await reads.occurrences(seriesId, row.date, db),
    }),
    streams: editStreams,
    holds: (states, { plan: p, facts, now }) =>
      listedStill(p.later, p.seriesId === null ? [] : laterOccurrences(facts.listed, p.row, p.seriesId, now)) &&
      changePlanHolds(changeStates(states, p), p.request, p.plan),
    decide: (states, { plan: p, facts, now }) => {
      const rota = facts.rotas.get(p.row.rotaId);
      if (!rota) throw new NotFoundError('Shift');
      return decideChangeShift(changeStates(states, p), p.request, {
        zone,
        today,
        now,
        rota,
        reach,
        newSeriesId: p.newSeries,
        booker: p.bookers.get(p.row.userId),
        userShifts: facts.userShifts,
        rotaDayShifts: facts.rotaDays.get(`${p.row.rotaId} ${p.request.times.date}`) ?? [],
      });
    },
  };
}

/** The states decideChangeShift reads, from the streams the write named (the series only when the plan has one). */
function changeStates(
  states: { readonly shift: ShiftState | null } & Readonly<Record<string, unknown>>,
  plan: { readonly later: readonly { id: number }[] },
): ChangeStates {
  return {
    shift: states.shift,
    series: (states.series ?? null) as SeriesState | null,
    later: plan.later.map((o) => (states[o.id] ?? null) as ShiftState | null),
  };
}

/** A new pattern on a recurring edit whose series would run past the calendar's end (series-dates.ts seriesPastCalendar). */
function throwIfPastCalendar(
  change: ShiftChange,
  times: { startWall: string; endWall: string; date: string },
  zone: string,
): void {
  const pattern = change.recurrence;
  if (change.mode !== 'recurring' || typeof pattern !== 'object' || pattern === null || Array.isArray(pattern)) return;
  if (validateRecurrence(pattern, times.date).length) return; // planChange names those
  const refusals = seriesPastCalendar(pattern as RecurrenceInput, times, zone);
  if (refusals.length) throw new ValidationError(toFieldErrors(refusals));
}
