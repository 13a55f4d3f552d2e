import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FileRecords, type FileView } from '#app/files';
import { type Caller, Hierarchy, Roles, UserBases } from '#app/identity';
import { NotFoundError, offsetOf, type PageRequest } from '#app/platform';
import type { ExpenseData } from '../expenses.events.js';
import { num, sqlDate, sqlIso } from '../format.js';
import { ExpenseSettingsQueries } from '../types/expense-settings.queries.js';

export const EXPENSE_INCLUDES = ['user', 'type', 'rate', 'attachments', 'role', 'role.roleProfile'] as const;
export type ExpenseInclude = (typeof EXPENSE_INCLUDES)[number];

const COLUMNS = `e.id, e.amount, e.description, ${sqlDate('e.submitted')} AS submitted, e.claimed, ${sqlIso('e.created_at')} AS created_at,
  ${sqlIso('e.updated_at')} AS updated_at, ${sqlDate('e.date')} AS date, e.miles, e.passengers, e.user_id, e.type_id, e.rate_id, e.role_id`;

type Row = {
  id: string; amount: string; description: string; submitted: string | null; claimed: boolean; created_at: string; updated_at: string; date: string;
  miles: string | null; passengers: number | null; user_id: string; type_id: string; rate_id: string | null; role_id: string | null;
};

export type ExpenseView = Record<string, unknown> & { id: number; user_id: number };

/** `sqlIso` in JavaScript: UTC, whole seconds (to_char truncates, as slice does). */
const iso = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;

/**
 * A new expense as `get` shows it (no includes), from the data just written: a create answers
 * without reading its row back. The expenses e2e test compares it with a GET.
 */
export function recordedExpenseView(d: ExpenseData, recordedAt: Date): ExpenseView {
  return {
    id: d.id, amount: d.amount, description: d.description, submitted: d.submitted, claimed: false, created_at: iso(recordedAt), updated_at: iso(recordedAt),
    date: d.date, miles: d.miles, passengers: d.passengers, user_id: d.userId, type_id: d.typeId, rate_id: d.rateId, role_id: d.roleId,
  };
}

/** Expenses as the API shows them, within the caller's organisation. */
@Injectable()
export class ExpenseQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hierarchy: Hierarchy,
    private readonly users: UserBases,
    private readonly roles: Roles,
    private readonly settings: ExpenseSettingsQueries,
    private readonly files: FileRecords,
  ) {}

  /** The caller sees their own expenses, and those of users they approve claims for. */
  async assertVisible(caller: Caller, userId: number): Promise<void> {
    if (userId === caller.userId) return;
    if (!(await this.hierarchy.canManage(caller, userId, 'approve-claims'))) throw new NotFoundError('User');
  }

  async list(caller: Caller, userId: number, q: PageRequest & { claimed?: boolean; direction: 'asc' | 'desc'; include: ReadonlySet<ExpenseInclude> }) {
    await this.assertVisible(caller, userId);
    const filter = q.claimed === undefined ? '' : `AND e.claimed = ${q.claimed ? 'true' : 'false'}`;
    const where = `e.organisation_id = $1 AND e.user_id = $2 ${filter}`;
    const [{ total }] = await this.dataSource.query(`SELECT count(*)::int AS total FROM expenses e WHERE ${where}`, [caller.organisationId, userId]);
    const rows: Row[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM expenses e WHERE ${where} ORDER BY e.date ${q.direction === 'desc' ? 'DESC' : 'ASC'}, e.id LIMIT $3 OFFSET $4`,
      [caller.organisationId, userId, q.perPage, offsetOf(q)],
    );
    return { items: await this.views(caller, rows, q.include), total };
  }

  async get(caller: Caller, userId: number, id: number, include: ReadonlySet<ExpenseInclude> = new Set()): Promise<ExpenseView> {
    await this.assertVisible(caller, userId);
    const rows: Row[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM expenses e WHERE e.id = $1 AND e.organisation_id = $2 AND e.user_id = $3`, [id, caller.organisationId, userId]);
    if (!rows[0]) throw new NotFoundError('Expense');
    return (await this.views(caller, rows, include))[0]!;
  }

  async byIds(caller: Caller, ids: readonly number[], include: ReadonlySet<ExpenseInclude> = new Set()): Promise<ExpenseView[]> {
    if (ids.length === 0) return [];
    const rows: Row[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM expenses e WHERE e.id = ANY($1::bigint[]) AND e.organisation_id = $2 ORDER BY e.date, e.id`, [ids, caller.organisationId]);
    return this.views(caller, rows, include);
  }

  async attachments(caller: Caller, expenseIds: readonly number[]): Promise<Map<number, FileView[]>> {
    const out = new Map<number, FileView[]>(expenseIds.map((id) => [id, []]));
    if (expenseIds.length === 0) return out;
    const rows: { expense_id: string; file_id: string }[] = await this.dataSource.query(
      `SELECT expense_id, file_id FROM expense_attachments WHERE organisation_id = $1 AND expense_id = ANY($2::bigint[]) ORDER BY attached_at, file_id`,
      [caller.organisationId, expenseIds],
    );
    for (const r of rows) {
      const file = await this.files.find(caller, Number(r.file_id));
      if (file) out.get(Number(r.expense_id))!.push(this.files.view(file));
    }
    return out;
  }

  private async views(caller: Caller, rows: Row[], include: ReadonlySet<ExpenseInclude>): Promise<ExpenseView[]> {
    const ids = rows.map((r) => Number(r.id));
    const users = include.has('user') ? await this.users.of(caller, [...new Set(rows.map((r) => Number(r.user_id)))], 'approve-claims') : null;
    const roles = include.has('role') || include.has('role.roleProfile') ? await this.roles.of(caller, rows.flatMap((r) => (r.role_id ? [Number(r.role_id)] : []))) : null;
    const attachments = include.has('attachments') ? await this.attachments(caller, ids) : null;
    const views: ExpenseView[] = [];
    for (const r of rows) {
      const view: ExpenseView = {
        id: Number(r.id), amount: Number(r.amount), description: r.description, submitted: r.submitted, claimed: r.claimed, created_at: r.created_at,
        updated_at: r.updated_at, date: r.date, miles: num(r.miles), passengers: r.passengers, user_id: Number(r.user_id), type_id: Number(r.type_id),
        rate_id: num(r.rate_id), role_id: num(r.role_id),
      };
      if (users) view.user = users.get(view.user_id) ?? null;
      if (include.has('type')) view.type = await this.settings.type(caller, Number(r.type_id), { includeDeleted: true });
      if (include.has('rate')) view.rate = r.rate_id ? await this.settings.rate(caller, Number(r.rate_id), { includeDeleted: true }) : null;
      if (attachments) view.attachments = attachments.get(view.id);
      if (roles) view.role = roleView(roles, r.role_id, include.has('role.roleProfile'));
      views.push(view);
    }
    return views;
  }
}

function roleView(roles: Awaited<ReturnType<Roles['of']>>, id: string | null, withProfile: boolean) {
  const role = id ? roles.get(Number(id)) : undefined;
  if (!role) return null;
  const { roleProfile, ...plain } = role;
  return withProfile ? { ...plain, roleProfile } : plain;
}
