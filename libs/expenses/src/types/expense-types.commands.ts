import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import type { Caller } from '#app/identity';
import { NotFoundError } from '#app/platform';
import { type SettingsEvent, streams } from '../expenses.events.js';
import { nextId } from '../next-id.js';

type TypeState = { organisationId: number; name: string; position: number; deleted: boolean } | null;
const evolve = (s: TypeState, e: SettingsEvent): TypeState => {
  if (e.type === 'expenses.ExpenseTypeCreated' || e.type === 'expenses.ExpenseTypeChanged') return { ...e.data, deleted: false };
  if (e.type === 'expenses.ExpenseTypeDeleted') return s && { ...s, deleted: true };
  return s;
};

export class SaveExpenseTypeCommand extends Command<number> {
  constructor(
    readonly caller: Caller,
    readonly id: number | null,
    readonly values: { name?: string; position?: number },
  ) {
    super();
  }
}

export class DeleteExpenseTypeCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly id: number,
  ) {
    super();
  }
}

/** Creates (id null) or changes an expense type; a deleted or foreign type is not found. */
@CommandHandler(SaveExpenseTypeCommand)
export class SaveExpenseTypeHandler implements ICommandHandler<SaveExpenseTypeCommand> {
  constructor(private readonly store: EventStore) {}

  execute({ caller, id, values }: SaveExpenseTypeCommand): Promise<number> {
    return this.store.transaction(async (tx) => {
      const meta = { organisationId: caller.organisationId, actorId: caller.userId };
      if (id === null) {
        const newId = await nextId(tx, 'type');
        const event: SettingsEvent = { type: 'expenses.ExpenseTypeCreated', data: { id: newId, organisationId: caller.organisationId, name: values.name!, position: values.position ?? 0 } };
        await this.store.append(tx, [{ streamId: streams.type(newId), expectedVersion: 'no_stream', events: [event] }], meta);
        return newId;
      }
      const { state, version } = await this.store.load(streams.type(id), evolve, tx);
      if (!state || state.deleted || state.organisationId !== caller.organisationId) throw new NotFoundError('Expense type');
      const event: SettingsEvent = { type: 'expenses.ExpenseTypeChanged', data: { id, organisationId: caller.organisationId, name: values.name ?? state.name, position: values.position ?? state.position } };
      await this.store.append(tx, [{ streamId: streams.type(id), expectedVersion: version, events: [event] }], meta);
      return id;
    });
  }
}

/** Deleting takes a type off the list; expenses that have it keep it. */
@CommandHandler(DeleteExpenseTypeCommand)
export class DeleteExpenseTypeHandler implements ICommandHandler<DeleteExpenseTypeCommand> {
  constructor(private readonly store: EventStore) {}

  execute({ caller, id }: DeleteExpenseTypeCommand): Promise<void> {
    return this.store.transaction(async (tx) => {
      const { state, version } = await this.store.load(streams.type(id), evolve, tx);
      if (!state || state.deleted || state.organisationId !== caller.organisationId) throw new NotFoundError('Expense type');
      const event: SettingsEvent = { type: 'expenses.ExpenseTypeDeleted', data: { id, organisationId: caller.organisationId } };
      await this.store.append(tx, [{ streamId: streams.type(id), expectedVersion: version, events: [event] }], {
        organisationId: caller.organisationId,
        actorId: caller.userId,
      });
    });
  }
}
