/** Expense types and mileage rates, kept per organisation. */
export type SettingsEvent =
  | {
      type: 'expenses.ExpenseTypeCreated' | 'expenses.ExpenseTypeChanged';
      data: { id: number; organisationId: number; name: string; position: number };
    }
  | { type: 'expenses.ExpenseTypeDeleted'; data: { id: number; organisationId: number } }
  | { type: 'expenses.ExpenseRateCreated' | 'expenses.ExpenseRateChanged'; data: RateData }
  | { type: 'expenses.ExpenseRateDeleted'; data: { id: number; organisationId: number } };

export interface RateData {
  id: number;
  organisationId: number;
  description: string;
  shortName: string;
  startDate: string | null;
  endDate: string | null;
  rate: number;
  passengerRate: number;
  maxMiles: number | null;
  orderId: number;
}

export interface ExpenseData {
  id: number;
  organisationId: number;
  userId: number;
  typeId: number;
  rateId: number | null;
  roleId: number | null;
  amount: number;
  description: string;
  submitted: string | null;
  date: string;
  miles: number | null;
  passengers: number | null;
}

/** One expense's life (stream `expenses.Expense-<id>`). */
export type ExpenseEvent =
  | { type: 'expenses.ExpenseRecorded' | 'expenses.ExpenseChanged'; data: ExpenseData }
  | { type: 'expenses.ExpenseDeleted'; data: { id: number; organisationId: number } }
  | {
      type: 'expenses.AttachmentAdded' | 'expenses.AttachmentRemoved';
      data: { expenseId: number; organisationId: number; fileId: number };
    }
  | {
      type: 'expenses.ExpenseClaimed' | 'expenses.ExpenseReleased';
      data: { expenseId: number; organisationId: number; claimId: number };
    };

/** One claim's life (stream `expenses.Claim-<id>`). Claims are never deleted, only rejected. */
export type ClaimEvent =
  | {
      type: 'expenses.ClaimCreated';
      data: {
        id: number;
        organisationId: number;
        userId: number;
        assignedTo: number;
        roleId: number | null;
        amount: number;
        notes: string;
        expenseIds: number[];
      };
    }
  /**
   * `userId`: the claimant, whose key seals the texts (expenses.personal-data.ts); events from
   * before issue 32 lack it.
   */
  | {
      type: 'expenses.ClaimChanged';
      data: { id: number; organisationId: number; userId?: number; notes: string; assignedTo: number };
    }
  | {
      type: 'expenses.ClaimApproved';
      data: {
        id: number;
        organisationId: number;
        userId?: number;
        approvedBy: number | null;
        approvedAt: string;
        note: string | null;
      };
    }
  | {
      type: 'expenses.ClaimRejected';
      data: {
        id: number;
        organisationId: number;
        userId?: number;
        rejectedBy: number;
        note: string;
        expenseIds: number[];
      };
    }
  | {
      type: 'expenses.ClaimSubmitted';
      data: { id: number; organisationId: number; submittedBy: number; submittedAt: string; financeEmail: string };
    }
  /** The finance mail of the submitted claim went out (recorded by the worker, caused by ClaimSubmitted). */
  | {
      type: 'expenses.ClaimSubmissionMailed';
      data: { claimId: number; organisationId: number; to: string; mailedAt: string };
    };

export const streams = {
  type: (id: number) => `expenses.ExpenseType-${id}`,
  rate: (id: number) => `expenses.ExpenseRate-${id}`,
  expense: (id: number) => `expenses.Expense-${id}`,
  claim: (id: number) => `expenses.Claim-${id}`,
};
