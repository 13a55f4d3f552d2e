import { ValidationError } from '#app/platform';
import type { RateData } from '../expenses.events.js';
import { listedSetting, type ListedState, type SaveListed } from '../types/listed-setting.js';

export type ExpenseRateState = ListedState<RateData>;
export type RateValues = Partial<Omit<RateData, 'id' | 'organisationId'>>;
export type SaveExpenseRate = SaveListed<RateValues>;

const DEFAULTS: Omit<RateData, 'id' | 'organisationId' | 'shortName' | 'rate'> = {
  description: '',
  startDate: null,
  endDate: null,
  passengerRate: 0,
  maxMiles: null,
  orderId: 0,
};

/** A mileage rate: given values over the current ones (or the defaults); it may not end before it starts. */
export const { evolve, decideCreate, decideUpdate, decideDelete } = listedSetting<RateData, RateValues>({
  what: 'Expense rate',
  created: 'expenses.ExpenseRateCreated',
  changed: 'expenses.ExpenseRateChanged',
  deleted: 'expenses.ExpenseRateDeleted',
  after: (current, { id, organisationId, values }) => {
    const data = { ...DEFAULTS, ...(current ?? {}), ...values, id, organisationId } as RateData;
    if (data.startDate && data.endDate && data.endDate < data.startDate)
      throw new ValidationError({ end_date: ['The end_date may not be before the start_date.'] });
    return data;
  },
});
