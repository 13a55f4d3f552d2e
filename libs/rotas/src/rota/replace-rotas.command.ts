import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Caller, OrganisationFactsReader } from '#app/identity';
import { MAX_BULK_ROTAS } from '../domain/rota-rules.js';
import { RotaIds } from '../next-id.js';
import { RotasPolicy } from '../rotas.policy.js';
import { ShiftPatternQueries } from '../shift-pattern/shift-pattern.queries.js';
import { byRotaStream } from './bulk.js';
import { decideReplace } from './replace-rotas.js';
import { RotaChanges } from './rota-change.js';

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

/**
 * `POST /api/rotas/replace`: the caller's reach, today and the pattern (tenant-scoped, from the
 * `shift_patterns` table) are read first, and the timeslot ids drawn, the pattern's count for each
 * rota; then one decision over every listed rota's stream, appended together or not at all, with
 * the cancellations of the shifts left outside the new timeslots (RotaChanges). A
 * pattern is never changed after it is made (only archived), so its timeslots read here are the
 * ones it holds at the write.
 */
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
    const [reach, facts, pattern] = await Promise.all([
      this.policy.reach(caller),
      this.facts.of(caller),
      this.patterns.forRota(caller, replace.patternId),
    ]);
    // Over the limit the decision refuses the list whatever it holds: no stream is read.
    const distinct = replace.rotaIds.length <= MAX_BULK_ROTAS ? [...new Set(replace.rotaIds)] : [];
    const usable = pattern && !pattern.archived;
    const timeslotIds = usable ? await this.ids.many('timeslot', distinct.length * pattern.timeslots.length) : [];
    await this.changes.write({
      caller,
      zone: facts.timezone,
      rotaIds: distinct,
      decide: (rotas) => {
        const events = decideReplace(
          rotas,
          {
            organisationId: caller.organisationId,
            rotaIds: replace.rotaIds,
            patternId: replace.patternId,
            startDate: replace.startDate,
            endDate: replace.endDate,
            name: replace.name,
          },
          { today: facts.today, manages: reach.manages, pattern, timeslotIds },
        );
        return byRotaStream(events);
      },
    });
  }
}
