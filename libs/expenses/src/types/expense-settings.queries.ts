import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Caller } from '#app/identity';
import {
  ChangeFeed,
  NotFoundError,
  offsetOf,
  type PageRequest,
  PreparedStatements,
  ReadCache,
  sql,
  tenantScope,
  tenantSql,
} from '#app/platform';
import { num, sqlDate, sqlStamp } from '../format.js';

export interface ExpenseTypeView {
  id: number;
  name: string;
  order_id: number;
}

export interface ExpenseRateView {
  id: number;
  description: string;
  short_name: string;
  start_date: string | null;
  end_date: string | null;
  rate: number;
  passenger_rate: number;
  max_miles: number | null;
  order_id: number;
  created_at: string;
  updated_at: string;
}

const RATE_COLUMNS =
  sql.raw(`id, description, short_name, ${sqlDate('start_date')} AS start_date, ${sqlDate('end_date')} AS end_date, rate, passenger_rate,
  max_miles, order_id, ${sqlStamp('created_at')} AS created_at, ${sqlStamp('updated_at')} AS updated_at`);
/** Deleted types and rates are kept for the records that name them, and hidden from choosing. */
const live = (options: { includeDeleted?: boolean }) =>
  options.includeDeleted ? sql.raw('') : sql.raw('AND NOT deleted');

type RateRow = Omit<ExpenseRateView, 'id' | 'rate' | 'passenger_rate'> & {
  id: string;
  rate: string;
  passenger_rate: string;
};
const rateView = (r: RateRow): ExpenseRateView => ({
  ...r,
  id: Number(r.id),
  rate: Number(r.rate),
  passenger_rate: Number(r.passenger_rate),
  max_miles: num(r.max_miles),
});

/** A type's or rate's cache key: the same id is another entry with deleted ones included. */
const lookupKey = (caller: Caller, id: number, options: { includeDeleted?: boolean }) =>
  `${caller.organisationId}:${id}:${options.includeDeleted ? 'all' : 'live'}`;

@Injectable()
export class ExpenseSettingsQueries {
  // One type or rate is read by every expense written (and shown with include=type,rate).
  private readonly typeCache: ReadCache<ExpenseTypeView>;
  private readonly rateCache: ReadCache<ExpenseRateView>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly db: PreparedStatements,
    feed: ChangeFeed,
  ) {
    this.typeCache = new ReadCache(feed, [{ table: 'expense_types' }]);
    this.rateCache = new ReadCache(feed, [{ table: 'expense_rates' }]);
  }

  async types(caller: Caller, page: PageRequest): Promise<{ items: ExpenseTypeView[]; total: number }> {
    const count = tenantSql(
      caller,
    )`SELECT count(*)::int AS total FROM expense_types WHERE ${tenantScope()} AND NOT deleted`;
    const [{ total }] = await this.dataSource.query(count.text, count.values);
    const q = tenantSql(caller)`SELECT id, name, order_id FROM expense_types WHERE ${tenantScope()} AND NOT deleted
      ORDER BY order_id, id LIMIT ${page.perPage} OFFSET ${offsetOf(page)}`;
    const rows: { id: string; name: string; order_id: number }[] = await this.dataSource.query(q.text, q.values);
    return { items: rows.map((r) => ({ ...r, id: Number(r.id) })), total };
  }

  /** A live type of the caller's organisation (deleted types cannot be chosen again). */
  type(caller: Caller, id: number, options: { includeDeleted?: boolean } = {}): Promise<ExpenseTypeView> {
    return this.typeCache.get(lookupKey(caller, id, options), () => this.loadType(caller, id, options));
  }

  private async loadType(caller: Caller, id: number, options: { includeDeleted?: boolean }): Promise<ExpenseTypeView> {
    const q = tenantSql(
      caller,
    )`SELECT id, name, order_id FROM expense_types WHERE ${tenantScope()} AND id = ${id} ${live(options)}`;
    const [row] = await this.db.query<{ id: string; name: string; order_id: number }>(q.text, q.values);
    if (!row) throw new NotFoundError('Expense type');
    return { ...row, id: Number(row.id) };
  }

  async rates(caller: Caller, page: PageRequest): Promise<{ items: ExpenseRateView[]; total: number }> {
    const count = tenantSql(
      caller,
    )`SELECT count(*)::int AS total FROM expense_rates WHERE ${tenantScope()} AND NOT deleted`;
    const [{ total }] = await this.dataSource.query(count.text, count.values);
    const q = tenantSql(caller)`SELECT ${RATE_COLUMNS} FROM expense_rates WHERE ${tenantScope()} AND NOT deleted
      ORDER BY order_id, id LIMIT ${page.perPage} OFFSET ${offsetOf(page)}`;
    const rows: RateRow[] = await this.dataSource.query(q.text, q.values);
    return { items: rows.map(rateView), total };
  }

  rate(caller: Caller, id: number, options: { includeDeleted?: boolean } = {}): Promise<ExpenseRateView> {
    return this.rateCache.get(lookupKey(caller, id, options), () => this.loadRate(caller, id, options));
  }

  private async loadRate(caller: Caller, id: number, options: { includeDeleted?: boolean }): Promise<ExpenseRateView> {
    const q = tenantSql(
      caller,
    )`SELECT ${RATE_COLUMNS} FROM expense_rates WHERE ${tenantScope()} AND id = ${id} ${live(options)}`;
    const [row] = await this.db.query<RateRow>(q.text, q.values);
    if (!row) throw new NotFoundError('Expense rate');
    return rateView(row);
  }
}
