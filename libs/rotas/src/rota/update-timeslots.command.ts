import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Caller, OrganisationFactsReader } from '#app/identity';
import { idSource } from '../domain/timeslot-timeline.js';
import { MAX_TIMESLOTS } from '../domain/weekly-timeslots.js';
import { RotaIds } from '../next-id.js';
import { streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { RotaChanges } from './rota-change.js';
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
 * zone's; the new timeslots' ids are drawn before the decision. The shifts left outside the new
 * timeslots are cancelled in the same write (RotaChanges).
 */
@CommandHandler(UpdateTimeslotsCommand)
export class UpdateTimeslotsHandler implements ICommandHandler<UpdateTimeslotsCommand> {
  constructor(
    private readonly changes: RotaChanges,
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
    await this.changes.write({
      caller,
      zone: facts.timezone,
      rotaIds: [rotaId],
      decide: (rotas) => {
        const state = rotas.get(rotaId) ?? null;
        this.policy.assertManages(reach, state?.organisationId === caller.organisationId ? state : null);
        const events = decideUpdateTimeslots(
          state,
          { ...input, organisationId: caller.organisationId },
          // A fresh source each attempt: the write may run again (RotaChanges).
          { today: facts.today, newIds: idSource(ids) },
        );
        return [{ streamId: streamOf.rota(rotaId), events }];
      },
    });
  }
}
