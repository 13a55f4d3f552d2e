import { describe, it } from '@jest/globals';
import { ConflictError, ForbiddenError, NotFoundError, testDecider, ValidationError } from '#app/platform';
import type { ExpenseData, ExpenseEvent } from '../expenses.events.js';
import {
  type AttachContext,
  decideAttach,
  decideCreate,
  decideDelete,
  decideUpdate,
  evolve,
  type ExpenseValues,
  type MileageRate,
  type SaveContext,
} from './expense.js';

// The owner is user 5 of organisation 1.
const owner = { organisationId: 1, userId: 5 };
const data: ExpenseData = {
  id: 3,
  organisationId: 1,
  userId: 5,
  typeId: 1,
  rateId: null,
  roleId: null,
  date: '2026-11-01',
  miles: null,
  passengers: null,
  amount: 12.5,
  description: 'train',
  submitted: null,
};
const recorded: ExpenseEvent = { type: 'expenses.ExpenseRecorded', data };
const claimed: ExpenseEvent = {
  type: 'expenses.ExpenseClaimed',
  data: { expenseId: 3, organisationId: 1, claimId: 9 },
};
const released: ExpenseEvent = {
  type: 'expenses.ExpenseReleased',
  data: { expenseId: 3, organisationId: 1, claimId: 9 },
};
const deleted: ExpenseEvent = { type: 'expenses.ExpenseDeleted', data: { id: 3, organisationId: 1 } };
const attached = (fileId: number): ExpenseEvent => ({
  type: 'expenses.AttachmentAdded',
  data: { expenseId: 3, organisationId: 1, fileId },
});

const rate: MileageRate = {
  start_date: '2026-01-01',
  end_date: '2026-12-31',
  max_miles: 100,
  rate: 0.45,
  passenger_rate: 0.05,
};
const ctx: SaveContext = { today: '2026-11-21', maxAgeMonths: 3, typeKnown: true, rate: null, roleIsOwn: true };
const save = (values: ExpenseValues, by = owner) => ({ id: 3, ...by, values });

describe('recording an expense', () => {
  const expense = testDecider({ evolve, decide: decideCreate });
  const full: ExpenseValues = { typeId: 1, date: '2026-11-01', amount: 12.5, description: 'train' };

  it('given no expense, when the owner records one with an amount, then it is recorded with the defaults filled in', () => {
    expense.given([]).when(save(full), ctx).then([recorded]);
  });

  it('given no expense, when one is recorded with a rate, then the amount is the mileage: miles × rate + miles × passengers × passenger rate', () => {
    expense
      .given([])
      .when(save({ typeId: 1, date: '2026-11-01', rateId: 2, miles: 12.5, passengers: 2 }), { ...ctx, rate })
      .then([
        {
          type: 'expenses.ExpenseRecorded',
          data: { ...data, rateId: 2, miles: 12.5, passengers: 2, amount: 6.88, description: '' },
        },
      ]);
  });

  it('given no expense, when one is recorded with nothing, then the type, the date and the amount are required', () => {
    expense
      .given([])
      .when(save({}), ctx)
      .thenThrows(ValidationError, {
        'type.id': ['The type field is required.'],
        date: ['The date field is required.'],
        amount: ['The amount field is required without a rate.'],
      });
  });

  it('given a type, rate or role that is not the organisation’s or the caller’s, when recorded, then each is named in one 422', () => {
    expense
      .given([])
      .when(save({ ...full, rateId: 8, roleId: 4 }), { ...ctx, typeKnown: false, rate: null, roleIsOwn: false })
      .thenThrows(ValidationError, {
        'type.id': ['The selected type is invalid.'],
        'rate.id': ['The selected rate is invalid.'],
        'role.id': ['The role must be one of your roles.'],
      });
  });

  it('given a date in the future or older than the organisation allows, when recorded, then the date is refused', () => {
    expense
      .given([])
      .when(save({ ...full, date: '2026-11-22' }), ctx)
      .thenThrows(ValidationError, { date: ['The date may not be in the future.'] });
    expense
      .given([])
      .when(save({ ...full, date: '2026-08-20' }), ctx)
      .thenThrows(ValidationError, { date: ['The date may not be more than 3 months ago.'] });
  });

  it('given a rate, when recorded without miles, too many miles or outside its dates, then it is refused', () => {
    const withRate = { ...full, amount: undefined, rateId: 2 };
    expense
      .given([])
      .when(save(withRate), { ...ctx, rate })
      .thenThrows(ValidationError, ['miles']);
    expense
      .given([])
      .when(save({ ...withRate, miles: 101 }), { ...ctx, rate })
      .thenThrows(ValidationError, { miles: ['The miles may not be greater than 100 for this rate.'] });
    expense
      .given([])
      .when(save({ ...withRate, miles: 5 }), { ...ctx, rate: { ...rate, end_date: '2026-10-31' } })
      .thenThrows(ValidationError, ['rate.id']);
  });

  it('given an expense with that id, when recorded again, then it is a conflict', () => {
    expense.given([recorded]).when(save(full), ctx).thenThrows(ConflictError);
  });
});

