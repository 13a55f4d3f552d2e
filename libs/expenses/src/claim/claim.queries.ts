import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Caller, Hierarchy, Roles, UserBases } from '#app/identity';
import { NotFoundError, offsetOf, type PageRequest } from '#app/platform';
import { ExpenseQueries } from '../expense/expense.queries.js';
import { num, sqlIso } from '../format.js';

export const CLAIM_INCLUDES = ['user', 'expenses', 'assignedTo', 'approvedBy', 'role', 'role.roleProfile'] as const;
export type ClaimInclude = (typeof CLAIM_INCLUDES)[number];
export const CLAIM_SORTS = ['created_at', 'amount', 'approved_at', 'assignedTo', 'authorised_user_id', 'submitted_date', 'user'] as const;
export type ClaimSort = (typeof CLAIM_SORTS)[number];

const ORDER: Record<ClaimSort, string> = {
  created_at: 'c.created_at',
  amount: 'c.amount',
  approved_at: 'c.approved_at',
  assignedTo: 'assignee.display_name',
  authorised_user_id: 'c.approved_by',
  submitted_date: 'c.submitted_at',
  user: 'owner.display_name',
};

const COLUMNS = `c.id, c.user_id, c.assigned_to, c.approved_by, c.role_id, c.approved, ${sqlIso('c.approved_at')} AS approved_at, c.approval_note,
  c.submitted, ${sqlIso('c.submitted_at')} AS submitted_at, c.amount, c.notes, c.rejected, c.rejection_note,
  ${sqlIso('c.created_at')} AS created_at, ${sqlIso('c.updated_at')} AS updated_at`;
const FROM = `claims c JOIN users owner ON owner.id = c.user_id JOIN users assignee ON assignee.id = c.assigned_to`;

type Row = {
  id: string; user_id: string; assigned_to: string; approved_by: string | null; role_id: string | null; approved: boolean; approved_at: string | null;
  approval_note: string | null; submitted: boolean; submitted_at: string | null; amount: string; notes: string; rejected: boolean; rejection_note: string | null;
  created_at: string; updated_at: string;
};

export interface ClaimFilters {
  approved?: boolean;
  submitted?: boolean;
  users?: number[];
  assignees?: number[];
  from?: string;
  to?: string;
}

export interface ClaimListQuery extends PageRequest {
  sort: ClaimSort;
  direction: 'asc' | 'desc';
  include: ReadonlySet<ClaimInclude>;
}

