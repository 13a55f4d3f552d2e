import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres.js';

/** `work`, or an error naming `what` once `ms` have passed: a failure says which step hung. */
async function within<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A statement or connection takes milliseconds; this is far beyond a slow machine's delay. */
const STEP_MS = 20_000;

/** The embedded database as the service uses it: PGlite behind a socket, many pool connections. */
describe('embedded PostgreSQL (PGlite over a Unix socket)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'uvol-pglite-'));
  /**
   * One in-memory database for the first two tests, started once with its own limit. An in-memory
   * start runs initdb in this process and is nearly all of the notification test's time (its
   * statements take milliseconds). It slows with Jest's heap, which each full collection marks
   * whole (a run of one start had about ten, --trace-gc): with 1.1 GB held a start took 20-24 s on
   * a loaded machine instead of 5.5-7 s, and a worker late in a full run holds 1.8-3 GB. That is
   * how the notification test, its start included, once exceeded 60 s in the servers run under
   * load. Its connections and statements did not hang when repeated under two CPU burners (600
   * times on one server, 30 times on fresh ones); each is now bounded by name, so a hang would
   * say where.
   */
  let memory: EmbeddedPostgres | undefined;
  beforeAll(async () => {
    memory = await within(
      'starting PGlite in memory (initdb in this process)',
      170_000,
      startEmbeddedPostgres(undefined, join(dir, 'mem')),
    );
  }, 180_000);
  afterAll(async () => {
    try {
      if (memory) await within('stopping the in-memory database', STEP_MS, memory.stop());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps each connection’s extended-protocol queries whole while others run transactions', async () => {
    const pool = new pg.Pool({ connectionString: memory!.url, max: 8 });
    try {
      await pool.query('CREATE TABLE t (id int PRIMARY KEY, v text)');
      const errors: string[] = [];
      await Promise.all(
        Array.from({ length: 240 }, async (_, i) => {
          try {
            if (i % 3 === 0) {
              const c = await pool.connect();
              try {
                await c.query('BEGIN');
                await c.query('INSERT INTO t VALUES ($1, $2)', [i, 'x']);
                await c.query('SELECT * FROM t WHERE id = $1', [i]);
                await c.query('COMMIT');
              } finally {
                c.release();
              }
            } else {
              const { rows } = await pool.query(
                'SELECT $1::int + 1 AS n, (SELECT count(*) FROM t WHERE id < $2) AS c',
                [i, i],
              );
              if (rows[0].n !== i + 1) errors.push(`wrong answer for ${i}`);
            }
          } catch (err) {
            errors.push((err as Error).message);
          }
        }),
      );
      expect(errors).toEqual([]);
      expect((await pool.query('SELECT count(*)::int AS n FROM t')).rows[0].n).toBe(80);
    } finally {
      await within('ending the pool', STEP_MS, pool.end());
    }
  });

  it('delivers a notification to the connections that LISTEN, not only to the one that sent it', async () => {
    const clients: pg.Client[] = [];
    const connect = async (name: string) => {
      const c = new pg.Client({ connectionString: memory!.url });
      clients.push(c);
      await within(`connecting ${name}`, STEP_MS, c.connect());
      return c;
    };
    try {
      const [listener, other, quiet] = [await connect('listener'), await connect('other'), await connect('quiet')];
      const heard: string[] = [];
      const overheard: string[] = [];
      listener.on('notification', (n) => heard.push(`${n.channel}:${n.payload}`));
      quiet.on('notification', (n) => overheard.push(`${n.channel}:${n.payload}`));
      const step = (what: string, query: Promise<unknown>) => within(what, STEP_MS, query);
      await step('LISTEN', listener.query('LISTEN bullmq_jobs'));
      await step('pg_notify outside a transaction', other.query(`SELECT pg_notify('bullmq_jobs', 'one')`));
      await step('BEGIN', other.query('BEGIN'));
      await step('pg_notify in a transaction', other.query(`SELECT pg_notify('bullmq_jobs', $1)`, ['two']));
      await step('COMMIT', other.query('COMMIT'));
      // The listener's copies were written before this answer.
      await step("the quiet connection's SELECT 1", quiet.query('SELECT 1'));
      await step("the listener's SELECT 1", listener.query('SELECT 1'));
      expect(heard).toEqual(['bullmq_jobs:one', 'bullmq_jobs:two']);
      expect(overheard).toEqual([]);
    } finally {
      await within('ending the clients', STEP_MS, Promise.all(clients.map((c) => c.end())));
    }
  });

  it('keeps its data across a restart, and refuses a second process on the same folder', async () => {
    const data = join(dir, 'data');
    const first = await startEmbeddedPostgres(data, data);
    const client = new pg.Client({ connectionString: first.url });
    await client.connect();
    await client.query(`CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')`);
    await client.end();
    // Another live process owns the folder: refused with a clear message.
    writeFileSync(join(data, 'owner.pid'), String(process.ppid));
    await expect(startEmbeddedPostgres(data, data)).rejects.toThrow(/in use by process/);
    writeFileSync(join(data, 'owner.pid'), String(process.pid));
    await first.stop();

    const second = await startEmbeddedPostgres(data, data);
    const again = new pg.Client({ connectionString: second.url });
    await again.connect();
    expect((await again.query('SELECT v FROM kept')).rows).toEqual([{ v: 'still here' }]);
    await again.end();
    await second.stop();
    // Two starts, each opening a folder in this process: the same slow-start risk as beforeAll's.
  }, 180_000);
});
