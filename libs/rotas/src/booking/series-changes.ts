import type { StreamEvents } from '#app/event-store';
import { NotFoundError } from '#app/platform';
import { type BookingRota, cancelRefusal, checkBookingAccess } from '../domain/booking-rules.js';
import type { CallerReach } from '../rotas.policy.js';
import { streamOf } from '../rotas.events.js';
import { cancellation, endSeries, ownerOf } from './shift-changes.js';
import type { ShiftState } from './shift.js';
import { bookingCaller, spanOf } from './shift-decisions.js';
import type { SeriesState } from './repeating-shift.js';

/** Who asks to cancel a series. */
export interface CancelSeries {
  readonly reach: CallerReach;
}

export interface CancelSeriesContext {
  readonly rota: BookingRota;
  /** The rota zone's date. */
  readonly today: string;
  /** Epoch ms. */
  readonly now: number;
}

/**
 * `DELETE /api/rota/repeating-shifts/{id}` (docs/rota-domain.md#cancelling-a-series). An unknown series
 * is a 404; the caller must be its user on a self-managed rota, or a manager (checkBookingAccess,
 * 403). Every occurrence given that has not started (and has no attendance recorded) is cancelled (`series_cancelled`), except those
 * rule 8 keeps from a volunteer (their own occurrence today without allow_same_day_cancel, an
 * overnight one on its start date). The series ends today (RepeatingShiftEnded `cancelled`): no
 * occurrence is booked after today, and those that stay (started, or kept) are on or before it. A
 * series already ending by today has nothing to end; with nothing left to cancel either, nothing is
 * recorded (a second cancel, or a series past its end, answers 204 all the same). A manager may
 * cancel later what a volunteer's cancel had to keep.
 */
export function decideCancelSeries(
  series: SeriesState | null,
  occurrences: readonly (ShiftState | null)[],
  command: CancelSeries,
  context: CancelSeriesContext,
): StreamEvents[] {
  if (!series) throw new NotFoundError('Repeating shift');
  const { rota, now } = context;
  const user = ownerOf(series.userId);
  const caller = bookingCaller(command, rota.teamId);
  checkBookingAccess({ action: 'cancel', rota, user, caller });
  const out: StreamEvents[] = [];
  for (const occurrence of occurrences) {
    if (
      !occurrence ||
      occurrence.cancelled ||
      occurrence.seriesId !== series.id ||
      Date.parse(occurrence.start) <= now ||
      // Attendance recorded (a check-in before the start): left alone as a started one (docs/rota-domain.md#attendance).
      occurrence.attendance
    )
      continue;
    if (cancelRefusal({ action: 'cancel', rota, user, caller, shift: spanOf(occurrence), now })) continue;
    out.push({ streamId: streamOf.shift(occurrence.id), events: [cancellation(occurrence, 'series_cancelled')] });
  }
  const ended = endSeries(series, context.today, 'cancelled');
  if (ended) out.push({ streamId: streamOf.series(series.id), events: [ended] });
  return out;
}
