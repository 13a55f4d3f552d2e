import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, OrganisationFactsReader } from '#app/identity';
import { RotasPolicy } from '../rotas.policy.js';
import { BookingFactsReader } from './booking-facts.js';
import { cancelSeriesWrite, rotaToCancel } from './cancel-series.write.js';
import { RepeatingShiftQueries } from './repeating-shift.queries.js';
import { ShiftQueries } from './shift.queries.js';

export class CancelSeriesCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly seriesId: number,
  ) {
    super();
  }
}

/** `DELETE /api/rota/repeating-shifts/{id}`: the series seen (404 / 403), its rota's access rules, then one write (cancelSeriesWrite). */
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
    const rota = rotaToCancel(row, (await this.facts.rotas(caller, [row.rotaId], zone)).get(row.rotaId), reach);
    const write = cancelSeriesWrite({ seriesId, rota, today, reach }, (db) =>
      this.shifts.ofSeries(caller, seriesId, today, db),
    );
    await this.store.write({ ...write, metadata: metadataOf(caller) });
  }
}
