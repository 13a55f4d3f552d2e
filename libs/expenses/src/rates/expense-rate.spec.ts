import { describe, it } from '@jest/globals';
import { NotFoundError, testDecider, ValidationError } from '#app/platform';
import type { RateData, SettingsEvent } from '../expenses.events.js';
import { decideCreate, decideDelete, decideUpdate, evolve } from './expense-rate.js';

const rate: RateData = {
  id: 2,
  organisationId: 1,
  description: '',
  shortName: 'Car',
  startDate: null,
  endDate: null,
  rate: 0.45,
  passengerRate: 0,
  maxMiles: null,
  orderId: 0,
};
const created: SettingsEvent = { type: 'expenses.ExpenseRateCreated', data: rate };
const deleted: SettingsEvent = { type: 'expenses.ExpenseRateDeleted', data: { id: 2, organisationId: 1 } };

describe('expense rates', () => {
  const create = testDecider({ evolve, decide: decideCreate });
  const update = testDecider({ evolve, decide: decideUpdate });
  const remove = testDecider({ evolve, decide: decideDelete });

  it('given no rate, when one is created with a name and a rate, then the rest takes the defaults', () => {
    create
      .given([])
      .when({ id: 2, organisationId: 1, values: { shortName: 'Car', rate: 0.45 } })
      .then([created]);
  });

  it('given a rate, when some values change, then the rate after the change is recorded', () => {
    update
      .given([created])
      .when({ id: 2, organisationId: 1, values: { maxMiles: 100, startDate: '2026-01-01' } })
      .then([{ type: 'expenses.ExpenseRateChanged', data: { ...rate, maxMiles: 100, startDate: '2026-01-01' } }]);
  });

  it('given a rate, when it is sent as it is, then nothing is recorded', () => {
    update
      .given([created])
      .when({ id: 2, organisationId: 1, values: { shortName: 'Car', rate: 0.45 } })
      .then([]);
  });

  it('given a rate, when it would end before it starts, then it is a 422 on end_date', () => {
    create
      .given([])
      .when({
        id: 2,
        organisationId: 1,
        values: { shortName: 'Car', rate: 0.45, startDate: '2026-02-01', endDate: '2026-01-31' },
      })
      .thenThrows(ValidationError, { end_date: ['The end_date may not be before the start_date.'] });
    const starting: SettingsEvent = { type: 'expenses.ExpenseRateChanged', data: { ...rate, startDate: '2026-02-01' } };
    update
      .given([created, starting])
      .when({ id: 2, organisationId: 1, values: { endDate: '2026-01-31' } })
      .thenThrows(ValidationError, ['end_date']);
  });

  it('given no rate, a deleted one or another organisation’s, when it is changed or deleted, then it is not found', () => {
    update
      .given([])
      .when({ id: 2, organisationId: 1, values: { rate: 1 } })
      .thenThrows(NotFoundError, 'Expense rate not found');
    update
      .given([created, deleted])
      .when({ id: 2, organisationId: 1, values: { rate: 1 } })
      .thenThrows(NotFoundError);
    remove
      .given([created, deleted])
      .when({ id: 2, organisationId: 1 })
      .thenThrows(NotFoundError, 'Expense rate not found');
    remove.given([created]).when({ id: 2, organisationId: 3 }).thenThrows(NotFoundError);
  });

  it('given a rate, when it is deleted, then it leaves the list', () => {
    remove.given([created]).when({ id: 2, organisationId: 1 }).then([deleted]);
  });
});
