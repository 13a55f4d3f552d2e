import type { StreamEvents } from '#app/event-store';
import { dayNumber } from '../domain/calendar-dates.js';
import {
  type BookedSpan,
  type BookingCaller,
  type BookingUser,
  checkBooking,
  checkBookingAccess,
} from '../domain/booking-rules.js';
import { type CallerReach, isManager } from '../rotas.policy.js';
import { type SeriesWeekday, type ShiftEvent, type ShiftTimesData, streamOf } from '../rotas.events.js';
import type { Booker, RotaForBooking } from './booking-facts.js';

/** A series to start with the booked shift (already validated: series-dates.ts validateRecurrence). */
export interface SeriesRequest {
  readonly id: number;
  readonly frequency: number;
  readonly weekdays: readonly SeriesWeekday[];
  readonly endDate: string | null;
  /** Occurrences to book up to (seriesHorizon). */
  readonly until: string;
}

/** One shift to book, its times parsed, its ids drawn. */
export interface BookingItem {
  readonly shiftId: number;
  readonly userId: number;
  readonly rotaId: number;
  readonly times: ShiftTimesData;
  readonly ignoreOnHold: boolean;
  readonly confirmRoleRestriction: boolean;
  readonly series: SeriesRequest | null;
  /** Error key prefix: `shifts.3.` in a bulk, '' alone. */
  readonly prefix: string;
}

/** What the handler read (after the gates, docs/adr/0008) for the decision. */
export interface BookingContext {
  readonly organisationId: number;
  readonly rotas: ReadonlyMap<number, RotaForBooking>;
  readonly bookers: ReadonlyMap<number, Booker>;
  readonly reach: CallerReach | null;
  /** The worker, booking as a manager would (docs/rota-domain.md#booking-rules). */
  readonly system?: boolean;
  /** Booked shifts of the users that may clash, any rota. */
  readonly userShifts: readonly BookedSpan[];
  /** Booked shifts by `rotaId date`. */
  readonly rotaDays: ReadonlyMap<string, readonly BookedSpan[]>;
  readonly now: number;
}

export const spanOf = (t: ShiftTimesData) => ({ date: t.date, start: Date.parse(t.start), end: Date.parse(t.end) });

/** The user a shift is for, as the rules see them on a rota of `teamId` (`booker` absent: not of the organisation). */
export const bookingUserOf = (id: number, booker: Booker | undefined, teamId: number): BookingUser => ({
  id,
  inOrganisation: !!booker,
  seesRota: !!booker?.seen.has(teamId),
  onHold: !!booker?.onHold,
  roleProfileIds: [...(booker?.roleProfileIds ?? [])],
});

/** The caller as the rules see it on one rota. */
export function bookingCaller(context: Pick<BookingContext, 'reach' | 'system'>, teamId: number): BookingCaller {
  if (context.system || !context.reach) return { userId: 0, seesRota: true, manager: true, system: true };
  return {
    userId: context.reach.userId,
    seesRota: context.reach.seen.has(teamId),
    manager: isManager(context.reach, teamId),
  };
}

/**
 * `POST /api/rota/shifts` (one or a bulk): every item checked against the rules in order
 * (booking-rules.ts), items after the first also against the earlier ones (docs/rota-domain.md#bulk-booking:
 * shifts of one request must not overlap for one user, and they fill the same timeslots). All or nothing: the
 * first refusal throws. Events: each shift's ShiftBooked, and a series' RepeatingShiftStarted.
 */
export function decideBookShifts(items: readonly BookingItem[], context: BookingContext): StreamEvents[] {
  const userShifts = [...context.userShifts];
  const rotaDays = new Map([...context.rotaDays].map(([k, v]) => [k, [...v]]));
  const out: StreamEvents[] = [];
  const userOf = (item: BookingItem, teamId: number) =>
    bookingUserOf(item.userId, context.bookers.get(item.userId), teamId);
  // Every item's 403 before any item's rule (docs/rota-domain.md#who-may-do-what),
  // so a bulk answer does not depend on the order of its items.
  for (const item of items) {
    const rota = context.rotas.get(item.rotaId)!;
    checkBookingAccess({
      action: 'add',
      rota,
      user: userOf(item, rota.teamId),
      caller: bookingCaller(context, rota.teamId),
    });
  }
  for (const item of items) {
    const rota = context.rotas.get(item.rotaId)!;
    const span = spanOf(item.times);
    const day = `${item.rotaId} ${span.date}`;
    checkBooking(
      {
        action: 'add',
        rota,
        user: userOf(item, rota.teamId),
        caller: bookingCaller(context, rota.teamId),
        shift: span,
        userShifts: userShifts.filter((s) => s.userId === item.userId),
        rotaDayShifts: rotaDays.get(day) ?? [],
        ignoreOnHold: item.ignoreOnHold,
        confirmRoleRestriction: item.confirmRoleRestriction,
        now: context.now,
      },
      item.prefix,
    );
    const booked = { id: item.shiftId, userId: item.userId, rotaId: item.rotaId, ...span };
    userShifts.push(booked);
    rotaDays.set(day, [...(rotaDays.get(day) ?? []), booked]);
    const event: ShiftEvent = {
      type: 'rotas.ShiftBooked',
      data: {
        id: item.shiftId,
        organisationId: context.organisationId,
        rotaId: item.rotaId,
        teamId: rota.teamId,
        userId: item.userId,
        seriesId: item.series?.id ?? null,
        ...item.times,
      },
    };
    out.push({ streamId: streamOf.shift(item.shiftId), events: [event] });
    if (item.series)
      out.push({
        streamId: streamOf.series(item.series.id),
        events: [startSeries(item, rota.teamId, context.organisationId)],
      });
  }
  return out;
}

function startSeries(item: BookingItem, teamId: number, organisationId: number) {
  const s = item.series!;
  const t = item.times;
  return {
    type: 'rotas.RepeatingShiftStarted' as const,
    data: {
      id: s.id,
      organisationId,
      userId: item.userId,
      rotaId: item.rotaId,
      teamId,
      frequency: s.frequency,
      weekdays: [...s.weekdays],
      startDate: t.date,
      endDate: s.endDate,
      startTime: t.startWall.slice(11),
      endTime: t.endWall.slice(11),
      dayOffset: dayNumber(t.endWall.slice(0, 10)) - dayNumber(t.date),
      firstShiftId: item.shiftId,
      ignoreOnHold: item.ignoreOnHold,
      confirmRoleRestriction: item.confirmRoleRestriction,
      until: s.endDate !== null && s.endDate < s.until ? s.endDate : s.until,
    },
  };
}
