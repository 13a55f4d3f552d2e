import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, OrganisationFactsReader } from '#app/identity';
import { idSource } from '../domain/timeslot-timeline.js';
import { MAX_TIMESLOTS } from '../domain/weekly-timeslots.js';
import { RotaIds } from '../next-id.js';
import { gateOf, streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { evolve } from './rota.js';
import { decideUpdateTimeslots, type UpdateTimeslots } from './rota-decisions.js';

export type UpdateTimeslotsInput = Omit<UpdateTimeslots, 'organisationId'>;

export class UpdateTimeslotsCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly rotaId: number,
    readonly input: UpdateTimeslotsInput,
  ) {
    super();
  }
}

/** How many timeslots the body holds (at most MAX_TIMESLOTS ids are drawn: more is refused). */
function sentTimeslots(weekdays: unknown): number {
  if (typeof weekdays !== 'object' || weekdays === null) return 0;
  const count = Object.values(weekdays).reduce((n: number, day) => n + (Array.isArray(day) ? day.length : 0), 0);
  return Math.min(count, MAX_TIMESLOTS);
}

/**
 * `PUT /api/rotas/{id}/timeslots` (decideUpdateTimeslots): manage-rotas over the rota's team (404
 * unknown or another organisation's, 403 hidden or not managed); "today" is the organisation
 * zone's; the new timeslots' ids are drawn before the decision.
 */
@CommandHandler(UpdateTimeslotsCommand)
export class UpdateTimeslotsHandler implements ICommandHandler<UpdateTimeslotsCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly facts: OrganisationFactsReader,
    private readonly ids: RotaIds,
  ) {}

  async execute({ caller, rotaId, input }: UpdateTimeslotsCommand): Promise<void> {
    this.policy.requireManageRotas(caller);
    const [reach, facts, ids] = await Promise.all([
      this.policy.reach(caller),
      this.facts.of(caller),
      this.ids.many('timeslot', sentTimeslots(input.weekdays)),
    ]);
    await this.store.handle(
      streamOf.rota(rotaId),
      evolve,
      (state) => {
        this.policy.assertManages(reach, state?.organisationId === caller.organisationId ? state : null);
        return decideUpdateTimeslots(
          state,
          { ...input, organisationId: caller.organisationId },
          { today: facts.today, newIds: idSource(ids) },
        );
      },
      // Shifts booked meanwhile hold this gate: they wait for this change, or decide again after it (ADR 0008).
      { metadata: metadataOf(caller), gates: { advance: [gateOf.rotaCalendar(rotaId)] } },
    );
  }
}
