import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Caller, OrganisationFactsReader } from '#app/identity';
import { RotaIds } from '../next-id.js';
import { RotasPolicy } from '../rotas.policy.js';
import { RotaChanges } from './rota-change.js';
import type { UpdateTimeslots } from './rota-decisions.js';
import { sentTimeslots, updateTimeslotsChange } from './update-timeslots.write.js';

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

/** `PUT /api/rotas/{id}/timeslots`: reach, today and the ids read first, then one rota change (updateTimeslotsChange). */
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
    const [reach, { timezone: zone, today }, timeslotIds] = await Promise.all([
      this.policy.reach(caller),
      this.facts.of(caller),
      this.ids.many('timeslot', sentTimeslots(input.weekdays)),
    ]);
    const command = { ...input, organisationId: caller.organisationId };
    await this.changes.write(caller, updateTimeslotsChange({ rotaId, command, reach, zone, today, timeslotIds }));
  }
}
