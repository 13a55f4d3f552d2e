import { describe, it } from '@jest/globals';
import { ConflictError, ForbiddenError, NotFoundError, testDecider, ValidationError } from '#app/platform';
import type { ExpenseState } from '../expense/expense.js';
import type { ClaimEvent } from '../expenses.events.js';
import {
  type ClaimUpdate,
  type CreateContext,
  decideCreate,
  decideRecordMailed,
  decideUpdate,
  evolve,
  type UpdateContext,
} from './claim.js';

const now = '2026-11-21T12:00:00.000Z';
const created: ClaimEvent = {
  type: 'expenses.ClaimCreated',
  data: {
    id: 9,
    organisationId: 1,
    userId: 5,
    assignedTo: 6,
    roleId: null,
    amount: 12.5,
    notes: 'trip',
    expenseIds: [1, 2],
  },
};
const approved: ClaimEvent = {
  type: 'expenses.ClaimApproved',
  data: { id: 9, organisationId: 1, approvedBy: 6, approvedAt: '2026-11-20T10:00:00Z', note: null },
};
const rejected: ClaimEvent = {
  type: 'expenses.ClaimRejected',
  data: { id: 9, organisationId: 1, rejectedBy: 6, note: 'no', expenseIds: [1, 2] },
};
const submitted: ClaimEvent = {
  type: 'expenses.ClaimSubmitted',
  data: { id: 9, organisationId: 1, submittedBy: 6, submittedAt: '2026-11-21T10:00:00Z', financeEmail: 'f@x.example' },
};

describe('creating a claim', () => {
  const claim = testDecider({ evolve, decide: decideCreate });
  const expense = (id: number, over: Partial<ExpenseState> = {}): ExpenseState => ({
    id,
    organisationId: 1,
    userId: 5,
    typeId: 1,
    rateId: null,
    roleId: 3,
    amount: 10.1,
    description: '',
    submitted: null,
    date: '2026-11-01',
    miles: null,
    passengers: null,
    deleted: false,
    claimId: null,
    attachments: [],
    ...over,
  });
  const create = { id: 9, organisationId: 1, userId: 5, assignedTo: 6, notes: 'trip', expenseIds: [1, 2] };
  const ctx: CreateContext = {
    now,
    assigneeIsAuthoriser: true,
    requireAuthorisation: true,
    expenses: [expense(1), expense(2, { amount: 0.2 })],
  };

  it('given no claim, when the owner claims two free expenses of one role, then the claim is created with their sum', () => {
    claim
      .given([])
      .when(create, ctx)
      .then([
        {
          type: 'expenses.ClaimCreated',
          data: {
            id: 9,
            organisationId: 1,
            userId: 5,
            assignedTo: 6,
            roleId: 3,
            amount: 10.3,
            notes: 'trip',
            expenseIds: [1, 2],
          },
        },
      ]);
  });

  it('given an organisation that does not require authorisation, when a claim is made, then it is approved by nobody as it is made', () => {
    claim
      .given([])
      .when(create, { ...ctx, requireAuthorisation: false })
      .then([
        {
          type: 'expenses.ClaimCreated',
          data: {
            id: 9,
            organisationId: 1,
            userId: 5,
            assignedTo: 6,
            roleId: 3,
            amount: 10.3,
            notes: 'trip',
            expenseIds: [1, 2],
          },
        },
        {
          type: 'expenses.ClaimApproved',
          data: { id: 9, organisationId: 1, userId: 5, approvedBy: null, approvedAt: now, note: null },
        },
      ]);
  });

  it('given an authoriser who cannot authorise the caller, when a claim is made, then it is a 422 on assignedTo.id before the expenses are looked at', () => {
    claim
      .given([])
      .when(create, { ...ctx, assigneeIsAuthoriser: false, expenses: [null, null] })
      .thenThrows(ValidationError, ['assignedTo.id']);
  });

  it('given expenses that are missing, deleted, of another organisation or of another user, when claimed, then each is named in a 422', () => {
    const four = { ...create, expenseIds: [1, 2, 3, 4] };
    const expenses = [
      null,
      expense(2, { deleted: true }),
      expense(3, { organisationId: 2 }),
      expense(4, { userId: 7 }),
    ];
    claim
      .given([])
      .when(four, { ...ctx, expenses })
      .thenThrows(ValidationError, ['expenses.0.id', 'expenses.1.id', 'expenses.2.id', 'expenses.3.id']);
  });

  it('given an expense listed twice, when claimed, then it is a 422 on expenses', () => {
    claim
      .given([])
      .when({ ...create, expenseIds: [1, 1] }, { ...ctx, expenses: [expense(1), expense(1)] })
      .thenThrows(ValidationError, { expenses: ['An expense is listed twice.'] });
  });

  it('given an expense claimed already, when claimed again, then it is a conflict', () => {
    claim
      .given([])
      .when(create, { ...ctx, expenses: [expense(1), expense(2, { claimId: 4 })] })
      .thenThrows(ConflictError, 'An expense of this claim is claimed already.');
  });

  it('given expenses of two roles, when claimed together, then it is a 422 on expenses', () => {
    claim
      .given([])
      .when(create, { ...ctx, expenses: [expense(1), expense(2, { roleId: null })] })
      .thenThrows(ValidationError, ['expenses']);
  });

  it('given a claim with that id, when it is created again, then it is a conflict', () => {
    claim.given([created]).when(create, ctx).thenThrows(ConflictError);
  });
});