/** Claims as the API shows them: the caller's own, and those of users the caller approves for. */
@Injectable()
export class ClaimQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hierarchy: Hierarchy,
    private readonly users: UserBases,
    private readonly roles: Roles,
    private readonly expenses: ExpenseQueries,
  ) {}

  /** Claims of the users the caller manages through approve-claims. */
  async managed(caller: Caller, filters: ClaimFilters, q: ClaimListQuery) {
    const managed = await this.hierarchy.managedUsers(caller, 'approve-claims');
    return this.page(caller, managed, filters, q);
  }

  async ofUser(caller: Caller, userId: number, filters: ClaimFilters, q: ClaimListQuery) {
    await this.expenses.assertVisible(caller, userId);
    return this.page(caller, [userId], filters, q);
  }

  async get(caller: Caller, userId: number, id: number, include: ReadonlySet<ClaimInclude> = new Set()) {
    await this.expenses.assertVisible(caller, userId);
    const rows: Row[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM ${FROM} WHERE c.id = $1 AND c.organisation_id = $2 AND c.user_id = $3`, [id, caller.organisationId, userId]);
    if (!rows[0]) throw new NotFoundError('Claim');
    return (await this.views(caller, rows, include))[0]!;
  }

  /** The claims' expenses, for the finance export and the submission mail. */
  async rows(caller: Caller, userIds: number[], filters: ClaimFilters, q: Pick<ClaimListQuery, 'sort' | 'direction'>) {
    const { where, params } = this.where(caller, userIds, filters);
    return this.dataSource.query(
      `SELECT c.id AS claim_id, owner.display_name AS claimant, assignee.display_name AS authoriser, c.approved, ${sqlIso('c.approved_at')} AS approved_at,
              c.submitted, ${sqlIso('c.submitted_at')} AS submitted_at, c.amount AS claim_amount, e.id AS expense_id, to_char(e.date, 'YYYY-MM-DD') AS date,
              t.name AS type, e.description, e.miles, e.passengers, e.amount
         FROM ${FROM} JOIN expenses e ON e.claim_id = c.id JOIN expense_types t ON t.id = e.type_id
        WHERE ${where} ORDER BY ${ORDER[q.sort]} ${q.direction === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, c.id, e.date, e.id`,
      params,
    ) as Promise<Record<string, unknown>[]>;
  }

  private where(caller: Caller, userIds: number[], f: ClaimFilters) {
    const params: unknown[] = [caller.organisationId, userIds];
    const parts = ['c.organisation_id = $1', 'c.user_id = ANY($2::bigint[])'];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      parts.push(sql.replace('?', `$${params.length}`));
    };
    if (f.approved !== undefined) add('c.approved = ?', f.approved);
    if (f.submitted !== undefined) add('c.submitted = ?', f.submitted);
    if (f.users) add('c.user_id = ANY(?::bigint[])', f.users);
    if (f.assignees) add('c.assigned_to = ANY(?::bigint[])', f.assignees);
    if (f.from) add('c.created_at >= ?::date', f.from);
    if (f.to) add(`c.created_at < ?::date + interval '1 day'`, f.to);
    return { where: parts.join(' AND '), params };
  }

  private async page(caller: Caller, userIds: number[], filters: ClaimFilters, q: ClaimListQuery) {
    const { where, params } = this.where(caller, userIds, filters);
    const [{ total }] = await this.dataSource.query(`SELECT count(*)::int AS total FROM ${FROM} WHERE ${where}`, params);
    const rows: Row[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE ${where} ORDER BY ${ORDER[q.sort]} ${q.direction === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, c.id
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, q.perPage, offsetOf(q)],
    );
    return { items: await this.views(caller, rows, q.include), total };
  }

  private async views(caller: Caller, rows: Row[], include: ReadonlySet<ClaimInclude>) {
    const people = rows.flatMap((r) => [Number(r.user_id), Number(r.assigned_to), ...(r.approved_by ? [Number(r.approved_by)] : [])]);
    const bases = include.has('user') || include.has('assignedTo') || include.has('approvedBy') ? await this.users.of(caller, [...new Set(people)], 'approve-claims') : new Map();
    const roles = include.has('role') || include.has('role.roleProfile') ? await this.roles.of(caller, rows.flatMap((r) => (r.role_id ? [Number(r.role_id)] : []))) : null;
    const views = [];
    for (const r of rows) {
      const view: Record<string, unknown> = {
        id: Number(r.id), user_id: Number(r.user_id), assigned_to_id: Number(r.assigned_to), approved_by_id: num(r.approved_by), approved: r.approved,
        approved_at: r.approved_at, approval_note: r.approval_note, submitted: r.submitted, submitted_at: r.submitted_at, amount: Number(r.amount),
        notes: r.notes, rejection_note: r.rejection_note, created_at: r.created_at, updated_at: r.updated_at,
      };
      if (include.has('user')) view.user = bases.get(Number(r.user_id)) ?? null;
      if (include.has('assignedTo')) view.assignedTo = bases.get(Number(r.assigned_to)) ?? null;
      if (include.has('approvedBy')) view.approvedBy = r.approved_by ? (bases.get(Number(r.approved_by)) ?? null) : null;
      if (include.has('expenses')) view.expenses = await this.expensesOf(caller, Number(r.id));
      if (roles) {
        const role = r.role_id ? roles.get(Number(r.role_id)) : undefined;
        const { roleProfile, ...plain } = role ?? ({} as NonNullable<typeof role>);
        view.role = role ? (include.has('role.roleProfile') ? { ...plain, roleProfile } : plain) : null;
      }
      views.push(view);
    }
    return views;
  }

  /** Claimed expenses follow the claim; a rejected claim's were released, and the event log keeps which they were. */
  private async expensesOf(caller: Caller, claimId: number) {
    const ids: { id: string }[] = await this.dataSource.query(`SELECT id FROM expenses WHERE claim_id = $1 AND organisation_id = $2`, [claimId, caller.organisationId]);
    return this.expenses.byIds(caller, ids.map((r) => Number(r.id)));
  }
}
