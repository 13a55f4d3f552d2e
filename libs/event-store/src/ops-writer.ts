import { groupBy } from '#app/platform';
import { Holds, type ProjectionOp, type Row } from './projection.js';

export type Sql = (text: string, params?: unknown[]) => Promise<unknown>;
type Upsert = Extract<ProjectionOp, { kind: 'upsert' }>;
type Update = Extract<ProjectionOp, { kind: 'update' }>;
type Delete = Extract<ProjectionOp, { kind: 'delete' }>;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** The `ROWS FROM` source of column i of a columnar upsert: one array parameter per column. */
const arrayElements = (t: { json: boolean }, i: number) =>
  t.json ? `jsonb_array_elements($${i + 1}::jsonb)` : `json_array_elements_text($${i + 1}::json)`;

/**
 * Column → SQL type of a table, read once from the catalog; shadow tables share their original's.
 * Also keeps the statement texts built from them: a projection writes the same few shapes of
 * statement over and over, and building the text was a visible share of a write's CPU.
 */
export class ColumnTypes {
  private readonly cache = new Map<string, Map<string, string>>();
  private readonly texts = new Map<string, string>();

  /** The statement text of `shape`, built once. */
  text(shape: string, build: () => string): string {
    let text = this.texts.get(shape);
    if (text === undefined) this.texts.set(shape, (text = build()));
    return text;
  }

