import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { nextId } from '../next-id.js';
import type { Listed } from './listed-setting.js';
import { type ListedKind, LISTED_KINDS, type ListedValues } from './listed-kinds.js';

/** Creates (id null) or changes an expense type or rate; answers its id. */
export class SaveListedSettingCommand extends Command<number> {
  constructor(
    readonly caller: Caller,
    readonly id: number | null,
    readonly setting: ListedValues,
  ) {
    super();
  }
}

/**
 * A deleted or another organisation's setting is not found; a change to what it is already
 * records nothing (the deciders of listed-setting.ts).
 */
@CommandHandler(SaveListedSettingCommand)
export class SaveListedSettingHandler implements ICommandHandler<SaveListedSettingCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
  ) {}

  execute({ caller, id, setting }: SaveListedSettingCommand): Promise<number> {
    return setting.kind === 'type'
      ? this.save(LISTED_KINDS.type, 'type', caller, id, setting.values)
      : this.save(LISTED_KINDS.rate, 'rate', caller, id, setting.values);
  }

  private async save<D extends Listed, V>(
    kind: ListedKind<D, V>,
    sequence: 'type' | 'rate',
    caller: Caller,
    id: number | null,
    values: V,
  ): Promise<number> {
    const metadata = metadataOf(caller);
    if (id === null) {
      const newId = await nextId(this.dataSource.manager, sequence);
      await this.store.handle(
        kind.stream(newId),
        kind.evolve,
        (state) => kind.decideCreate(state, { id: newId, organisationId: caller.organisationId, values }),
        {
          expect: 'no_stream',
          metadata,
        },
      );
      return newId;
    }
    await this.store.handle(
      kind.stream(id),
      kind.evolve,
      (state) => kind.decideUpdate(state, { id, organisationId: caller.organisationId, values }),
      { metadata },
    );
    return id;
  }
}
