import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, Teams } from '#app/identity';
import { isIdRef } from '#app/platform';
import { throwIfRefused } from '../domain/refusals.js';
import { RotaIds } from '../next-id.js';
import { streamOf } from '../rotas.events.js';
import { checkShiftPattern, decideCreate, evolve, type ShiftPatternBody } from './shift-pattern.js';

/** `POST /api/shift-patterns`: answers the new pattern's id. */
export class CreateShiftPatternCommand extends Command<number> {
  constructor(
    readonly caller: Caller,
    readonly body: ShiftPatternBody,
  ) {
    super();
  }
}

/**
 * A new shift pattern (the rules: checkShiftPattern). Before the write: the category's existence
 * (identity's), and, once the body passed the rules, the pattern's id and one timeslot id per
 * timeslot from the context's sequences; a refused body draws none.
 */
@CommandHandler(CreateShiftPatternCommand)
export class CreateShiftPatternHandler implements ICommandHandler<CreateShiftPatternCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly ids: RotaIds,
    private readonly teams: Teams,
  ) {}

  async execute({ caller, body }: CreateShiftPatternCommand): Promise<number> {
    const category = isIdRef(body.category) ? body.category.id : null;
    const context = {
      categoryKnown: category !== null && (await this.teams.activityCategories(caller, [category])).has(category),
    };
    const checked = checkShiftPattern(body, context);
    if (!checked.ok) throwIfRefused(checked.refusals);
    const slots = checked.ok ? checked.value.timeslots.length : 0;
    const [id, timeslotIds] = await Promise.all([this.ids.next('pattern'), this.ids.many('timeslot', slots)]);
    await this.store.handle(
      streamOf.pattern(id),
      evolve,
      (state) => decideCreate(state, { id, organisationId: caller.organisationId, body, timeslotIds }, context),
      { metadata: metadataOf(caller), expect: 'no_stream' },
    );
    return id;
  }
}
