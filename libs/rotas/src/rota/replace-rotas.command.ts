import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Caller, OrganisationFactsReader } from '#app/identity';
import { RotaIds } from '../next-id.js';
import { RotasPolicy } from '../rotas.policy.js';
import { ShiftPatternQueries } from '../shift-pattern/shift-pattern.queries.js';
import { rotasToRead } from './bulk.js';
import { RotaChanges } from './rota-change.js';
import { replaceRotasChange } from './replace-rotas.write.js';

export interface ReplaceRotas {
  readonly name?: string | null;
  readonly startDate: string;
  readonly endDate?: string | null;
  readonly patternId: number;
  readonly rotaIds: readonly number[];
}

export class ReplaceRotasCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly replace: ReplaceRotas,
  ) {
    super();
  }
}

/** `POST /api/rotas/replace`: reach, today, the pattern and its timeslot ids read first, then one rota change (replaceRotasChange). */
@CommandHandler(ReplaceRotasCommand)
export class ReplaceRotasHandler implements ICommandHandler<ReplaceRotasCommand> {
  constructor(
    private readonly changes: RotaChanges,
    private readonly policy: RotasPolicy,
    private readonly facts: OrganisationFactsReader,
    private readonly patterns: ShiftPatternQueries,
    private readonly ids: RotaIds,
  ) {}

  async execute({ caller, replace }: ReplaceRotasCommand): Promise<void> {
    this.policy.requireManageRotas(caller);
    const [reach, { timezone, today }, pattern] = await Promise.all([
      this.policy.reach(caller),
      this.facts.of(caller),
      this.patterns.forRota(caller, replace.patternId),
    ]);
    const usable = pattern && !pattern.archived;
    const timeslotIds = usable
      ? await this.ids.many('timeslot', rotasToRead(replace.rotaIds).length * pattern.timeslots.length)
      : [];
    const command = { ...replace, organisationId: caller.organisationId };
    const context = { today, manages: reach.manages, pattern, timeslotIds };
    await this.changes.write(caller, replaceRotasChange(command, context, timezone));
  }
}
