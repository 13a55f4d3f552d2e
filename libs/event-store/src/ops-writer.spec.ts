import { describe, expect, it } from '@jest/globals';
import { byTable, ColumnTypes, OpsWriter } from './ops-writer.js';
import { op } from './projection.js';

/** A statement recorder standing in for the connection: this spec is about which statements are made. */
function recorder() {
  const statements: { text: string; params?: unknown[] }[] = [];
  const sql = async (text: string, params?: unknown[]) => {
    if (text.includes('pg_attribute')) {
      return [
        { name: 'id', type: 'bigint' },
        { name: 'name', type: 'text' },
        { name: 'data', type: 'jsonb' },
      ];
    }
    statements.push({ text, params });
    return [];
  };
  return { sql, statements };
}

describe('OpsWriter', () => {
  it('given consecutive upserts into one table, writes one statement with the rows as one JSON parameter', async () => {
    const { sql, statements } = recorder();
    const writer = new OpsWriter(sql, new ColumnTypes());
    await writer.write([
      op.upsert('t', ['id'], { id: 1, name: 'a', data: { x: [1] } }),
      op.upsert('t', ['id'], { id: 2, name: 'b', data: null }),
    ]);
    await writer.flush();
    expect(statements).toHaveLength(1);
    expect(statements[0]!.text).toBe(
      'INSERT INTO "t" ("id", "name", "data") SELECT "id", "name", "data" FROM jsonb_to_recordset($1::jsonb) AS t("id" bigint, "name" text, "data" jsonb) ' +
        'ON CONFLICT ("id") DO UPDATE SET "name" = EXCLUDED."name", "data" = EXCLUDED."data"',
    );
    expect(statements[0]!.params).toEqual(['[{"id":1,"name":"a","data":{"x":[1]}},{"id":2,"name":"b","data":null}]']);
  });

  it('given a batch of 100 rows or more (a replay), sends one JSON array per column, unpacked by ROWS FROM', async () => {
    const { sql, statements } = recorder();
    const writer = new OpsWriter(sql, new ColumnTypes());
    await writer.write(
      Array.from({ length: 100 }, (_, i) =>
        op.upsert('t', ['id'], { id: i, name: `n${i}`, data: i === 0 ? null : { i } }),
      ),
    );
    await writer.flush();
    expect(statements).toHaveLength(1);
    expect(statements[0]!.text).toBe(
      'INSERT INTO "t" ("id", "name", "data") SELECT c0::bigint, c1::text, NULLIF(c2, \'null\'::jsonb)::jsonb ' +
        'FROM ROWS FROM (json_array_elements_text($1::json), json_array_elements_text($2::json), jsonb_array_elements($3::jsonb)) AS t(c0, c1, c2) ' +
        'ON CONFLICT ("id") DO UPDATE SET "name" = EXCLUDED."name", "data" = EXCLUDED."data"',
    );
    const [ids, names, data] = statements[0]!.params as string[];
    expect(JSON.parse(ids!)).toHaveLength(100);
    expect(JSON.parse(names!).slice(0, 2)).toEqual(['n0', 'n1']);
    expect(JSON.parse(data!).slice(0, 2)).toEqual([null, { i: 1 }]);
  });

  it('given a bigint value, sends it as its decimal string (JSON has no bigint)', async () => {
    const { sql, statements } = recorder();
    const writer = new OpsWriter(sql, new ColumnTypes());
    await writer.write([op.upsert('t', ['id'], { id: 1, name: 9007199254740993n })]);
    await writer.flush();
    expect(statements[0]!.params).toEqual(['[{"id":1,"name":"9007199254740993"}]']);
  });

  it('given the same key twice, splits the batch (Postgres cannot touch a row twice in one statement)', async () => {
    const { sql, statements } = recorder();
    const writer = new OpsWriter(sql, new ColumnTypes());
    await writer.write([op.upsert('t', ['id'], { id: 1, name: 'a' }), op.upsert('t', ['id'], { id: 1, name: 'b' })]);
    await writer.flush();
    expect(statements.map((s) => s.params)).toEqual([['[{"id":1,"name":"a"}]'], ['[{"id":1,"name":"b"}]']]);
  });

  it('keeps order: an update between upserts flushes the upserts first', async () => {
    const { sql, statements } = recorder();
    const writer = new OpsWriter(sql, new ColumnTypes());
    await writer.write([
      op.upsert('t', ['id'], { id: 1, name: 'a' }),
      op.update('t', { id: [1, 2] }, { name: 'z' }),
      op.delete('t', { id: 3 }),
    ]);
    await writer.flush();
    expect(statements.map((s) => s.text.split(' ')[0])).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    expect(statements[1]).toEqual({ text: 'UPDATE "t" SET "name" = $1 WHERE "id" = ANY($2)', params: ['z', [1, 2]] });
  });

  it('writes into the renamed table during replay', async () => {
    const { sql, statements } = recorder();
    const writer = new OpsWriter(sql, new ColumnTypes(), new Map([['t', 't__rebuild']]));
    await writer.write([op.delete('t', { id: 1 })]);
    await writer.flush();
    expect(statements[0]!.text).toBe('DELETE FROM "t__rebuild" WHERE "id" = $1');
  });

  it('given consecutive deletes of one table by one column, when written, then one statement deletes them all', async () => {
    const { sql, statements } = recorder();
    const writer = new OpsWriter(sql, new ColumnTypes());
    await writer.write([
      op.delete('t', { id: 1 }),
      op.delete('t', { id: 2 }),
      op.delete('t', { id: 3 }),
      op.delete('u', { id: 4 }),
      op.upsert('t', ['id'], { id: 1 }),
    ]);
    await writer.flush();
    expect(statements.map((s) => [s.text, s.params])).toEqual([
      ['DELETE FROM "t" WHERE "id" = ANY($1)', [[1, 2, 3]]],
      ['DELETE FROM "u" WHERE "id" = $1', [4]],
      [expect.stringContaining('INSERT INTO "t"'), expect.anything()],
    ]);
  });

  it('given op.has in a where clause, matches the rows whose array column holds the value, one statement per op', async () => {
    const { sql, statements } = recorder();
    const writer = new OpsWriter(sql, new ColumnTypes());
    await writer.write([
      op.delete('t', { org: 1, ids: op.has(7) }),
      op.update('t', { org: 1, ids: op.has(8) }, { name: '' }),
      op.update('t', { org: 1, ids: op.has(9) }, { name: '' }),
    ]);
    await writer.flush();
    expect(statements.map((st) => [st.text, st.params])).toEqual([
      ['DELETE FROM "t" WHERE "org" = $1 AND $2 = ANY("ids")', [1, 7]],
      ['UPDATE "t" SET "name" = $1 WHERE "org" = $2 AND $3 = ANY("ids")', ['', 1, 8]],
      ['UPDATE "t" SET "name" = $1 WHERE "org" = $2 AND $3 = ANY("ids")', ['', 1, 9]],
    ]);
  });

  it('refuses an update or delete with no where clause', async () => {
    const { sql } = recorder();
    await expect(new OpsWriter(sql, new ColumnTypes()).write([op.delete('t', {})])).rejects.toThrow(/where/);
  });
});

describe('byTable', () => {
  it("given two projections' ops interleaved by event, keeps each table's in order and puts them together, so each table is one batch", async () => {
    const interleaved = [
      op.upsert('a', ['id'], { id: 1, name: 'one' }),
      op.upsert('b', ['id'], { id: 1, name: 'one' }),
      op.update('a', { id: 1 }, { name: 'uno' }),
      op.upsert('b', ['id'], { id: 2, name: 'two' }),
      op.delete('a', { id: 1 }),
    ];
    expect(byTable(interleaved)).toEqual([
      interleaved[0],
      interleaved[2],
      interleaved[4],
      interleaved[1],
      interleaved[3],
    ]);

    const { sql, statements } = recorder();
    const writer = new OpsWriter(sql, new ColumnTypes());
    const upserts = [1, 2, 3].flatMap((id) => [
      op.upsert('a', ['id'], { id, name: 'a' }),
      op.upsert('b', ['id'], { id, name: 'b' }),
    ]);
    await writer.write(byTable(upserts));
    await writer.flush();
    expect(statements.map((s) => s.text.slice(0, 15))).toEqual(['INSERT INTO "a"', 'INSERT INTO "b"']);
  });
});
