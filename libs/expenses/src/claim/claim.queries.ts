import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Caller, Roles, type UserBase, UserBases } from '#app/identity';
import {
  NotFoundError,
  offsetOf,
  type PageRequest,
  type Sql,
  sql,
  type Tenant,
  tenantScope,
  tenantSql,
} from '#app/platform';
import { type EmbeddedRoleView, ExpenseQueries, type ExpenseView } from '../expense/expense.queries.js';
import { ExpensesPolicy } from '../expenses.policy.js';
import { num, sqlIso } from '../format.js';

export const CLAIM_INCLUDES = ['user', 'expenses', 'assignedTo', 'approvedBy', 'role', 'role.roleProfile'] as const;
export type ClaimInclude = (typeof CLAIM_INCLUDES)[number];
export const CLAIM_SORTS = [
  'created_at',
  'amount',
  'approved_at',
  'assignedTo',
  'authorised_user_id',
  'submitted_date',
  'user',
] as const;
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

const COLUMNS =
  sql.raw(`c.id, c.user_id, c.assigned_to, c.approved_by, c.role_id, c.approved, ${sqlIso('c.approved_at')} AS approved_at, c.approval_note,
  c.submitted, ${sqlIso('c.submitted_at')} AS submitted_at, c.amount, c.notes, c.rejected, c.rejection_note,
  ${sqlIso('c.created_at')} AS created_at, ${sqlIso('c.updated_at')} AS updated_at`);

/**
 * The people a claim names, by display name: the owner (`owner.display_name`) and the authoriser
 * (`assignee.display_name`), for the `user` and `assignedTo` sorts and the export's columns.
 *
 * Names are identity's: expenses asks for them through its API (UserBases.displayNames) instead of
 * joining identity's `users` table (scripts/check-boundaries.mjs refuses a context naming another's
 * table). They enter the query as a table of parameters, `unnest(ids, names)`, so Postgres still
 * sorts by the name itself (same collation, ties by claim id, nulls last) and LIMIT/OFFSET pages
 * exactly as the join did. Chosen over a local projection of user names fed by identity's events:
 * that would be a second copy of identity's data with its own table, migration and replay, for
 * names identity already serves; here only the matching claims' own people are looked up, and
 * only when a sort or the export shows names.
 */
const PEOPLE = {
  user: { alias: 'owner', column: 'user_id' },
  assignedTo: { alias: 'assignee', column: 'assigned_to' },
} as const;
type Person = keyof typeof PEOPLE;

/** `ORDER BY` a sort column (a fixed map, never input) and a direction, nulls last. */
const order = (q: Pick<ClaimListQuery, 'sort' | 'direction'>) =>
  sql.raw(`${ORDER[q.sort]} ${q.direction === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`);

type Row = {
  id: string;
  user_id: string;
  assigned_to: string;
  approved_by: string | null;
  role_id: string | null;
  approved: boolean;
  approved_at: string | null;
  approval_note: string | null;
  submitted: boolean;
  submitted_at: string | null;
  amount: string;
  notes: string;
  rejected: boolean;
  rejection_note: string | null;
  created_at: string;
  updated_at: string;
};

