import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, OrganisationFactsReader } from '#app/identity';
import { streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { BookingFactsReader } from './booking-facts.js';
import { evolve } from './shift.js';
import { shiftRota, type ShiftRotaReads } from './shift-rota.js';
import { ShiftQueries } from './shift.queries.js';
import { decideAskStandIn, decideWithdrawStandIn } from './stand-in.js';

/** Ask for a stand-in (with its note, null for none), or withdraw the request (`ask` null). */
export class StandInCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly shiftId: number,
    readonly ask: { readonly note: string | null } | null,
  ) {
    super();
  }
}

/**
 * `PUT` / `DELETE /api/rota/shifts/{id}/stand-in` (stand-in.ts): the shift the caller sees (404 /
 * 403) and its rota, then one append on the shift's stream. No gate: a request takes no place and
 * frees none; a concurrent change of the shift (a take-over, a withdrawal) makes one append lose (409).
 */
@CommandHandler(StandInCommand)
export class StandInHandler implements ICommandHandler<StandInCommand> {
  private readonly reads: ShiftRotaReads;

  constructor(
    private readonly store: EventStore,
    policy: RotasPolicy,
    facts: BookingFactsReader,
    shifts: ShiftQueries,
    organisations: OrganisationFactsReader,
  ) {
    this.reads = { policy, facts, shifts, organisations };
  }

  async execute({ caller, shiftId, ask }: StandInCommand): Promise<void> {
    const { reach, rota } = await shiftRota(this.reads, caller, shiftId);
    await this.store.handle(
      streamOf.shift(shiftId),
      evolve,
      (state, now) =>
        ask
          ? decideAskStandIn(state, { reach, note: ask.note }, { rota, now })
          : decideWithdrawStandIn(state, { reach }, { rota, now }),
      { metadata: metadataOf(caller) },
    );
  }
}
