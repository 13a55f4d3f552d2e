import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres.js';

/** The embedded database as the service uses it: PGlite behind a socket, many pool connections. */
describe('embedded PostgreSQL (PGlite over a Unix socket)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'uvol-pglite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps each connection’s extended-protocol queries whole while others run transactions', async () => {
    const embedded = await startEmbeddedPostgres(undefined, join(dir, 'mem'));
    const pool = new pg.Pool({ connectionString: embedded.url, max: 8 });
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
      await pool.end();
      await embedded.stop();
    }
  });

  it('delivers a notification to the connections that LISTEN, not only to the one that sent it', async () => {
    const embedded = await startEmbeddedPostgres(undefined, join(dir, 'notify'));
    const connect = async () => {
      const c = new pg.Client({ connectionString: embedded.url });
      await c.connect();
      return c;
    };
    const [listener, other, quiet] = [await connect(), await connect(), await connect()];
    try {
      const heard: string[] = [];
      const overheard: string[] = [];
      listener.on('notification', (n) => heard.push(`${n.channel}:${n.payload}`));
      quiet.on('notification', (n) => overheard.push(`${n.channel}:${n.payload}`));
      await listener.query('LISTEN bullmq_jobs');
      await other.query(`SELECT pg_notify('bullmq_jobs', 'one')`);
      await other.query('BEGIN');
      await other.query(`SELECT pg_notify('bullmq_jobs', $1)`, ['two']);
      await other.query('COMMIT');
      await quiet.query('SELECT 1'); // the listener's copies were written before this answer
      await listener.query('SELECT 1');
      expect(heard).toEqual(['bullmq_jobs:one', 'bullmq_jobs:two']);
      expect(overheard).toEqual([]);
    } finally {
      await Promise.all([listener.end(), other.end(), quiet.end()]);
      await embedded.stop();
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
  });
});
