import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, OrganisationFactsReader } from '#app/identity';
import { RotaIds } from '../next-id.js';
import { RotasPolicy } from '../rotas.policy.js';
import { BookingFactsReader } from './booking-facts.js';
import { changeShiftWrite, type ShiftChange } from './change-shift.write.js';
import { RepeatingShiftQueries } from './repeating-shift.queries.js';
import { shiftToChange } from './shift-access.js';
import { ShiftQueries } from './shift.queries.js';

export type { ShiftChange } from './change-shift.write.js';

export class ChangeShiftCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly shiftId: number,
    readonly change: ShiftChange,
  ) {
    super();
  }
}

/** `PUT /api/rota/shifts/{id}`: one write (changeShiftWrite), its reads scoped to the caller. */
@CommandHandler(ChangeShiftCommand)
export class ChangeShiftHandler implements ICommandHandler<ChangeShiftCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly facts: BookingFactsReader,
    private readonly shifts: ShiftQueries,
    private readonly series: RepeatingShiftQueries,
    private readonly organisations: OrganisationFactsReader,
    private readonly ids: RotaIds,
  ) {}

  async execute({ caller, shiftId, change }: ChangeShiftCommand): Promise<void> {
    const [{ timezone: zone, today }, reach] = await Promise.all([
      this.organisations.of(caller),
      this.policy.reach(caller),
    ]);
    const write = changeShiftWrite(
      { change, zone, today, reach },
      {
        shift: async () => (await shiftToChange(this.shifts, this.facts, caller, reach, 'edit', shiftId, zone)).row,
        series: (seriesId) => this.series.row(caller, seriesId),
        bookers: (userIds) => this.facts.bookers(caller, userIds),
        newSeriesId: () => this.ids.next('series'),
        occurrences: (seriesId, from, db) => this.shifts.ofSeries(caller, seriesId, from, db),
        facts: (db, ask) => this.facts.read(db, caller, ask, zone),
      },
    );
    await this.store.write({ ...write, metadata: metadataOf(caller) });
  }
}
