import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type FileRecord, FileRecords, type FileView } from '#app/files';
import { type Caller, type RoleProfileView, Roles, type RoleView, type UserBase, UserBases } from '#app/identity';
import { NotFoundError, offsetOf, type PageRequest, sql, type Tenant, tenantScope, tenantSql } from '#app/platform';
import type { ExpenseData } from '../expenses.events.js';
import { ExpensesPolicy } from '../expenses.policy.js';
import { num, sqlDate, sqlIso } from '../format.js';
import {
  type ExpenseRateView,
  ExpenseSettingsQueries,
  type ExpenseTypeView,
} from '../types/expense-settings.queries.js';

export const EXPENSE_INCLUDES = ['user', 'type', 'rate', 'attachments', 'role', 'role.roleProfile'] as const;
export type ExpenseInclude = (typeof EXPENSE_INCLUDES)[number];

const COLUMNS =
  sql.raw(`e.id, e.amount, e.description, ${sqlDate('e.submitted')} AS submitted, e.claimed, ${sqlIso('e.created_at')} AS created_at,
  ${sqlIso('e.updated_at')} AS updated_at, ${sqlDate('e.date')} AS date, e.miles, e.passengers, e.user_id, e.type_id, e.rate_id, e.role_id`);

type Row = {
  id: string;
  amount: string;
  description: string;
  submitted: string | null;
  claimed: boolean;
  created_at: string;
  updated_at: string;
  date: string;
  miles: string | null;
  passengers: number | null;
  user_id: string;
  type_id: string;
  rate_id: string | null;
  role_id: string | null;
};

/** A role as an expense or claim embeds it; `roleProfile` with `include=role.roleProfile`. */
export type EmbeddedRoleView = RoleView & { roleProfile?: RoleProfileView };

/** An expense as the API shows it (http/expense.responses.ts documents it); the optional fields come with `include`. */
export interface ExpenseView {
  id: number;
  amount: number;
  description: string;
  submitted: string | null;
  claimed: boolean;
  created_at: string;
  updated_at: string;
  date: string;
  miles: number | null;
  passengers: number | null;
  user_id: number;
  type_id: number;
  rate_id: number | null;
  role_id: number | null;
  user?: UserBase | null;
  type?: ExpenseTypeView;
  rate?: ExpenseRateView | null;
  attachments?: FileView[];
  role?: EmbeddedRoleView | null;
}

/** `sqlIso` in JavaScript: UTC, whole seconds (to_char truncates, as slice does). */
const iso = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;

/**
 * A new expense as `get` shows it (no includes), from the data just written: a create answers
 * without reading its row back. The expenses e2e test compares it with a GET.
 */
export function recordedExpenseView(d: ExpenseData, recordedAt: Date): ExpenseView {
  return {
    id: d.id,
    amount: d.amount,
    description: d.description,
    submitted: d.submitted,
    claimed: false,
    created_at: iso(recordedAt),
    updated_at: iso(recordedAt),
    date: d.date,
    miles: d.miles,
    passengers: d.passengers,
    user_id: d.userId,
    type_id: d.typeId,
    rate_id: d.rateId,
    role_id: d.roleId,
  };
}

