import { describe, it } from '@jest/globals';
import { NotFoundError, testDecider } from '#app/platform';
import type { SettingsEvent } from '../expenses.events.js';
import { decideCreate, decideDelete, decideUpdate, evolve } from './expense-type.js';

const created: SettingsEvent = {
  type: 'expenses.ExpenseTypeCreated',
  data: { id: 4, organisationId: 1, name: 'Travel', position: 2 },
};
const deleted: SettingsEvent = { type: 'expenses.ExpenseTypeDeleted', data: { id: 4, organisationId: 1 } };

describe('expense types', () => {
  const create = testDecider({ evolve, decide: decideCreate });
  const update = testDecider({ evolve, decide: decideUpdate });
  const remove = testDecider({ evolve, decide: decideDelete });

  it('given no type, when one is created without a position, then it is created at position 0', () => {
    create
      .given([])
      .when({ id: 4, organisationId: 1, values: { name: 'Travel' } })
      .then([{ ...created, data: { ...created.data, position: 0 } }]);
  });

  it('given a type, when its name changes, then the type after the change is recorded', () => {
    update
      .given([created])
      .when({ id: 4, organisationId: 1, values: { name: 'Trains' } })
      .then([{ type: 'expenses.ExpenseTypeChanged', data: { id: 4, organisationId: 1, name: 'Trains', position: 2 } }]);
  });

  it('given a type, when it is sent as it is, then nothing is recorded', () => {
    update
      .given([created])
      .when({ id: 4, organisationId: 1, values: { name: 'Travel', position: 2 } })
      .then([]);
  });

  it('given no type, a deleted one or another organisation’s, when it is changed or deleted, then it is not found', () => {
    update
      .given([])
      .when({ id: 4, organisationId: 1, values: { name: 'x' } })
      .thenThrows(NotFoundError, 'Expense type not found');
    update
      .given([created, deleted])
      .when({ id: 4, organisationId: 1, values: { name: 'x' } })
      .thenThrows(NotFoundError);
    update
      .given([created])
      .when({ id: 4, organisationId: 2, values: { name: 'x' } })
      .thenThrows(NotFoundError);
    remove
      .given([created, deleted])
      .when({ id: 4, organisationId: 1 })
      .thenThrows(NotFoundError, 'Expense type not found');
    remove.given([created]).when({ id: 4, organisationId: 2 }).thenThrows(NotFoundError);
  });

  it('given a type, when it is deleted, then it leaves the list', () => {
    remove.given([created]).when({ id: 4, organisationId: 1 }).then([deleted]);
  });
});
