import pg from 'pg';

/** Drops the databases test files left behind (a file that crashed cannot drop its own). */
export default async function globalTeardown(): Promise<void> {
  const adminUrl = process.env.TEST_PG_ADMIN_URL;
  if (!adminUrl) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'uvol_t_%'`);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
