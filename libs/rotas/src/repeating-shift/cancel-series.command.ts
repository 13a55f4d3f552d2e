import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore, type HandledStream } from '#app/event-store';
import { type Caller, metadataOf, OrganisationFactsReader } from '#app/identity';
import { NotFoundError } from '#app/platform';
import { checkBookingAccess } from '../domain/booking-rules.js';
import { streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { BOOKING_RETRIES } from '../shift/book-shifts.command.js';
import { BookingFactsReader } from '../shift/booking-facts.js';
import { assertListed, replanning } from '../shift/change-shift.command.js';
import { evolve as evolveShift, type ShiftState } from '../shift/shift.js';
import { ownerOf } from '../shift/shift-changes.js';
import { bookingCaller } from '../shift/shift-decisions.js';
import { type ShiftRow, ShiftQueries } from '../shift/shift.queries.js';
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
 * worker booked between the read and the decision makes it read again (replanning).
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
    await replanning(async () => {
      const now = Date.now();
      const pick = (rows: ShiftRow[]) => rows.filter((s) => Date.parse(s.start) > now);
      const occurrences = pick(await this.shifts.ofSeries(caller, seriesId, today));
      const streams: HandledStream[] = [
        { streamId: streamOf.series(seriesId), evolve: evolveSeries },
        ...occurrences.map((o) => ({ streamId: streamOf.shift(o.id), evolve: evolveShift })),
      ];
      await this.store.handleMany(
        streams,
        async (states) => {
          await assertListed(this.shifts, caller, seriesId, today, occurrences, pick);
          const [series, ...shifts] = states as (SeriesState | ShiftState | null)[];
          return decideCancelSeries(
            series as SeriesState | null,
            shifts as (ShiftState | null)[],
            { reach },
            { rota, today, now },
          );
        },
        { metadata: metadataOf(caller), retries: BOOKING_RETRIES },
      );
    });
  }
}
