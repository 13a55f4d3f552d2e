import pg from 'pg';
import { DataSource } from 'typeorm';
import { migrations } from '../../migrations/index.js';

/** `uvol_t_<run>_<suffix>`: the run id keeps concurrent runs' databases apart. */
export function testDatabaseName(runId: string, suffix: string): string {
  return `uvol_t_${runId.replace(/\W/g, '')}_${suffix}`;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * The run's migrated template, `uvol_t_<run>__template` (no file's suffix starts with `_`): one per
 * run, so concurrent runs (two checkouts, or runs as different roles) never rebuild each other's,
 * and global-teardown.ts drops it with the run's other databases.
 */
function templateName(runId: string): string {
  return testDatabaseName(runId, '_template');
}

/**
 * Clones the run's migrated template into `database`. The first file of a run builds the template;
 * an advisory lock makes the other workers wait for it, and cloning happens under the same lock
 * because CREATE DATABASE … TEMPLATE refuses while anyone is connected to the template.
 */
export async function createTestDatabase(adminUrl: string, database: string, runId: string): Promise<void> {
  const template = templateName(runId);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`SELECT pg_advisory_lock(hashtext($1))`, [template]);
    const { rows } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [template]);
    if (rows.length === 0) await buildTemplate(adminUrl, admin, template);
    await admin.query(`CREATE DATABASE ${database} TEMPLATE ${template}`);
  } finally {
    await admin.query(`SELECT pg_advisory_unlock(hashtext($1))`, [template]).catch(() => undefined);
    await admin.end();
  }
}

async function buildTemplate(adminUrl: string, admin: pg.Client, template: string): Promise<void> {
  await admin.query(`CREATE DATABASE ${template}`);
  const ds = await new DataSource({ type: 'postgres', url: withDatabase(adminUrl, template), migrations }).initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
  } catch (error) {
    await ds.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    throw error;
  }
  await ds.destroy();
}

export async function dropTestDatabase(adminUrl: string, database: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