/** Expenses as the API shows them, within the caller's organisation. */
@Injectable()
export class ExpenseQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly policy: ExpensesPolicy,
    private readonly users: UserBases,
    private readonly roles: Roles,
    private readonly settings: ExpenseSettingsQueries,
    private readonly files: FileRecords,
  ) {}

  async list(
    caller: Caller,
    userId: number,
    q: PageRequest & { claimed?: boolean; direction: 'asc' | 'desc'; include: ReadonlySet<ExpenseInclude> },
  ) {
    await this.policy.access(caller, userId);
    const filter = q.claimed === undefined ? sql.raw('') : sql`AND e.claimed = ${q.claimed}`;
    const where = sql`${tenantScope('e')} AND e.user_id = ${userId} ${filter}`;
    const count = tenantSql(caller)`SELECT count(*)::int AS total FROM expenses e WHERE ${where}`;
    const [{ total }] = await this.dataSource.query(count.text, count.values);
    // Newest first by default (the controller's list spec): the expense date, then the id, both in `direction`.
    const dir = sql.raw(q.direction === 'desc' ? 'DESC' : 'ASC');
    const page = tenantSql(caller)`SELECT ${COLUMNS} FROM expenses e WHERE ${where}
      ORDER BY e.date ${dir}, e.id ${dir} LIMIT ${q.perPage} OFFSET ${offsetOf(q)}`;
    const rows: Row[] = await this.dataSource.query(page.text, page.values);
    return { items: await this.views(caller, rows, q.include), total };
  }

  async get(
    caller: Caller,
    userId: number,
    id: number,
    include: ReadonlySet<ExpenseInclude> = new Set(),
  ): Promise<ExpenseView> {
    await this.policy.access(caller, userId);
    const q = tenantSql(
      caller,
    )`SELECT ${COLUMNS} FROM expenses e WHERE ${tenantScope('e')} AND e.id = ${id} AND e.user_id = ${userId}`;
    const rows: Row[] = await this.dataSource.query(q.text, q.values);
    if (!rows[0]) throw new NotFoundError('Expense');
    return (await this.views(caller, rows, include))[0]!;
  }

  async byIds(
    caller: Caller,
    ids: readonly number[],
    include: ReadonlySet<ExpenseInclude> = new Set(),
  ): Promise<ExpenseView[]> {
    if (ids.length === 0) return [];
    const q = tenantSql(
      caller,
    )`SELECT ${COLUMNS} FROM expenses e WHERE ${tenantScope('e')} AND e.id = ANY(${ids}::bigint[]) ORDER BY e.date, e.id`;
    const rows: Row[] = await this.dataSource.query(q.text, q.values);
    return this.views(caller, rows, include);
  }

  /** Every expense of the user, by date then id, as `get` shows it without includes (a personal-data export). */
  async allOfUser(caller: Caller, userId: number): Promise<ExpenseView[]> {
    const q = tenantSql(
      caller,
    )`SELECT ${COLUMNS} FROM expenses e WHERE ${tenantScope('e')} AND e.user_id = ${userId} ORDER BY e.date, e.id`;
    const rows: Row[] = await this.dataSource.query(q.text, q.values);
    return this.views(caller, rows, new Set());
  }

  async attachments(caller: Caller, expenseIds: readonly number[]): Promise<Map<number, FileView[]>> {
    const files = await this.attachedFiles(caller, expenseIds);
    return new Map([...files].map(([id, records]) => [id, records.map((file) => this.files.view(file))]));
  }

  /**
   * Each expense's attached files, in the order attached, within `tenant`'s organisation: for the
   * API (a caller) and for the system (the submission mail, which signs its own longer-lived links).
   */
  async attachedFiles(tenant: Tenant, expenseIds: readonly number[]): Promise<Map<number, FileRecord[]>> {
    const out = new Map<number, FileRecord[]>(expenseIds.map((id) => [id, []]));
    if (expenseIds.length === 0) return out;
    const q = tenantSql(
      tenant,
    )`SELECT expense_id, file_id FROM expense_attachments WHERE ${tenantScope()} AND expense_id = ANY(${expenseIds}::bigint[])
      ORDER BY attached_at, file_id`;
    const rows: { expense_id: string; file_id: string }[] = await this.dataSource.query(q.text, q.values);
    for (const r of rows) {
      const file = await this.files.find(tenant, Number(r.file_id));
      if (file) out.get(Number(r.expense_id))!.push(file);
    }
    return out;
  }

  private async views(caller: Caller, rows: Row[], include: ReadonlySet<ExpenseInclude>): Promise<ExpenseView[]> {
    const ids = rows.map((r) => Number(r.id));
    const users = include.has('user')
      ? await this.users.of(caller, [...new Set(rows.map((r) => Number(r.user_id)))], 'approve-claims')
      : null;
    const roles =
      include.has('role') || include.has('role.roleProfile')
        ? await this.roles.of(
            caller,
            rows.flatMap((r) => (r.role_id ? [Number(r.role_id)] : [])),
          )
        : null;
    const attachments = include.has('attachments') ? await this.attachments(caller, ids) : null;
    const views: ExpenseView[] = [];
    for (const r of rows) {
      const view: ExpenseView = {
        id: Number(r.id),
        amount: Number(r.amount),
        description: r.description,
        submitted: r.submitted,
        claimed: r.claimed,
        created_at: r.created_at,
        updated_at: r.updated_at,
        date: r.date,
        miles: num(r.miles),
        passengers: r.passengers,
        user_id: Number(r.user_id),
        type_id: Number(r.type_id),
        rate_id: num(r.rate_id),
        role_id: num(r.role_id),
      };
      if (users) view.user = users.get(view.user_id) ?? null;
      if (include.has('type'))
        view.type = await this.settings.type(caller, Number(r.type_id), { includeDeleted: true });
      if (include.has('rate'))
        view.rate = r.rate_id ? await this.settings.rate(caller, Number(r.rate_id), { includeDeleted: true }) : null;
      if (attachments) view.attachments = attachments.get(view.id);
      if (roles) view.role = roleView(roles, r.role_id, include.has('role.roleProfile'));
      views.push(view);
    }
    return views;
  }
}

function roleView(
  roles: Awaited<ReturnType<Roles['of']>>,
  id: string | null,
  withProfile: boolean,
): EmbeddedRoleView | null {
  const role = id ? roles.get(Number(id)) : undefined;
  if (!role) return null;
  const { roleProfile, ...plain } = role;
  return withProfile ? { ...plain, roleProfile } : plain;
}
