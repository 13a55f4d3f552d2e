import type { StreamRead, WriteQuery } from '#app/event-store';
import { identityGateOf } from '#app/identity';
import { type FieldErrors, NotFoundError, ValidationError } from '#app/platform';
import {
  type RecurrenceInput,
  seriesHorizon,
  seriesPastCalendar,
  validateRecurrence,
  weekdaysOf,
} from '../domain/series-dates.js';
import { toFieldErrors } from '../domain/refusals.js';
import { gateOf, streamOf } from '../rotas.events.js';
import type { CallerReach } from '../rotas.policy.js';
import type { Booker, BookingFacts, BookingFactsQuery } from './booking-facts.js';
import { type BookingItem, decideBookShifts, type SeriesRequest } from './shift-decisions.js';
import { datesTouched, parseShiftTimes } from './shift-times.js';

/** One shift of the body, as the controller passes it on. */
export interface ShiftRequest {
  readonly start_datetime: string;
  readonly end_datetime: string;
  readonly userId: number;
  readonly rotaId: number;
  readonly recurrence: RecurrenceInput | null;
  readonly ignoreOnHold: boolean;
  readonly confirmRoleRestriction: boolean;
}

/** A booking as its write decides it: the items parsed, their ids drawn, the caller's reach read. */
export interface Booking {
  readonly organisationId: number;
  readonly zone: string;
  readonly items: readonly BookingItem[];
  readonly reach: CallerReach;
}

/** What a booking reads inside its write, after its gates: the rules' facts and the users' standing. */
export type BookingReads = BookingFacts & { readonly bookers: ReadonlyMap<number, Booker> };

/** An item of the body parsed, before its ids are drawn. */
export type ParsedItem = Omit<BookingItem, 'shiftId' | 'series'> & {
  readonly series: Omit<SeriesRequest, 'id'> | null;
};

/**
 * Every item's times and recurrence parsed in the organisation's zone, all problems of every item in
 * one 422 (docs/rota-domain.md#bulk-booking), before any id is drawn.
 */
export function parseBooking(
  requests: readonly ShiftRequest[],
  options: { zone: string; today: string; bulk: boolean },
): ParsedItem[] {
  const { zone, today, bulk } = options;
  const errors: FieldErrors = {};
  const items = requests.map((r, i): ParsedItem | null => {
    const prefix = bulk ? `shifts.${i}.` : '';
    let times;
    try {
      times = parseShiftTimes(r, zone, prefix);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      Object.assign(errors, error.errors);
      return null;
    }
    const recurrence = r.recurrence;
    if (recurrence) {
      const refusals = validateRecurrence(recurrence, times.date, `${prefix}recurrence_pattern.`);
      if (!refusals.length)
        refusals.push(...seriesPastCalendar(recurrence, times, zone, `${prefix}recurrence_pattern.`));
      Object.assign(errors, toFieldErrors(refusals));
    }
    const endDate = (recurrence?.end_date as string | null | undefined) ?? null;
    return {
      userId: r.userId,
      rotaId: r.rotaId,
      times,
      ignoreOnHold: r.ignoreOnHold,
      confirmRoleRestriction: r.confirmRoleRestriction,
      series: recurrence
        ? {
            frequency: Number(recurrence.recurrence_frequency),
            weekdays: weekdaysOf(recurrence, times.date),
            endDate,
            until: seriesHorizon(times.date, today, endDate),
          }
        : null,
      prefix,
    };
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return items as ParsedItem[];
}

/** The parsed items with their ids: one shift id each, one series id for each recurring one, in order. */
export function withIds(
  items: readonly ParsedItem[],
  ids: { shifts: readonly number[]; series: readonly number[] },
): BookingItem[] {
  const series = [...ids.series];
  return items.map((item, i) => ({
    ...item,
    shiftId: ids.shifts[i]!,
    series: item.series && { ...item.series, id: series.shift()! },
  }));
}

/**
 * `POST /api/rota/shifts` as one write (docs/adr/0011-declarative-writes.md): the gates of each
 * rota-day and user-day the shifts touch advanced, each rota's calendar and each user's identity
 * gate held (an anonymisation of theirs commits before the standing is read, or waits for this
 * booking and cancels it: docs/privacy.md#anonymising-a-user); the rotas, the shifts that could clash
 * and the users' standing read after them (`read`), so concurrent bookings queue on a shared day and
 * the second to the last place gets the 422 of rule 6 or 7; every new shift (and series) stream
 * appended together (decideBookShifts).
 */
export function bookShiftsWrite(
  booking: Booking,
  read: (db: WriteQuery, ask: BookingFactsQuery & { userIds: readonly number[] }) => Promise<BookingReads>,
) {
  const { items, zone } = booking;
  const rotaIds = [...new Set(items.map((i) => i.rotaId))];
  const userIds = [...new Set(items.map((i) => i.userId))];
  return {
    gates: () => ({
      advance: items.flatMap((i) => [
        gateOf.rotaDay(i.rotaId, i.times.date),
        ...datesTouched(i.times, zone).map((d) => gateOf.userDay(i.userId, d)),
      ]),
      hold: [...rotaIds.map(gateOf.rotaCalendar), ...userIds.map(identityGateOf.user)],
    }),
    facts: (db: WriteQuery) =>
      read(db, {
        rotaIds,
        userIds,
        users: { ids: userIds, spans: items.map((i) => i.times) },
        days: items.map((i) => ({ rotaId: i.rotaId, date: i.times.date })),
      }),
    // New streams under drawn ids: none is read.
    streams: () => {
      const streams: Record<string, StreamRead<unknown, never>> = {};
      for (const i of items) {
        streams[`shift ${i.shiftId}`] = { streamId: streamOf.shift(i.shiftId), expect: 'no_stream' };
        if (i.series)
          streams[`series ${i.series.id}`] = { streamId: streamOf.series(i.series.id), expect: 'no_stream' };
      }
      return streams;
    },
    decide: (_: unknown, { facts, now }: { facts: BookingReads; now: number }) => {
      // Another organisation's rota, or none: 404 (docs/http-conventions.md#tenancy), before any rule.
      if (rotaIds.some((id) => !facts.rotas.has(id))) throw new NotFoundError('Rota');
      return decideBookShifts(items, { organisationId: booking.organisationId, ...facts, reach: booking.reach, now });
    },
  };
}
