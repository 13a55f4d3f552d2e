import type { DataSource } from 'typeorm';

/** Migrations under an advisory lock, so an API and a worker booting together do not race. */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query(`SELECT pg_advisory_lock(hashtextextended('event-store:migrations', 0))`);
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    await runner.query(`SELECT pg_advisory_unlock(hashtextextended('event-store:migrations', 0))`).catch(() => undefined);
    await runner.release();
  }
}
