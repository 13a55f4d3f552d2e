import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import type { Listed } from './listed-setting.js';
import { type ListedKind, LISTED_KINDS } from './listed-kinds.js';

/** Takes an expense type or rate off the lists; expenses that have it keep it. */
export class DeleteListedSettingCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly kind: keyof typeof LISTED_KINDS,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteListedSettingCommand)
export class DeleteListedSettingHandler implements ICommandHandler<DeleteListedSettingCommand> {
  constructor(private readonly store: EventStore) {}

  execute({ caller, kind, id }: DeleteListedSettingCommand): Promise<void> {
    return kind === 'type' ? this.delete(LISTED_KINDS.type, caller, id) : this.delete(LISTED_KINDS.rate, caller, id);
  }

  private async delete<D extends Listed, V>(kind: ListedKind<D, V>, caller: Caller, id: number): Promise<void> {
    await this.store.handle(
      kind.stream(id),
      kind.evolve,
      (state) => kind.decideDelete(state, { id, organisationId: caller.organisationId }),
      { metadata: metadataOf(caller) },
    );
  }
}
