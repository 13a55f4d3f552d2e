import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, OrganisationFactsReader } from '#app/identity';
import { RotaIds } from '../next-id.js';
import type { RepeatingShiftEvent, ShiftEvent } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { BookingFactsReader } from './booking-facts.js';
import { bookShiftsWrite, parseBooking, type ShiftRequest, withIds } from './book-shifts.write.js';

export type { ShiftRequest } from './book-shifts.write.js';

/** What a booking answers: the new shifts' ids in the body's order, and the events it appended (the answer is built from them). */
export interface Booked {
  readonly ids: readonly number[];
  readonly events: readonly (ShiftEvent | RepeatingShiftEvent)[];
}

export class BookShiftsCommand extends Command<Booked> {
  constructor(
    readonly caller: Caller,
    readonly requests: readonly ShiftRequest[],
    readonly bulk: boolean,
  ) {
    super();
  }
}

/** `POST /api/rota/shifts`: the items parsed (422) and their ids drawn, then one write (bookShiftsWrite). */
@CommandHandler(BookShiftsCommand)
export class BookShiftsHandler implements ICommandHandler<BookShiftsCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly facts: BookingFactsReader,
    private readonly organisations: OrganisationFactsReader,
    private readonly ids: RotaIds,
  ) {}

  async execute({ caller, requests, bulk }: BookShiftsCommand): Promise<Booked> {
    const { timezone: zone, today } = await this.organisations.of(caller);
    const parsed = parseBooking(requests, { zone, today, bulk });
    const [reach, shifts, series] = await Promise.all([
      this.policy.reach(caller),
      this.ids.many('shift', requests.length),
      this.ids.many('series', requests.filter((r) => r.recurrence).length),
    ]);
    const items = withIds(parsed, { shifts, series });
    const write = bookShiftsWrite({ organisationId: caller.organisationId, zone, items, reach }, async (db, ask) => ({
      ...(await this.facts.read(db, caller, ask, zone)),
      bookers: await this.facts.bookers(caller, ask.userIds, db),
    }));
    const written = await this.store.write({ ...write, metadata: metadataOf(caller) });
    return { ids: shifts, events: written.events as unknown as Booked['events'] };
  }
}
