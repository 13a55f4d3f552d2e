import { readFileSync } from 'node:fs';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { migrations } from '../migrations/index.js';

/** The admin connection: scratch databases are created and dropped through it. */
export const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** `ADMIN_URL` pointed at another database of the same server. */
export function urlFor(database: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A fresh, empty `uvol_bench_*` database; returns its URL. */
export async function createScratch(name: string): Promise<string> {
  if (!name.startsWith('uvol_bench_')) throw new Error(`scratch databases are named uvol_bench_*, not ${name}`);
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${quote(name)}`);
  });
  return urlFor(name);
}

export async function dropScratch(name: string): Promise<void> {
  if (!name.startsWith('uvol_bench_')) throw new Error(`refusing to drop ${name}`);
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`));
}

/** A TypeORM DataSource on `url` with the application's migrations applied (as the apps build theirs). */
export async function openDataSource(url: string, poolSize = 10): Promise<DataSource> {
  const dataSource = new DataSource({
    type: 'postgres',
    url,
    migrations: [...migrations],
    migrationsRun: false,
    synchronize: false,
    extra: { max: poolSize },
  });
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}

export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Seconds since `start` (a `performance.now()` reading). */
export const secondsSince = (start: number) => (performance.now() - start) / 1000;

/**
 * CPU ticks (USER_HZ, 100 a second) the whole machine has spent busy: user, nice, system, irq and
 * softirq, so Postgres's work counts. Steal (time the VM's host gave to others) does not.
 */
export const busyTicks = () => {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return f[0]! + f[1]! + f[2]! + f[5]! + f[6]!;
};
