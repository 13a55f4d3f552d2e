import { Injectable } from '@nestjs/common';
import { EventStore, type StreamEvents, type WriteQuery } from '#app/event-store';
import { PreparedStatements } from '#app/platform';
import type { Caller } from '#app/identity';
import { ClaimQueries, type ClaimView } from './claim/claim.queries.js';
import { ExpenseQueries, type ExpenseView, recordedExpenseView } from './expense/expense.queries.js';
import { type ExpenseData, type ExpenseEvent, streams } from './expenses.events.js';

/** What the expenses context holds of one user, for a personal-data export (docs/privacy.md#access-and-portability). */
export interface ExpensesPersonalData {
  expenses: ExpenseView[];
  claims: ClaimView[];
}

/**
 * Records as the API shows them, for other contexts that hand them on (webhooks): read by the
 * same queries as the routes, for the organisation given, with no caller (no includes).
 */
@Injectable()
export class ExpenseRecords {
  constructor(
    private readonly expenses: ExpenseQueries,
    private readonly claims: ClaimQueries,
    private readonly store: EventStore,
    private readonly prepared: PreparedStatements,
  ) {}

  /**
   * docs/privacy.md#anonymising-a-user, 3: the anonymise write removes every attachment of the users'
   * expenses, each an AttachmentRemoved on its expense's stream (appended without reading it).
   */
  async attachmentRemovals(userIds: readonly number[], db: WriteQuery = this.prepared): Promise<StreamEvents[]> {
    if (userIds.length === 0) return [];
    const rows = await db.query<{ expense_id: string; file_id: string; organisation_id: string }>(
      `SELECT a.expense_id, a.file_id, a.organisation_id FROM expense_attachments a JOIN expenses e ON e.id = a.expense_id
        WHERE e.user_id = ANY($1::bigint[]) ORDER BY a.expense_id, a.file_id`,
      [userIds],
    );
    const byExpense = new Map<number, ExpenseEvent[]>();
    for (const r of rows) {
      const expenseId = Number(r.expense_id);
      const event: ExpenseEvent = {
        type: 'expenses.AttachmentRemoved',
        data: { expenseId, organisationId: Number(r.organisation_id), fileId: Number(r.file_id) },
      };
      byExpense.set(expenseId, [...(byExpense.get(expenseId) ?? []), event]);
    }
    return [...byExpense].map(([id, events]) => ({ streamId: streams.expense(id), events }));
  }

  /** The Expense; a deleted one as it was before the deletion, rebuilt from its stream. */
  async expense(organisationId: number, id: number): Promise<ExpenseView | null> {
    const [view] = await this.expenses.byIds(nobody(organisationId), [id]);
    return view ?? this.asItWas(organisationId, id);
  }

  /**
   * Every expense and claim of the user as the routes show them without includes: other people
   * (a claim's authoriser and approver) appear by id only.
   */
  async personalData(organisationId: number, userId: number): Promise<ExpensesPersonalData> {
    const tenant = nobody(organisationId);
    return {
      expenses: await this.expenses.allOfUser(tenant, userId),
      claims: await this.claims.allOfUser(tenant, userId),
    };
  }

  /** The Claim plus its `id` and `user_id` (they are in the view). */
  async claim(organisationId: number, id: number): Promise<ClaimView | null> {
    return this.claims.byIdForSystem(nobody(organisationId), id);
  }

  private async asItWas(organisationId: number, id: number): Promise<ExpenseView | null> {
    const events = (await this.store.readStream(streams.expense(id))) as unknown as (ExpenseEvent & {
      recordedAt: Date;
    })[];
    let data: ExpenseData | null = null;
    let createdAt: Date | null = null;
    let updatedAt: Date | null = null;
    let claimed = false;
    for (const e of events) {
      if (e.type === 'expenses.ExpenseRecorded' || e.type === 'expenses.ExpenseChanged') {
        data = e.data;
        createdAt ??= e.recordedAt;
        updatedAt = e.recordedAt;
      } else if (e.type === 'expenses.ExpenseClaimed' || e.type === 'expenses.ExpenseReleased') {
        claimed = e.type === 'expenses.ExpenseClaimed';
      }
    }
    if (!data || data.organisationId !== organisationId) return null;
    return {
      ...recordedExpenseView(data, createdAt!),
      updated_at: recordedExpenseView(data, updatedAt!).updated_at,
      claimed,
    };
  }
}

/** A caller with no user and no permission: reads scoped to the organisation, nothing judged for anyone. */
function nobody(organisationId: number): Caller {
  return { userId: 0, organisationId, permissions: new Set(), sessionId: '', jti: '' };
}
