import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, identityGateOf, metadataOf, OrganisationFactsReader } from '#app/identity';
import { type FieldErrors, NotFoundError, ValidationError } from '#app/platform';
import {
  type RecurrenceInput,
  seriesHorizon,
  seriesPastCalendar,
  validateRecurrence,
  weekdaysOf,
} from '../domain/series-dates.js';
import { toFieldErrors } from '../domain/refusals.js';
import { RotaIds } from '../next-id.js';
import { gateOf, streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { BookingFactsReader } from './booking-facts.js';
import { type BookingItem, decideBookShifts } from './shift-decisions.js';
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

/** Answers the new shifts' ids, in the body's order. */
export class BookShiftsCommand extends Command<number[]> {
  constructor(
    readonly caller: Caller,
    readonly requests: readonly ShiftRequest[],
    readonly bulk: boolean,
  ) {
    super();
  }
}

/**
 * `POST /api/rota/shifts` (decideBookShifts). Before the write: the organisation's zone and today,
 * every item's times and recurrence (all problems of every item in one 422), the caller's reach and
 * the ids. Then one write (docs/adr/0011): the gates of each rota-day and user-day the shifts
 * touch advanced, each rota's calendar and each user's identity gate held; the users' standing
 * read after them (an anonymised user is nobody to book, docs/privacy.md#anonymising-a-user); the rotas and the shifts that could clash
 * read after them, so concurrent bookings queue on a shared day and the second to the last place
 * gets the 422 of rule 6 or 7; every shift (and series) stream appended together.
 */
@CommandHandler(BookShiftsCommand)
export class BookShiftsHandler implements ICommandHandler<BookShiftsCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly facts: BookingFactsReader,
    private readonly organisations: OrganisationFactsReader,
    private readonly ids: RotaIds,
  ) {}

  async execute({ caller, requests, bulk }: BookShiftsCommand): Promise<number[]> {
    const { timezone: zone, today } = await this.organisations.of(caller);
    const errors: FieldErrors = {};
    const parsed = requests.map((r, i) => {
      const prefix = bulk ? `shifts.${i}.` : '';
      try {
        const times = parseShiftTimes(r, zone, prefix);
        if (r.recurrence) {
          const refusals = validateRecurrence(r.recurrence, times.date, `${prefix}recurrence_pattern.`);
          if (!refusals.length)
            refusals.push(...seriesPastCalendar(r.recurrence, times, zone, `${prefix}recurrence_pattern.`));
          Object.assign(errors, toFieldErrors(refusals));
        }
        return { request: r, prefix, times };
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        Object.assign(errors, error.errors);
        return null;
      }
    });
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    const [reach, shiftIds, seriesIds] = await Promise.all([
      this.policy.reach(caller),
      this.ids.many('shift', requests.length),
      this.ids.many('series', requests.filter((r) => r.recurrence).length),
    ]);
    const items: BookingItem[] = parsed.map((p, i) => {
      const { request: r, prefix, times } = p!;
      const recurrence = r.recurrence;
      const endDate = (recurrence?.end_date as string | null | undefined) ?? null;
      return {
        shiftId: shiftIds[i]!,
        userId: r.userId,
        rotaId: r.rotaId,
        times,
        ignoreOnHold: r.ignoreOnHold,
        confirmRoleRestriction: r.confirmRoleRestriction,
        series: recurrence
          ? {
              id: seriesIds.shift()!,
              frequency: Number(recurrence.recurrence_frequency),
              weekdays: weekdaysOf(recurrence, times.date),
              endDate,
              until: seriesHorizon(times.date, today, endDate),
            }
          : null,
        prefix,
      };
    });
    const rotaIds = [...new Set(items.map((i) => i.rotaId))];
    const userIds = [...new Set(items.map((i) => i.userId))];
    await this.store.write({
      gates: () => ({
        advance: items.flatMap((i) => [
          gateOf.rotaDay(i.rotaId, i.times.date),
          ...datesTouched(i.times, zone).map((d) => gateOf.userDay(i.userId, d)),
        ]),
        // Each user's identity gate held: an anonymisation of theirs commits before the standing
        // below is read (absent: refused), or waits for this booking and cancels it.
        hold: [...rotaIds.map(gateOf.rotaCalendar), ...userIds.map(identityGateOf.user)],
      }),
      facts: async (db) => ({
        ...(await this.facts.read(
          db,
          caller,
          {
            rotaIds,
            users: { ids: userIds, spans: items.map((i) => i.times) },
            days: items.map((i) => ({ rotaId: i.rotaId, date: i.times.date })),
          },
          zone,
        )),
        bookers: await this.facts.bookers(caller, userIds, db),
      }),
      streams: () =>
        Object.fromEntries(
          items.flatMap((i) => [
            [`shift ${i.shiftId}`, { streamId: streamOf.shift(i.shiftId), expect: 'no_stream' as const }],
            ...(i.series
              ? [[`series ${i.series.id}`, { streamId: streamOf.series(i.series.id), expect: 'no_stream' as const }]]
              : []),
          ]),
        ),
      decide: (_, { facts, now }) => {
        // Another organisation's rota, or none: 404 (docs/http-conventions.md#tenancy), before any rule.
        if (rotaIds.some((id) => !facts.rotas.has(id))) throw new NotFoundError('Rota');
        return decideBookShifts(items, {
          organisationId: caller.organisationId,
          ...facts,
          reach,
          now,
        });
      },
      metadata: metadataOf(caller),
    });
    return shiftIds;
  }
}
