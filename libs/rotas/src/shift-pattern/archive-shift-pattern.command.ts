import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { streamOf } from '../rotas.events.js';
import { decideArchive, evolve } from './shift-pattern.js';

/** `DELETE /api/shift-patterns/{id}` (an addition): archives the pattern. */
export class ArchiveShiftPatternCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly id: number,
  ) {
    super();
  }
}

/** Reads the pattern's stream and archives it (decideArchive: unknown or another organisation's is a 404; twice changes nothing). */
@CommandHandler(ArchiveShiftPatternCommand)
export class ArchiveShiftPatternHandler implements ICommandHandler<ArchiveShiftPatternCommand> {
  constructor(private readonly store: EventStore) {}

  async execute({ caller, id }: ArchiveShiftPatternCommand): Promise<void> {
    await this.store.handle(
      streamOf.pattern(id),
      evolve,
      (state) => decideArchive(state, { organisationId: caller.organisationId }),
      { metadata: metadataOf(caller) },
    );
  }
}
