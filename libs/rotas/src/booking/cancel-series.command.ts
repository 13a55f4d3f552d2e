import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, OrganisationFactsReader } from '#app/identity';
import { NotFoundError } from '#app/platform';
import { checkBookingAccess } from '../domain/booking-rules.js';
import { streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { BookingFactsReader } from './booking-facts.js';
import { assertListed } from './shift-access.js';
import { evolve as evolveShift, type ShiftState } from './shift.js';
import { ownerOf } from './shift-changes.js';
import { bookingCaller } from './shift-decisions.js';
import { type ShiftRow, ShiftQueries } from './shift.queries.js';
import { evolve as evolveSeries, type SeriesState } from './repeating-shift.js';
import { RepeatingShiftQueries } from './repeating-shift.queries.js';
import { decideCancelSeries } from './series-changes.js';

export class CancelSeriesCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly seriesId: number,
  ) {
    super();
  }
}

/**
 * `DELETE /api/rota/repeating-shifts/{id}` (decideCancelSeries). Before the write: the series (404 /
 * 403 when its rota is not seen), its rota and the access rules (403), and its occurrences from
 * today on. Then one append over the series' stream and theirs. No gate (cancellations only free
 * places); the series' stream orders it against the worker's generation, and an occurrence the
 * worker booked between the read and the decision makes the store plan the write again (PlanMoved).
 */
@CommandHandler(CancelSeriesCommand)
export class CancelSeriesHandler implements ICommandHandler<CancelSeriesCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly facts: BookingFactsReader,
    private readonly shifts: ShiftQueries,
    private readonly series: RepeatingShiftQueries,
    private readonly organisations: OrganisationFactsReader,
  ) {}

  async execute({ caller, seriesId }: CancelSeriesCommand): Promise<void> {
    const [{ timezone: zone, today }, reach] = await Promise.all([
      this.organisations.of(caller),
      this.policy.reach(caller),
    ]);
    const row = await this.series.seen(caller, reach, seriesId);
    const rota = (await this.facts.rotas(caller, [row.rotaId], zone)).get(row.rotaId);
    if (!rota) throw new NotFoundError('Repeating shift');
    checkBookingAccess({
      action: 'cancel',
      rota,
      user: ownerOf(row.userId),
      caller: bookingCaller({ reach }, rota.teamId),
    });
    const pick = (rows: ShiftRow[], now: number) => rows.filter((s) => Date.parse(s.start) > now);
    await this.store.write(async () => {
      const now = Date.now();
      const occurrences = pick(await this.shifts.ofSeries(caller, seriesId, today), now);
      return {
        // Read after the series' own lock (its stream): an occurrence the worker booked since the list makes the store plan again.
        facts: (db) => assertListed(this.shifts, db, caller, seriesId, today, occurrences, (rows) => pick(rows, now)),
        streams: {
          series: { streamId: streamOf.series(seriesId), evolve: evolveSeries },
          ...Object.fromEntries(
            occurrences.map((o) => [o.id, { streamId: streamOf.shift(o.id), evolve: evolveShift }]),
          ),
        },
        decide: (states) =>
          decideCancelSeries(
            states.series as SeriesState | null,
            occurrences.map((o) => (states as Record<string, unknown>)[o.id] as ShiftState | null),
            { reach },
            { rota, today, now },
          ),
        metadata: metadataOf(caller),
      };
    });
  }
}
