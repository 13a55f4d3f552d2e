import type { Evolve } from '#app/event-store';
import { type RateData, streams, type SettingsEvent } from '../expenses.events.js';
import * as expenseRate from '../rates/expense-rate.js';
import type { Listed, ListedState, SaveListed } from './listed-setting.js';
import * as expenseType from './expense-type.js';

/** What the save and delete handlers need of one kind of listed setting. */
export interface ListedKind<D extends Listed, V> {
  readonly stream: (id: number) => string;
  readonly evolve: Evolve<ListedState<D>, SettingsEvent>;
  readonly decideCreate: (state: ListedState<D> | null, cmd: SaveListed<V>) => SettingsEvent[];
  readonly decideUpdate: (state: ListedState<D> | null, cmd: SaveListed<V>) => SettingsEvent[];
  readonly decideDelete: (state: ListedState<D> | null, cmd: Listed) => SettingsEvent[];
}

/** Expense types and rates: one pair of handlers serves both (listed-setting.ts makes their deciders). */
export const LISTED_KINDS = {
  type: { stream: streams.type, ...expenseType } satisfies ListedKind<
    expenseType.ExpenseTypeData,
    expenseType.ExpenseTypeValues
  >,
  rate: { stream: streams.rate, ...expenseRate } satisfies ListedKind<RateData, expenseRate.RateValues>,
};

/** Which setting a save names, with the values of its kind. */
export type ListedValues =
  | { readonly kind: 'type'; readonly values: expenseType.ExpenseTypeValues }
  | { readonly kind: 'rate'; readonly values: expenseRate.RateValues };
