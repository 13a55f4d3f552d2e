import { beforeAll, describe, expect, it } from '@jest/globals';
import { contextFixture } from '../../../test/support/test-context.js';
import { ColumnTypes, OpsWriter } from './ops-writer.js';
import { op, type Row } from './projection.js';

/** The two forms an upsert batch travels in (rows under 100, columns from 100) must store the same values. */
describe('OpsWriter against Postgres', () => {
  const ctx = contextFixture();

  beforeAll(async () => {
    await ctx.ds.query(
      `CREATE TABLE ops_forms (id bigint PRIMARY KEY, label text, amount numeric(12,2), day date, at timestamptz, done boolean, data jsonb)`,
    );
  });

  /** Row n of a set whose ids start at `base`: the values depend on n only. */
  const row = (base: number, n: number): Row => ({
    id: base + n,
    label: n % 3 === 0 ? null : `it's "${n}"`,
    amount: n % 4 === 0 ? undefined : 4.2 + n,
    day: '2026-11-22',
    at: new Date(Date.UTC(2026, 10, 22, 1, 2, 3)),
    done: n % 2 === 0,
    data: n % 5 === 0 ? null : { n, list: [1, 'two'] },
  });
  const write = async (rows: Row[]) => {
    const writer = new OpsWriter((text, params) => ctx.ds.query(text, params), new ColumnTypes());
    await writer.write(rows.map((r) => op.upsert('ops_forms', ['id'], r)));
    await writer.flush();
  };
  const read = (from: number, to: number) =>
    ctx.ds.query(
      `SELECT id - $1 AS n, label, amount, day::text, at, done, data FROM ops_forms WHERE id >= $1 AND id < $2 ORDER BY id`,
      [from, to],
    );

  it('given the same rows one at a time and as one batch of 150, then both store the same values, nulls as SQL NULL', async () => {
    for (let n = 0; n < 150; n++) await write([row(0, n)]);
    await write(Array.from({ length: 150 }, (_, n) => row(1000, n)));
    const single = await read(0, 150);
    const batch = await read(1000, 1150);
    expect(batch).toHaveLength(150);
    expect(batch).toEqual(single);
    expect(single[0]).toMatchObject({ label: null, amount: null, day: '2026-11-22', done: true, data: null });
    expect(single[1]).toMatchObject({
      label: `it's "1"`,
      amount: '5.20',
      done: false,
      data: { n: 1, list: [1, 'two'] },
    });
    expect(await ctx.ds.query(`SELECT count(*)::int AS n FROM ops_forms WHERE data IS NULL`)).toEqual([{ n: 60 }]);
  });

  it('given consecutive updates of one shape, one at a time and as one statement, then both leave the same rows; a row updated twice takes both in order', async () => {
    await write(Array.from({ length: 20 }, (_, n) => row(2000, n)));
    await write(Array.from({ length: 20 }, (_, n) => row(3000, n)));
    const changes = (base: number) =>
      Array.from({ length: 20 }, (_, n) =>
        op.update(
          'ops_forms',
          { id: base + n },
          {
            label: n % 3 === 0 ? null : `done "${n}"`,
            at: new Date(Date.UTC(2026, 11, 1, n)),
            data: { n, done: true },
          },
        ),
      );
    const statements: string[] = [];
    const writer = (log: boolean) =>
      new OpsWriter((text, params) => {
        if (log && text.startsWith('UPDATE')) statements.push(text);
        return ctx.ds.query(text, params);
      }, new ColumnTypes());
    for (const change of changes(2000)) {
      const one = writer(false);
      await one.write([change]);
      await one.flush();
    }
    const batched = writer(true);
    // The last update touches row 3005 again: a second statement, applied after the first.
    await batched.write([
      ...changes(3000),
      op.update('ops_forms', { id: 3005 }, { label: 'again', at: null, data: null }),
    ]);
    await batched.flush();
    expect(statements).toHaveLength(2);
    const single = await read(2000, 2020);
    const batch = await read(3000, 3020);
    expect(batch.filter((r: { n: string }) => r.n !== '5')).toEqual(single.filter((r: { n: string }) => r.n !== '5'));
    expect(batch[5]).toMatchObject({ label: 'again', at: null, data: null });
    expect(single[1]).toMatchObject({ label: 'done "1"', data: { n: 1, done: true } });
  });
});
