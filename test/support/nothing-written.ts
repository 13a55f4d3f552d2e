import { expect } from '@jest/globals';
import type { Response } from 'supertest';
import type { DataSource } from 'typeorm';

/** How many events the log holds: a refused request leaves the count as it was. */
export async function eventCount(ds: DataSource): Promise<number> {
  return Number((await ds.query('SELECT count(*)::int AS n FROM events'))[0].n);
}

/**
 * The row count of `table` and an md5 of all its rows (as text, in `orderBy` order): a replayed
 * projection gives the same, and a refused request leaves it as it was.
 */
export async function tableChecksum(
  ds: DataSource,
  table: string,
  orderBy = 'id',
): Promise<{ n: number; sum: string }> {
  const [row] = await ds.query(
    `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY ${orderBy}), '')) AS sum FROM ${table} t`,
  );
  return row;
}

/** `tableChecksum` of each of `tables` (ordered by `id`), by table. */
export async function tableChecksums(
  ds: DataSource,
  tables: string[],
): Promise<Record<string, { n: number; sum: string }>> {
  return Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await tableChecksum(ds, t)])));
}

/** The error body of a refused request (docs/http-conventions.md#errors). */
export interface ErrorBody {
  status_code: number;
  message: string;
  errors?: Record<string, string[]>;
}

/**
 * Sends a request that must be refused with `status` and an error body (its status_code and a
 * message), and checks that it wrote nothing: the log holds as many events as before, and each of
 * `tables` has the same checksum. Answers the error body.
 */
export async function expectRefused(
  ds: DataSource,
  send: () => PromiseLike<Response>,
  status: number,
  tables: string[] = [],
): Promise<ErrorBody> {
  const [before, rows] = [await eventCount(ds), await tableChecksums(ds, tables)];
  const res = await send();
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: expect.objectContaining({ status_code: status, message: expect.any(String) }),
  });
  expect(await eventCount(ds)).toBe(before);
  expect(await tableChecksums(ds, tables)).toEqual(rows);
  return res.body;
}

/** The fields a refused 422 names (`expectRefused`, then the keys of its `errors`), sorted. */
export async function refusedFields(ds: DataSource, send: () => PromiseLike<Response>): Promise<string[]> {
  return Object.keys((await expectRefused(ds, send, 422)).errors ?? {}).sort();
}
