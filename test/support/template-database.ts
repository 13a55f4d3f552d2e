import pg from 'pg';
import { DataSource } from 'typeorm';
import { migrations } from '../../migrations/index.js';

const TEMPLATE = 'uvol_test_template';

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
 * Clones the migrated template into `database`. The first file of a run (re)builds the template;
 * an advisory lock makes the other workers wait for it, and cloning happens under the same lock
 * because CREATE DATABASE … TEMPLATE refuses while anyone is connected to the template.
 */
export async function createTestDatabase(adminUrl: string, database: string, runId: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`SELECT pg_advisory_lock(hashtext('uvol-test-template'))`);
    const { rows } = await admin.query(
      `SELECT shobj_description(oid, 'pg_database') AS run FROM pg_database WHERE datname = $1`,
      [TEMPLATE],
    );
    if (rows[0]?.run !== runId) await rebuildTemplate(admin, adminUrl, runId);
    await admin.query(`CREATE DATABASE ${database} TEMPLATE ${TEMPLATE}`);
  } finally {
    await admin.query(`SELECT pg_advisory_unlock(hashtext('uvol-test-template'))`).catch(() => undefined);
    await admin.end();
  }
}

async function rebuildTemplate(admin: pg.Client, adminUrl: string, runId: string): Promise<void> {
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE}`);
  const ds = await new DataSource({ type: 'postgres', url: withDatabase(adminUrl, TEMPLATE), migrations }).initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
  // Marks which run built it, so every run migrates afresh once.
  await admin.query(`COMMENT ON DATABASE ${TEMPLATE} IS '${runId.replace(/'/g, '')}'`);
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