describe('changing an expense', () => {
  const expense = testDecider({ evolve, decide: decideUpdate });

  it('given the owner’s expense, when the owner changes the amount, then the whole expense after the change is recorded', () => {
    expense
      .given([recorded])
      .when(save({ amount: 20 }), ctx)
      .then([{ type: 'expenses.ExpenseChanged', data: { ...data, amount: 20 } }]);
  });

  it('given the owner’s expense, when the values sent are the current ones, then nothing is recorded', () => {
    expense
      .given([recorded])
      .when(save({ amount: 12.5, description: 'train' }), ctx)
      .then([]);
  });

  it('given an expense with a rate, when the rate is cleared, then it keeps its amount and miles', () => {
    const withRate: ExpenseEvent = {
      type: 'expenses.ExpenseRecorded',
      data: { ...data, rateId: 2, miles: 10, amount: 4.5 },
    };
    expense
      .given([withRate])
      .when(save({ rateId: null }), ctx)
      .then([{ type: 'expenses.ExpenseChanged', data: { ...data, rateId: null, miles: 10, amount: 4.5 } }]);
  });

  it('given no expense, a deleted one, or one of another user or organisation, when changed, then it is not found', () => {
    expense
      .given([])
      .when(save({ amount: 1 }), ctx)
      .thenThrows(NotFoundError, 'Expense not found');
    expense
      .given([recorded, deleted])
      .when(save({ amount: 1 }), ctx)
      .thenThrows(NotFoundError);
    expense
      .given([recorded])
      .when(save({ amount: 1 }, { organisationId: 1, userId: 6 }), ctx)
      .thenThrows(NotFoundError);
    expense
      .given([recorded])
      .when(save({ amount: 1 }, { organisationId: 2, userId: 5 }), ctx)
      .thenThrows(NotFoundError);
  });

  it('given a claimed expense, when changed, then it is a conflict; once the claim is rejected, it may change again', () => {
    expense
      .given([recorded, claimed])
      .when(save({ amount: 1 }), ctx)
      .thenThrows(ConflictError, 'A claimed expense cannot be changed or deleted.');
    expense
      .given([recorded, claimed, released])
      .when(save({ amount: 1 }), ctx)
      .then([{ type: 'expenses.ExpenseChanged', data: { ...data, amount: 1 } }]);
  });

  it('given the owner’s expense, when a bad value is sent, then the rules apply as on create', () => {
    expense
      .given([recorded])
      .when(save({ date: '2027-01-01' }), ctx)
      .thenThrows(ValidationError, ['date']);
  });
});

describe('deleting an expense', () => {
  const expense = testDecider({ evolve, decide: decideDelete });
  const del = { id: 3, ...owner };

  it('given the owner’s unclaimed expense, when the owner deletes it, then it is deleted', () => {
    expense.given([recorded]).when(del).then([deleted]);
  });
  it('given a claimed expense, when deleted, then it is a conflict', () => {
    expense.given([recorded, claimed]).when(del).thenThrows(ConflictError);
  });
  it('given a deleted expense or another user’s, when deleted, then it is not found', () => {
    expense.given([recorded, deleted]).when(del).thenThrows(NotFoundError);
    expense
      .given([recorded])
      .when({ ...del, userId: 6 })
      .thenThrows(NotFoundError);
  });
});

describe('attaching files to an expense', () => {
  const expense = testDecider({ evolve, decide: decideAttach });
  const attach = (fileId: number, on = true) => ({ expenseId: 3, fileId, attach: on, ...owner });
  const mine: AttachContext = { file: { ownerId: 5 } };

  it('given the owner’s expense, when the owner attaches a file they uploaded, then it is attached', () => {
    expense
      .given([recorded])
      .when(attach(7), mine)
      .then([attached(7)]);
  });
  it('given a file attached already, when attached again, then nothing happens', () => {
    expense
      .given([recorded, attached(7)])
      .when(attach(7), mine)
      .then([]);
  });
  it('given an attached file, when taken off, then it is removed', () => {
    expense
      .given([recorded, attached(7)])
      .when(attach(7, false), mine)
      .then([{ type: 'expenses.AttachmentRemoved', data: { expenseId: 3, organisationId: 1, fileId: 7 } }]);
  });
  it('given a file that is not attached, when taken off, then the attachment is not found', () => {
    expense.given([recorded]).when(attach(7, false), mine).thenThrows(NotFoundError, 'Attachment not found');
  });
  it('given a file the caller cannot see, when attached, then the file is not found, before the expense is looked at', () => {
    expense.given([]).when(attach(7), { file: null }).thenThrows(NotFoundError, 'File not found');
  });
  it('given another user’s expense, when attached to, then the expense is not found', () => {
    expense
      .given([recorded])
      .when({ ...attach(7), userId: 6 }, { file: { ownerId: 6 } })
      .thenThrows(NotFoundError, 'Expense not found');
  });
  it('given a file someone else uploaded, when attached, then it is forbidden', () => {
    expense
      .given([recorded])
      .when(attach(7), { file: { ownerId: 8 } })
      .thenThrows(ForbiddenError, 'Only files you uploaded can be attached.');
  });
  it('given a claimed expense, when a file is attached or taken off, then it is a conflict', () => {
    expense.given([recorded, claimed]).when(attach(7), mine).thenThrows(ConflictError);
    expense
      .given([recorded, attached(7), claimed])
      .when(attach(7, false), mine)
      .thenThrows(ConflictError);
  });
});