describe('updating a claim (the claim state table)', () => {
  const claim = testDecider({ evolve, decide: decideUpdate });
  const ctx: UpdateContext = {
    now,
    approvesOwner: false,
    selfApproves: false,
    financeEmail: 'finance@x.example',
    assigneeIsAuthoriser: true,
  };
  // The owner is user 5; user 6 approves them; user 7 is anyone else.
  const byOwner = (update: ClaimUpdate) => ({ actorId: 5, organisationId: 1, ownerId: 5, update });
  const byApprover = (update: ClaimUpdate) => ({ actorId: 6, organisationId: 1, ownerId: 5, update });
  const byStranger = (update: ClaimUpdate) => ({ actorId: 7, organisationId: 1, ownerId: 5, update });
  const approver: UpdateContext = { ...ctx, approvesOwner: true };
  const selfApprover: UpdateContext = { ...ctx, selfApproves: true };

  describe('finding the claim', () => {
    it('given no claim, when it is updated, then it is not found', () => {
      claim
        .given([])
        .when(byOwner({ notes: 'x' }), ctx)
        .thenThrows(NotFoundError, 'Claim not found');
    });
    it('given a claim of another owner than the path names, or of another organisation, then it is not found', () => {
      claim
        .given([created])
        .when({ ...byOwner({ notes: 'x' }), ownerId: 7 }, ctx)
        .thenThrows(NotFoundError);
      claim
        .given([created])
        .when({ ...byOwner({ notes: 'x' }), organisationId: 2 }, ctx)
        .thenThrows(NotFoundError);
    });
  });

  describe('owner edits (notes, assignedTo)', () => {
    it('given an open claim, when the owner changes the notes, then the claim is changed', () => {
      claim
        .given([created])
        .when(byOwner({ notes: 'bus' }), ctx)
        .then([
          { type: 'expenses.ClaimChanged', data: { id: 9, organisationId: 1, userId: 5, notes: 'bus', assignedTo: 6 } },
        ]);
    });
    it('given an open claim, when the owner changes notes and authoriser, then both change', () => {
      claim
        .given([created])
        .when(byOwner({ notes: 'new', assignedTo: 8 }), ctx)
        .then([
          { type: 'expenses.ClaimChanged', data: { id: 9, organisationId: 1, userId: 5, notes: 'new', assignedTo: 8 } },
        ]);
    });
    it('given an open claim, when the owner sends the current notes and authoriser, then nothing happens', () => {
      claim
        .given([created])
        .when(byOwner({ notes: 'trip', assignedTo: 6 }), ctx)
        .then([]);
    });
    it('given an open claim, when someone else edits it, then it is forbidden', () => {
      claim
        .given([created])
        .when(byApprover({ notes: 'x' }), approver)
        .thenThrows(ForbiddenError, 'Only the owner of a claim may change its notes or authoriser.');
    });
    it('given an approved claim, when the owner edits it, then it is a conflict', () => {
      claim
        .given([created, approved])
        .when(byOwner({ notes: 'x' }), ctx)
        .thenThrows(ConflictError, 'Only an open claim can be changed.');
    });
    it('given an authoriser who cannot authorise the owner, when the owner assigns them, then it is a 422 on assignedTo.id, as on create', () => {
      claim
        .given([created])
        .when(byOwner({ assignedTo: 7 }), { ...ctx, assigneeIsAuthoriser: false })
        .thenThrows(ValidationError, ['assignedTo.id']);
    });
  });

  describe('open → approved (approved = true)', () => {
    it('given an open claim, when an approver of the owner approves, then it is approved by them with the note', () => {
      claim
        .given([created])
        .when(byApprover({ approved: true, approvalNote: 'fine' }), approver)
        .then([
          {
            type: 'expenses.ClaimApproved',
            data: { id: 9, organisationId: 1, userId: 5, approvedBy: 6, approvedAt: now, note: 'fine' },
          },
        ]);
    });
    it('given the owner holds self-approve-claims, when the owner approves, then it is approved by the owner', () => {
      claim
        .given([created])
        .when(byOwner({ approved: true }), selfApprover)
        .then([
          {
            type: 'expenses.ClaimApproved',
            data: { id: 9, organisationId: 1, userId: 5, approvedBy: 5, approvedAt: now, note: null },
          },
        ]);
    });
    it('given neither permission, when the owner or anyone else approves, then it is forbidden', () => {
      claim
        .given([created])
        .when(byOwner({ approved: true }), ctx)
        .thenThrows(ForbiddenError);
      claim
        .given([created])
        .when(byStranger({ approved: true }), ctx)
        .thenThrows(ForbiddenError);
    });
    it('given a rejected claim, when approved, then it is a conflict', () => {
      claim
        .given([created, rejected])
        .when(byApprover({ approved: true }), approver)
        .thenThrows(ConflictError, 'A rejected claim cannot be approved.');
    });
    it('given an approved claim, when approved again, then it is a conflict', () => {
      claim
        .given([created, approved])
        .when(byApprover({ approved: true }), approver)
        .thenThrows(ConflictError, 'The claim is approved already.');
    });
  });

  describe('approved → submitted (submitted = true)', () => {
    it('given an approved claim and a finance address, when the owner submits with a date, then it is submitted at that date', () => {
      claim
        .given([created, approved])
        .when(byOwner({ submitted: true, submittedAt: '2026-11-19T00:00:00.000Z' }), ctx)
        .then([
          {
            type: 'expenses.ClaimSubmitted',
            data: {
              id: 9,
              organisationId: 1,
              submittedBy: 5,
              submittedAt: '2026-11-19T00:00:00.000Z',
              financeEmail: 'finance@x.example',
            },
          },
        ]);
    });
    it('given an approved claim, when an approver submits without a date, then it is submitted now', () => {
      claim
        .given([created, approved])
        .when(byApprover({ submitted: true }), approver)
        .then([
          {
            type: 'expenses.ClaimSubmitted',
            data: { id: 9, organisationId: 1, submittedBy: 6, submittedAt: now, financeEmail: 'finance@x.example' },
          },
        ]);
    });
    it('given an approved claim, when someone neither owner nor approver submits, then it is forbidden', () => {
      claim
        .given([created, approved])
        .when(byStranger({ submitted: true }), ctx)
        .thenThrows(ForbiddenError, 'Only the owner or an approver may submit a claim.');
    });
    it('given an open or rejected claim, when submitted, then it is a conflict', () => {
      claim
        .given([created])
        .when(byOwner({ submitted: true }), ctx)
        .thenThrows(ConflictError, 'Only an approved claim can be submitted.');
      claim
        .given([created, rejected])
        .when(byOwner({ submitted: true }), ctx)
        .thenThrows(ConflictError, 'Only an approved claim can be submitted.');
    });
    it('given a submitted claim, when submitted again, then it is a conflict', () => {
      claim
        .given([created, approved, submitted])
        .when(byOwner({ submitted: true }), ctx)
        .thenThrows(ConflictError, 'The claim was submitted already.');
    });
    it('given no valid finance address, when submitted, then it is a 422 saying so', () => {
      claim
        .given([created, approved])
        .when(byOwner({ submitted: true }), { ...ctx, financeEmail: null })
        .thenThrows(ValidationError, ['submitted']);
    });
    it('given an open claim, when an approver approves and submits in one update, then both happen in order', () => {
      claim
        .given([created])
        .when(byApprover({ approved: true, submitted: true }), approver)
        .then([
          {
            type: 'expenses.ClaimApproved',
            data: { id: 9, organisationId: 1, userId: 5, approvedBy: 6, approvedAt: now, note: null },
          },
          {
            type: 'expenses.ClaimSubmitted',
            data: { id: 9, organisationId: 1, submittedBy: 6, submittedAt: now, financeEmail: 'finance@x.example' },
          },
        ]);
    });
  });

  describe('open → rejected (rejection_note)', () => {
    it('given an open claim, when an approver rejects, then its expenses are released with it', () => {
      claim
        .given([created])
        .when(byApprover({ rejectionNote: 'receipts missing' }), approver)
        .then([
          {
            type: 'expenses.ClaimRejected',
            data: { id: 9, organisationId: 1, userId: 5, rejectedBy: 6, note: 'receipts missing', expenseIds: [1, 2] },
          },
        ]);
    });
    it('given a rejected claim, when rejected again, then it is a conflict saying so', () => {
      claim
        .given([created, rejected])
        .when(byApprover({ rejectionNote: 'x' }), approver)
        .thenThrows(ConflictError, 'The claim was rejected already.');
    });
    it('given an approved or submitted claim, when rejected, then it is a conflict', () => {
      claim
        .given([created, approved])
        .when(byApprover({ rejectionNote: 'x' }), approver)
        .thenThrows(ConflictError, 'Only an open claim can be rejected.');
      claim
        .given([created, approved, submitted])
        .when(byApprover({ rejectionNote: 'x' }), approver)
        .thenThrows(ConflictError, 'Only an open claim can be rejected.');
    });
    it('given the owner without approve-claims over themself, when rejecting, then it is forbidden', () => {
      claim
        .given([created])
        .when(byOwner({ rejectionNote: 'x' }), selfApprover)
        .thenThrows(ForbiddenError, 'Rejecting a claim needs approve-claims over its owner.');
    });
  });
});

