import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { combineStreams, EventStore, streamsById } from '#app/event-store';
import { type Caller, metadataOf, OrganisationFactsReader } from '#app/identity';
import { NotFoundError } from '#app/platform';
import { checkBookingAccess } from '../domain/booking-rules.js';
import { streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { BookingFactsReader } from './booking-facts.js';
import { listedStill } from './shift-changes.js';
import { evolve as evolveShift } from './shift.js';
import { ownerOf } from './shift-changes.js';
import { bookingCaller } from './shift-decisions.js';
import { type ShiftRow, ShiftQueries } from './shift.queries.js';
import { evolve as evolveSeries } from './repeating-shift.js';
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
 * worker booked between the read and the decision makes the store plan the write again (`holds`).
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
    await this.store.write({
      plan: async ({ now }) => pick(await this.shifts.ofSeries(caller, seriesId, today), now),
      // Read again inside the write: an occurrence the worker booked since the plan makes it plan again.
      facts: (db) => this.shifts.ofSeries(caller, seriesId, today, db),
      streams: (occurrences) =>
        combineStreams(
          { series: { streamId: streamOf.series(seriesId), evolve: evolveSeries } },
          streamsById(
            occurrences.map((o) => o.id),
            streamOf.shift,
            evolveShift,
          ),
        ),
      holds: (_, { plan, facts, now }) => listedStill(plan, pick(facts, now)),
      decide: (states, { plan, now }) =>
        decideCancelSeries(
          states.series,
          plan.map((o) => states[o.id]!),
          { reach },
          { rota, today, now },
        ),
      metadata: metadataOf(caller),
    });
  }
}