  async of(sql: Sql, table: string): Promise<Map<string, string>> {
    let types = this.cache.get(table);
    if (!types) {
      const rows = (await sql(
        `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
          WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
        [table],
      )) as { name: string; type: string }[];
      if (rows.length === 0) throw new Error(`projection table ${table} does not exist`);
      types = new Map(rows.map((r) => [r.name, r.type]));
      this.cache.set(table, types);
    }
    return types;
  }
}

/**
 * Runs projection ops. Consecutive upserts into one table with the same columns become one
 * `INSERT … SELECT … ON CONFLICT` statement: the difference between replay at a few
 * thousand and at tens of thousands of events a second. `tables` renames targets (replay writes
 * into shadow tables).
 */
export interface OpsWriterOptions {
  /** A SQL condition every statement also requires (the one-statement append's "the events went in"). */
  readonly guard?: string;
  /** Where column types are looked up, when `sql` only collects statements. */
  readonly catalog?: Sql;
}

/**
 * `ops` with each table's ops together, in their own order, tables in the order they first appear.
 * Read tables are independent of each other (no foreign keys, docs/contexts.md), so only the order
 * within a table matters; two projections of one event type interleave by event otherwise, and
 * every op would end the batch of the one before (rota_shifts, rota_volunteer_hours, rota_shifts…).
 */
export function byTable(ops: readonly ProjectionOp[]): ProjectionOp[] {
  return [...groupBy(ops, (o) => o.table).values()].flat();
}

export class OpsWriter {
  private batch: Upsert[] = [];
  private batchKeys = new Set<string>();
  private updates: Update[] = [];
  private updateKeys = new Set<string>();
  private deletes: Delete[] = [];

  constructor(
    private readonly sql: Sql,
    private readonly types: ColumnTypes,
    private readonly tables: ReadonlyMap<string, string> = new Map(),
    private readonly options: OpsWriterOptions = {},
  ) {}

  private columnTypes(table: string): Promise<Map<string, string>> {
    return this.types.of(this.options.catalog ?? this.sql, table);
  }

  async write(ops: readonly ProjectionOp[]): Promise<void> {
    for (const o of ops) {
      if (o.kind === 'upsert' && this.updates.length === 0 && this.deletes.length === 0 && this.fits(o)) {
        this.add(o);
        continue;
      }
      if (o.kind === 'update' && this.batch.length === 0 && this.deletes.length === 0 && this.fitsUpdate(o)) {
        this.addUpdate(o);
        continue;
      }
      if (o.kind === 'delete' && this.batch.length === 0 && this.updates.length === 0 && this.fitsDelete(o)) {
        this.deletes.push(o);
        continue;
      }
      await this.flush();
      if (o.kind === 'upsert') this.add(o);
      else if (o.kind === 'update' && batchable(o)) this.addUpdate(o);
      else if (o.kind === 'update') await this.update(o.table, o.where, o.set);
      else if (batchableDelete(o)) this.deletes.push(o);
      else await this.delete(o.table, o.where);
    }
  }

  async flush(): Promise<void> {
    const [batch, updates, deletes] = [this.batch, this.updates, this.deletes];
    this.batch = [];
    this.batchKeys.clear();
    this.updates = [];
    this.updateKeys.clear();
    this.deletes = [];
    if (batch.length > 0) await this.upsert(batch);
    if (updates.length === 1) await this.update(updates[0]!.table, updates[0]!.where, updates[0]!.set);
    else if (updates.length > 1) await this.updateMany(updates);
    if (deletes.length === 1) await this.delete(deletes[0]!.table, deletes[0]!.where);
    else if (deletes.length > 1) {
      // Consecutive deletes of one table by one column: one statement (an anonymisation cancels
      // hundreds of shifts, each deleting its row of two read models; bench/README.md, anonymise).
      const [column] = Object.keys(deletes[0]!.where);
      await this.delete(deletes[0]!.table, { [column!]: deletes.map((d) => d.where[column!]) });
    }
  }

  private fitsDelete(o: Delete): boolean {
    if (!batchableDelete(o)) return false;
    const first = this.deletes[0];
    return !first || (first.table === o.table && sameList(Object.keys(first.where), Object.keys(o.where)));
  }

  // Consecutive updates of one table by the same key and set columns become one statement; as for
  // upserts, a row touched twice starts a new one (an UPDATE … FROM applies one source row per row).
  private fitsUpdate(o: Update): boolean {
    if (!batchable(o)) return false;
    const first = this.updates[0];
    if (!first) return true;
    return (
      first.table === o.table &&
      sameList(Object.keys(first.where), Object.keys(o.where)) &&
      sameList(Object.keys(first.set), Object.keys(o.set)) &&
      !this.updateKeys.has(JSON.stringify(Object.values(o.where)))
    );
  }

  private addUpdate(o: Update): void {
    this.updates.push(o);
    this.updateKeys.add(JSON.stringify(Object.values(o.where)));
  }

  private target(table: string): string {
    return quote(this.tables.get(table) ?? table);
  }

  // Postgres refuses to touch one row twice in a single ON CONFLICT statement, so a repeated key
  // starts a new batch; so do a different table or column set.
  private fits(o: Upsert): boolean {
    const first = this.batch[0];
    if (!first) return true;
    return (
      first.table === o.table &&
      sameList(first.key, o.key) &&
      sameList(Object.keys(first.row), Object.keys(o.row)) &&
      !this.batchKeys.has(keyOf(o))
    );
  }

  private add(o: Upsert): void {
    this.batch.push(o);
    this.batchKeys.add(keyOf(o));
  }

  /**
   * The batch travels as JSON (`pg` builds Postgres array literals in JavaScript, which cost more
   * than the rest of a replay together, while JSON.stringify is native), in one of two forms
   * measured against each other (bench/README.md):
   * - under COLUMNAR_FROM rows (every live write): one JSON array of row objects, unpacked by one
   *   jsonb_to_recordset. Postgres sets up one function scan instead of one per column, which is
   *   most of a single-row statement's cost;
   * - from COLUMNAR_FROM rows (replay batches): one JSON array per column, unpacked by ROWS FROM,
   *   which Postgres reads about 20% faster per row in large batches.
   * Either way a JSON null, or a missing value, is SQL NULL. The columnar form casts, the row form
   * converts, so they part only where a cast is lenient: a too-long value for varchar(n) is cut by
   * the one and refused by the other (projection tables use text), and an object in a text column
   * keeps or loses JSON's spaces (store objects in jsonb columns).
   */
  private async upsert(batch: Upsert[]): Promise<void> {
    const { table, key, row } = batch[0]!;
    const columns = Object.keys(row);
    const types = await this.columnTypes(table);
    const target = this.target(table);
    const columnar = batch.length >= COLUMNAR_FROM;
    const shape = `upsert\0${columnar}\0${target}\0${key.join(',')}\0${columns.join(',')}\0${this.options.guard ?? ''}`;
    const text = this.types.text(shape, () => {
      const typed = columns.map((c) => {
        const type = types.get(c);
        if (!type) throw new Error(`projection table ${table} has no column ${c}`);
        // A JSON array cannot become a Postgres array; lists belong in jsonb columns.
        if (type.endsWith('[]')) throw new Error(`projection column ${table}.${c} is an array; use jsonb`);
        return { column: quote(c), type, json: type === 'jsonb' || type === 'json' };
      });
      const list = typed.map((t) => t.column).join(', ');
      const source = columnar
        ? `SELECT ${typed.map((t, i) => (t.json ? `NULLIF(c${i}, 'null'::jsonb)::${t.type}` : `c${i}::${t.type}`)).join(', ')} ` +
          `FROM ROWS FROM (${typed.map(arrayElements).join(', ')}) ` +
          `AS t(${typed.map((_, i) => `c${i}`).join(', ')}) `
        : `SELECT ${list} FROM jsonb_to_recordset($1::jsonb) AS t(${typed.map((t) => `${t.column} ${t.type}`).join(', ')}) `;
      const updates = columns.filter((c) => !key.includes(c));
      return (
        `INSERT INTO ${target} (${list}) ${source}` +
        (this.options.guard ? `WHERE ${this.options.guard} ` : '') +
        `ON CONFLICT (${key.map(quote).join(', ')}) ` +
        (updates.length
          ? `DO UPDATE SET ${updates.map((c) => `${quote(c)} = EXCLUDED.${quote(c)}`).join(', ')}`
          : 'DO NOTHING')
      );
    });
    const params = columnar
      ? columns.map((c) => json(batch.map((o) => o.row[c] ?? null)))
      : [json(batch.map((o) => o.row))];
    await this.sql(text, params);
  }

  private async update(table: string, where: Row, set: Row): Promise<void> {
    const types = await this.columnTypes(table);
    const params: unknown[] = [];
    const assignments = Object.entries(set).map(([c, v]) => {
      params.push(toParam(v, types.get(c) ?? 'text'));
      return `${quote(c)} = $${params.length}`;
    });
    const condition = this.condition(where, params);
    await this.sql(`UPDATE ${this.target(table)} SET ${assignments.join(', ')} WHERE ${condition}`, params);
  }

  /** Updates of one shape (fitsUpdate) as one `UPDATE … FROM jsonb_to_recordset`: a bulk's 20,000 cancellations in one statement. */
  private async updateMany(updates: Update[]): Promise<void> {
    const { table, where, set } = updates[0]!;
    const types = await this.columnTypes(table);
    const [keys, columns] = [Object.keys(where), Object.keys(set)];
    const target = this.target(table);
    const shape = `updates\0${target}\0${keys.join(',')}\0${columns.join(',')}\0${this.options.guard ?? ''}`;
    const text = this.types.text(shape, () => {
      const typeOf = (c: string) => {
        const type = types.get(c);
        if (!type) throw new Error(`projection table ${table} has no column ${c}`);
        return type;
      };
      // The source's columns are named k0…, s0… so a column both matched and set is listed twice without a clash.
      const source = [...keys.map((c, i) => `k${i} ${typeOf(c)}`), ...columns.map((c, i) => `s${i} ${typeOf(c)}`)].join(
        ', ',
      );
      return (
        `UPDATE ${target} AS t SET ${columns.map((c, i) => `${quote(c)} = v.s${i}`).join(', ')} ` +
        `FROM jsonb_to_recordset($1::jsonb) AS v(${source}) ` +
        `WHERE ${keys.map((c, i) => `t.${quote(c)} = v.k${i}`).join(' AND ')}` +
        (this.options.guard ? ` AND ${this.options.guard}` : '')
      );
    });
    const rows = updates.map((u) =>
      Object.fromEntries([
        ...keys.map((c, i) => [`k${i}`, u.where[c] ?? null]),
        ...columns.map((c, i) => [`s${i}`, u.set[c] ?? null]),
      ]),
    );
    await this.sql(text, [json(rows)]);
  }

  private async delete(table: string, where: Row): Promise<void> {
    const params: unknown[] = [];
    const condition = this.condition(where, params);
    await this.sql(`DELETE FROM ${this.target(table)} WHERE ${condition}`, params);
  }

  private condition(where: Row, params: unknown[]): string {
    const parts = Object.entries(where).map(([c, v]) => {
      if (v instanceof Holds) {
        params.push(v.value);
        return `$${params.length} = ANY(${quote(c)})`;
      }
      params.push(v);
      return Array.isArray(v) ? `${quote(c)} = ANY($${params.length})` : `${quote(c)} = $${params.length}`;
    });
    if (parts.length === 0) throw new Error('a projection update or delete needs a where clause');
    if (this.options.guard) parts.push(this.options.guard);
    return parts.join(' AND ');
  }
}

/** A delete by one column's single value: consecutive ones of a table become one `= ANY` delete. */
const batchableDelete = (o: Delete) => {
  const values = Object.values(o.where);
  return values.length === 1 && !Array.isArray(values[0]) && !(values[0] instanceof Holds) && values[0] != null;
};

/** An update whose where clause names single values (a list is `= ANY`, which one source row cannot match). */
const batchable = (o: Update) =>
  Object.values(o.where).every((v) => !Array.isArray(v) && !(v instanceof Holds) && v !== null && v !== undefined);

function keyOf(o: Upsert): string {
  return JSON.stringify(o.key.map((k) => o.row[k]));
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Batches this large go column by column (see `upsert`). */
const COLUMNAR_FROM = 100;

/** JSON text of `value`; bigints (which JSON.stringify refuses) as their decimal strings. */
function json(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  }
}

function toParam(value: unknown, type: string): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'jsonb' || type === 'json') return JSON.stringify(value);
  if (value instanceof Date) return value.toISOString();
  return value;
}