describe('recording the finance mail of a submitted claim', () => {
  const claim = testDecider({ evolve, decide: decideRecordMailed });
  const record = { organisationId: 1, to: 'f@x.example', mailedAt: '2026-11-21T10:00:05Z' };
  const mailed: ClaimEvent = {
    type: 'expenses.ClaimSubmissionMailed',
    data: { claimId: 9, organisationId: 1, to: 'f@x.example', mailedAt: '2026-11-21T10:00:05Z' },
  };

  it('given a submitted claim, when its mail is recorded, then it is mailed to that address at that time', () => {
    claim.given([created, approved, submitted]).when(record).then([mailed]);
  });
  it('given a claim whose mail is recorded, when it is recorded again (a retried job), then nothing changes', () => {
    claim
      .given([created, approved, submitted, mailed])
      .when({ ...record, mailedAt: '2026-11-21T10:09:00Z' })
      .then([]);
  });
  it('given a claim not submitted, when its mail is recorded, then it is a conflict', () => {
    claim
      .given([created, approved])
      .when(record)
      .thenThrows(ConflictError, 'Only a submitted claim is mailed to finance.');
  });
  it('given no claim, or one of another organisation, when its mail is recorded, then it is not found', () => {
    claim.given([]).when(record).thenThrows(NotFoundError, 'Claim not found');
    claim
      .given([created, approved, submitted])
      .when({ ...record, organisationId: 2 })
      .thenThrows(NotFoundError);
  });
});
