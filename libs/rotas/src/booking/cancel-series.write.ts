import { combineStreams, streamsById, type Write, type WriteQuery } from '#app/event-store';
import { NotFoundError } from '#app/platform';
import { checkBookingAccess } from '../domain/booking-rules.js';
import { streamOf } from '../rotas.events.js';
import type { CallerReach } from '../rotas.policy.js';
import type { RotaForBooking } from './booking-facts.js';
import { evolve as evolveSeries } from './repeating-shift.js';
import type { SeriesRow } from './repeating-shift.queries.js';
import { decideCancelSeries } from './series-changes.js';
import { listedStill, ownerOf } from './shift-changes.js';
import { bookingCaller } from './shift-decisions.js';
import { evolve as evolveShift } from './shift.js';
import type { ShiftRow } from './shift.queries.js';

/** A series cancel as its write decides it: the series, its rota (access checked), the zone's date and the caller's reach. */
export interface SeriesCancel {
  readonly seriesId: number;
  readonly rota: RotaForBooking;
  readonly today: string;
  readonly reach: CallerReach;
}

/** The series' rota, once the access rules let the caller cancel its user's shifts there (404 when the rota went, 403). */
export function rotaToCancel(row: SeriesRow, rota: RotaForBooking | undefined, reach: CallerReach): RotaForBooking {
  if (!rota) throw new NotFoundError('Repeating shift');
  checkBookingAccess({
    action: 'cancel',
    rota,
    user: ownerOf(row.userId),
    caller: bookingCaller({ reach }, rota.teamId),
  });
  return rota;
}

/** The occurrences a cancel acts on: those not started. */
const pick = (rows: readonly ShiftRow[], now: number) => rows.filter((s) => Date.parse(s.start) > now);

function cancelStreams(seriesId: number, occurrences: readonly ShiftRow[]) {
  return combineStreams(
    { series: { streamId: streamOf.series(seriesId), evolve: evolveSeries } },
    streamsById(
      occurrences.map((o) => o.id),
      streamOf.shift,
      evolveShift,
    ),
  );
}

/**
 * `DELETE /api/rota/repeating-shifts/{id}` (decideCancelSeries) as one write: the series' occurrences
 * from today on (`occurrences`, tenant-scoped by the handler; `db`: inside the write) planned, then
 * one append over the series' stream and theirs. No gate (cancellations only free places); the
 * series' stream orders it against the worker's generation, and an occurrence the worker booked
 * between the plan and the decision makes the plan not hold (`holds`): the store plans again.
 */
export function cancelSeriesWrite(
  cancel: SeriesCancel,
  occurrences: (db?: WriteQuery) => Promise<ShiftRow[]>,
): Write<ShiftRow[], ShiftRow[], ReturnType<typeof cancelStreams>> {
  const { seriesId, rota, today, reach } = cancel;
  return {
    plan: async ({ now }) => pick(await occurrences(), now),
    // Read again inside the write: an occurrence the worker booked since the plan makes it plan again.
    facts: (db) => occurrences(db),
    streams: (planned) => cancelStreams(seriesId, planned),
    holds: (_, { plan, facts, now }) => listedStill(plan, pick(facts, now)),
    decide: (states, { plan, now }) =>
      decideCancelSeries(
        states.series,
        plan.map((o) => states[o.id]!),
        { reach },
        { rota, today, now },
      ),
  };
}
