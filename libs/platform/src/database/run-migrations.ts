import type { DataSource } from 'typeorm';

/**
 * Migrations under an advisory lock, so an API and a worker booting together do not race.
 * `progress` hears how many are pending and how long they took, when any are.
 */
export async function runMigrationsLocked(
  dataSource: DataSource,
  progress: (message: string) => void = () => undefined,
): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query(`SELECT pg_advisory_lock(hashtextextended('event-store:migrations', 0))`);
    const pending = await pendingCount(dataSource);
    const started = Date.now();
    if (pending > 0) progress(`running ${pending} migration${pending === 1 ? '' : 's'}…`);
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    if (ran.length > 0)
      progress(`ran ${ran.length} migration${ran.length === 1 ? '' : 's'} in ${Date.now() - started} ms`);
    return ran.map((m) => m.name);
  } finally {
    await runner
      .query(`SELECT pg_advisory_unlock(hashtextextended('event-store:migrations', 0))`)
      .catch(() => undefined);
    await runner.release();
  }
}

/** How many migrations the database has not had: all of them before the migrations table exists. */
export async function pendingCount(dataSource: DataSource): Promise<number> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const [{ present }] = await dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [table]);
  if (!present) return dataSource.migrations.length;
  const done: { name: string }[] = await dataSource.query(`SELECT name FROM "${table.replace(/"/g, '""')}"`);
  const names = new Set(done.map((r) => r.name));
  return dataSource.migrations.filter((m) => !names.has(m.name ?? m.constructor.name)).length;
}
