import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import type { Caller } from '#app/identity';
import { NotFoundError, ValidationError } from '#app/platform';
import { type RateData, type SettingsEvent, streams } from '../expenses.events.js';
import { nextId } from '../next-id.js';

type RateState = (RateData & { deleted: boolean }) | null;
const evolve = (s: RateState, e: SettingsEvent): RateState => {
  if (e.type === 'expenses.ExpenseRateCreated' || e.type === 'expenses.ExpenseRateChanged') return { ...e.data, deleted: false };
  if (e.type === 'expenses.ExpenseRateDeleted') return s && { ...s, deleted: true };
  return s;
};

export type RateValues = Partial<Omit<RateData, 'id' | 'organisationId'>>;

export class SaveExpenseRateCommand extends Command<number> {
  constructor(
    readonly caller: Caller,
    readonly id: number | null,
    readonly values: RateValues,
  ) {
    super();
  }
}

export class DeleteExpenseRateCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly id: number,
  ) {
    super();
  }
}

const DEFAULTS: Omit<RateData, 'id' | 'organisationId' | 'shortName' | 'rate'> = {
  description: '', startDate: null, endDate: null, passengerRate: 0, maxMiles: null, orderId: 0,
};

@CommandHandler(SaveExpenseRateCommand)
export class SaveExpenseRateHandler implements ICommandHandler<SaveExpenseRateCommand> {
  constructor(private readonly store: EventStore) {}

  execute({ caller, id, values }: SaveExpenseRateCommand): Promise<number> {
    return this.store.transaction(async (tx) => {
      const meta = { organisationId: caller.organisationId, actorId: caller.userId };
      let current: RateData | null = null;
      let version: number | 'no_stream' = 'no_stream';
      if (id !== null) {
        const loaded = await this.store.load(streams.rate(id), evolve, tx);
        if (!loaded.state || loaded.state.deleted || loaded.state.organisationId !== caller.organisationId) throw new NotFoundError('Expense rate');
        current = loaded.state;
        version = loaded.version;
      }
      const rateId = id ?? (await nextId(tx, 'rate'));
      const data: RateData = { ...DEFAULTS, ...(current ?? {}), ...values, id: rateId, organisationId: caller.organisationId } as RateData;
      if (data.startDate && data.endDate && data.endDate < data.startDate) throw new ValidationError({ end_date: ['The end_date may not be before the start_date.'] });
      const event: SettingsEvent = { type: id === null ? 'expenses.ExpenseRateCreated' : 'expenses.ExpenseRateChanged', data };
      await this.store.append(tx, [{ streamId: streams.rate(rateId), expectedVersion: version, events: [event] }], meta);
      return rateId;
    });
  }
}

@CommandHandler(DeleteExpenseRateCommand)
export class DeleteExpenseRateHandler implements ICommandHandler<DeleteExpenseRateCommand> {
  constructor(private readonly store: EventStore) {}

  execute({ caller, id }: DeleteExpenseRateCommand): Promise<void> {
    return this.store.transaction(async (tx) => {
      const { state, version } = await this.store.load(streams.rate(id), evolve, tx);
      if (!state || state.deleted || state.organisationId !== caller.organisationId) throw new NotFoundError('Expense rate');
      const event: SettingsEvent = { type: 'expenses.ExpenseRateDeleted', data: { id, organisationId: caller.organisationId } };
      await this.store.append(tx, [{ streamId: streams.rate(id), expectedVersion: version, events: [event] }], {
        organisationId: caller.organisationId,
        actorId: caller.userId,
      });
    });
  }
}
