/**
 * A bench-only prototype of a faster OpsWriter upsert, to measure a suggested change without
 * touching libs/: the batch goes to Postgres as ONE json document read by
 * json_populate_recordset(NULL::<target>, $1), instead of one typed array per column read by
 * unnest(). JSON.stringify of the whole batch is native and needs no array-literal escaping, and
 * Postgres parses one json value instead of an array literal whose jsonb elements are parsed one
 * by one. It is swapped into OpsWriter.prototype for the duration of `work` only.
 */
import { type ColumnTypes, OpsWriter, type Sql } from '../libs/event-store/src/ops-writer.js';
import type { ProjectionOp } from '../libs/event-store/src/projection.js';

type Upsert = Extract<ProjectionOp, { kind: 'upsert' }>;

interface WriterInternals {
  sql: Sql;
  types: ColumnTypes;
  target(table: string): string;
  upsert(batch: Upsert[]): Promise<void>;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function upsertAsJson(this: WriterInternals, batch: Upsert[]): Promise<void> {
  const { table, key, row } = batch[0]!;
  const columns = Object.keys(row);
  const types = await this.types.of(this.sql, table);
  for (const c of columns) if (!types.has(c)) throw new Error(`projection table ${table} has no column ${c}`);
  const target = this.target(table);
  const list = columns.map(quote).join(', ');
  const updates = columns.filter((c) => !key.includes(c));
  const text =
    `INSERT INTO ${target} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${target}, $1::json) ` +
    `ON CONFLICT (${key.map(quote).join(', ')}) ` +
    (updates.length ? `DO UPDATE SET ${updates.map((c) => `${quote(c)} = EXCLUDED.${quote(c)}`).join(', ')}` : 'DO NOTHING');
  await this.sql(text, [JSON.stringify(batch.map((o) => o.row))]);
}

/** This writer (only) upserts through json_populate_recordset. */
export function useJsonUpsert(writer: OpsWriter): OpsWriter {
  (writer as unknown as WriterInternals).upsert = upsertAsJson;
  return writer;
}

/** Every OpsWriter upserts through json_populate_recordset while `work` runs. */
export async function withJsonUpsert<T>(work: () => Promise<T>): Promise<T> {
  const proto = OpsWriter.prototype as unknown as WriterInternals;
  const original = proto.upsert;
  proto.upsert = upsertAsJson;
  try {
    return await work();
  } finally {
    proto.upsert = original;
  }
}