/** A claim as the API shows it (http/claim.responses.ts documents it); the optional fields come with `include`. */
export interface ClaimView {
  id: number;
  user_id: number;
  assigned_to_id: number;
  approved_by_id: number | null;
  approved: boolean;
  approved_at: string | null;
  approval_note: string | null;
  submitted: boolean;
  submitted_at: string | null;
  amount: number;
  notes: string;
  rejection_note: string | null;
  created_at: string;
  updated_at: string;
  user?: UserBase | null;
  assignedTo?: UserBase | null;
  approvedBy?: UserBase | null;
  expenses?: ExpenseView[];
  role?: EmbeddedRoleView | null;
}

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
    private readonly policy: ExpensesPolicy,
    private readonly users: UserBases,
    private readonly roles: Roles,
    private readonly expenses: ExpenseQueries,
  ) {}

  /** Claims of the users the caller manages through approve-claims. */
  async managed(caller: Caller, filters: ClaimFilters, q: ClaimListQuery) {
    const managed = await this.policy.approvedUsers(caller);
    return this.page(caller, managed, filters, q);
  }

  async ofUser(caller: Caller, userId: number, filters: ClaimFilters, q: ClaimListQuery) {
    await this.policy.access(caller, userId);
    return this.page(caller, [userId], filters, q);
  }

  async get(
    caller: Caller,
    userId: number,
    id: number,
    include: ReadonlySet<ClaimInclude> = new Set(),
  ): Promise<ClaimView> {
    await this.policy.access(caller, userId);
    const q = tenantSql(
      caller,
    )`SELECT ${COLUMNS} FROM claims c WHERE ${tenantScope('c')} AND c.id = ${id} AND c.user_id = ${userId}`;
    const rows: Row[] = await this.dataSource.query(q.text, q.values);
    if (!rows[0]) throw new NotFoundError('Claim');
    return (await this.views(caller, rows, include))[0]!;
  }

  /** A claim of the organisation as `get` shows it without includes, or null: for ExpenseRecords. */
  async byIdForSystem(tenant: Caller, id: number): Promise<ClaimView | null> {
    const q = tenantSql(tenant)`SELECT ${COLUMNS} FROM claims c WHERE ${tenantScope('c')} AND c.id = ${id}`;
    const rows: Row[] = await this.dataSource.query(q.text, q.values);
    return rows[0] ? (await this.views(tenant, rows, new Set()))[0]! : null;
  }

  /** Every claim of the user, oldest first, as `get` shows it without includes (a personal-data export). */
  async allOfUser(caller: Caller, userId: number): Promise<ClaimView[]> {
    const q = tenantSql(
      caller,
    )`SELECT ${COLUMNS} FROM claims c WHERE ${tenantScope('c')} AND c.user_id = ${userId} ORDER BY c.created_at, c.id`;
    const rows: Row[] = await this.dataSource.query(q.text, q.values);
    return this.views(caller, rows, new Set());
  }

  /** The claims' expenses, for the finance export. */
  rows(caller: Caller, userIds: number[], filters: ClaimFilters, q: Pick<ClaimListQuery, 'sort' | 'direction'>) {
    return this.lines(caller, this.where(userIds, filters), q);
  }

  /**
   * One claim's expenses in the export's shape, for the system (the submission mail): no caller,
   * only the organisation the claim belongs to, which still scopes every read.
   */
  rowsForSystem(organisationId: number, claimId: number) {
    return this.lines({ organisationId }, sql`${tenantScope('c')} AND c.id = ${claimId}`, {
      sort: 'created_at',
      direction: 'asc',
    });
  }

  private async lines(tenant: Tenant, where: Sql, q: Pick<ClaimListQuery, 'sort' | 'direction'>) {
    const names = await this.names(tenant, where, ['user', 'assignedTo']);
    const query = tenantSql(
      tenant,
    )`SELECT c.id AS claim_id, owner.display_name AS claimant, assignee.display_name AS authoriser, c.approved,
              ${sql.raw(sqlIso('c.approved_at'))} AS approved_at, c.submitted, ${sql.raw(sqlIso('c.submitted_at'))} AS submitted_at, c.amount AS claim_amount,
              e.id AS expense_id, to_char(e.date, 'YYYY-MM-DD') AS date, t.name AS type, e.description, e.miles, e.passengers, e.amount
         FROM claims c ${names} JOIN expenses e ON e.claim_id = c.id JOIN expense_types t ON t.id = e.type_id
        WHERE ${where} ORDER BY ${order(q)}, c.id, e.date, e.id`;
    return this.dataSource.query(query.text, query.values) as Promise<Record<string, unknown>[]>;
  }

  private where(userIds: number[], f: ClaimFilters): Sql {
    const parts = [tenantScope('c'), sql`c.user_id = ANY(${userIds}::bigint[])`];
    if (f.approved !== undefined) parts.push(sql`c.approved = ${f.approved}`);
    if (f.submitted !== undefined) parts.push(sql`c.submitted = ${f.submitted}`);
    if (f.users) parts.push(sql`c.user_id = ANY(${f.users}::bigint[])`);
    if (f.assignees) parts.push(sql`c.assigned_to = ANY(${f.assignees}::bigint[])`);
    if (f.from) parts.push(sql`c.created_at >= ${f.from}::date`);
    if (f.to) parts.push(sql`c.created_at < ${f.to}::date + interval '1 day'`);
    return sql.join(parts, ' AND ');
  }

  /**
   * `LEFT JOIN`s giving `owner.display_name` and/or `assignee.display_name` (PEOPLE) for the claims
   * `where` selects, from identity's names of the people those claims name. A left join, so a
   * name identity does not give (none is ever deleted) cannot hide a claim from the page its count promised.
   */
  private async names(tenant: Tenant, where: Sql, people: readonly Person[]): Promise<Sql> {
    if (people.length === 0) return sql.raw('');
    const columns = sql.raw(people.map((p) => `c.${PEOPLE[p].column}`).join(', '));
    const q = tenantSql(tenant)`SELECT DISTINCT ${columns} FROM claims c WHERE ${where}`;
    const rows: Record<string, string>[] = await this.dataSource.query(q.text, q.values);
    const ids = [...new Set(rows.flatMap((r) => people.map((p) => Number(r[PEOPLE[p].column]))))];
    const names = await this.users.displayNames(tenant, ids);
    const known = [...names.keys()];
    const values = known.map((id) => names.get(id)!);
    return sql.join(
      people.map((p) => {
        const { alias, column } = PEOPLE[p];
        return sql`LEFT JOIN unnest(${known}::bigint[], ${values}::text[]) AS ${sql.raw(alias)}(id, display_name) ON ${sql.raw(`${alias}.id = c.${column}`)}`;
      }),
      ' ',
    );
  }

  private async page(caller: Caller, userIds: number[], filters: ClaimFilters, q: ClaimListQuery) {
    const where = this.where(userIds, filters);
    const count = tenantSql(caller)`SELECT count(*)::int AS total FROM claims c WHERE ${where}`;
    const [{ total }] = await this.dataSource.query(count.text, count.values);
    const names = await this.names(caller, where, q.sort === 'user' || q.sort === 'assignedTo' ? [q.sort] : []);
    const page = tenantSql(caller)`SELECT ${COLUMNS} FROM claims c ${names} WHERE ${where} ORDER BY ${order(q)}, c.id
        LIMIT ${q.perPage} OFFSET ${offsetOf(q)}`;
    const rows: Row[] = await this.dataSource.query(page.text, page.values);
    return { items: await this.views(caller, rows, q.include), total };
  }

  private async views(caller: Caller, rows: Row[], include: ReadonlySet<ClaimInclude>): Promise<ClaimView[]> {
    const people = rows.flatMap((r) => [
      Number(r.user_id),
      Number(r.assigned_to),
      ...(r.approved_by ? [Number(r.approved_by)] : []),
    ]);
    const bases =
      include.has('user') || include.has('assignedTo') || include.has('approvedBy')
        ? await this.users.of(caller, [...new Set(people)], 'approve-claims')
        : new Map();
    const roles =
      include.has('role') || include.has('role.roleProfile')
        ? await this.roles.of(
            caller,
            rows.flatMap((r) => (r.role_id ? [Number(r.role_id)] : [])),
          )
        : null;
    const expenses = include.has('expenses')
      ? await this.expensesOf(
          caller,
          rows.map((r) => Number(r.id)),
        )
      : null;
    const views: ClaimView[] = [];
    for (const r of rows) {
      const view: ClaimView = {
        id: Number(r.id),
        user_id: Number(r.user_id),
        assigned_to_id: Number(r.assigned_to),
        approved_by_id: num(r.approved_by),
        approved: r.approved,
        approved_at: r.approved_at,
        approval_note: r.approval_note,
        submitted: r.submitted,
        submitted_at: r.submitted_at,
        amount: Number(r.amount),
        notes: r.notes,
        rejection_note: r.rejection_note,
        created_at: r.created_at,
        updated_at: r.updated_at,
      };
      if (include.has('user')) view.user = bases.get(Number(r.user_id)) ?? null;
      if (include.has('assignedTo')) view.assignedTo = bases.get(Number(r.assigned_to)) ?? null;
      if (include.has('approvedBy'))
        view.approvedBy = r.approved_by ? (bases.get(Number(r.approved_by)) ?? null) : null;
      if (expenses) view.expenses = expenses.get(Number(r.id)) ?? [];
      if (roles) {
        const role = r.role_id ? roles.get(Number(r.role_id)) : undefined;
        const { roleProfile, ...plain } = role ?? ({} as NonNullable<typeof role>);
        view.role = role ? (include.has('role.roleProfile') ? { ...plain, roleProfile } : plain) : null;
      }
      views.push(view);
    }
    return views;
  }

  /**
   * Claimed expenses follow the claim, for every claim of a page at once (two queries, whatever
   * the page size); a rejected claim's were released, and the event log keeps which they were.
   */
  private async expensesOf(caller: Caller, claimIds: readonly number[]): Promise<Map<number, ExpenseView[]>> {
    const q = tenantSql(
      caller,
    )`SELECT id, claim_id FROM expenses WHERE ${tenantScope()} AND claim_id = ANY(${claimIds}::bigint[])`;
    const links: { id: string; claim_id: string }[] = await this.dataSource.query(q.text, q.values);
    const claimOf = new Map(links.map((l) => [Number(l.id), Number(l.claim_id)]));
    const byClaim = new Map<number, ExpenseView[]>();
    for (const expense of await this.expenses.byIds(caller, [...claimOf.keys()])) {
      const claimId = claimOf.get(expense.id)!;
      byClaim.set(claimId, [...(byClaim.get(claimId) ?? []), expense]);
    }
    return byClaim;
  }
}
