import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';

// Jest loads this file outside its module mapper, so it imports packages only, no project files;
// test-config.ts imports the helpers below from here.

/**
 * Removes what this run's test files left behind (a file that crashed cannot clean up after itself),
 * and only that: the databases `uvol_t_<run id>_…` (template-database.ts; the run's template among
 * them), the BullMQ keys under the prefixes `t<run id>-…` (testQueuePrefix below) and the run's
 * temporary folder (global-setup.ts), with the data directories, embedded databases and generated
 * JWT secrets in it. Never another run's.
 */
export default async function globalTeardown(): Promise<void> {
  const runId = (process.env.TEST_RUN_ID ?? '').replace(/\W/g, '');
  const tmpRoot = process.env.TEST_TMP_ROOT;
  if (tmpRoot) {
    rmSync(tmpRoot, { recursive: true, force: true });
    if (process.env.TEST_TMPDIR_BEFORE) process.env.TMPDIR = process.env.TEST_TMPDIR_BEFORE;
    else delete process.env.TMPDIR;
    delete process.env.TEST_TMP_ROOT;
  }
  if (!runId) return;
  const redisUrl = process.env.TEST_REDIS_URL;
  if (redisUrl) await deleteRedisKeys(redisUrl, runKeyPattern(runId));
  const adminUrl = process.env.TEST_PG_ADMIN_URL;
  if (!adminUrl) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [
      `uvol_t_${runId}_`,
    ]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * Deletes every key matching `pattern` (SCAN + UNLINK, never KEYS or FLUSHDB) and answers how many
 * it deleted. Best effort: a Redis that does not answer is skipped, not an error.
 */
export async function deleteRedisKeys(url: string, pattern: string): Promise<number> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1500,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  let deleted = 0;
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } catch {
    // Nothing to clean on a Redis that went away.
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/** The BullMQ prefix of one test file: `t<run>-<file>`, so the run's teardown finds its own. */
export function testQueuePrefix(runId: string, suffix: string): string {
  return `t${runId.replace(/\W/g, '')}-${suffix}`;
}

/** Matches the keys of every prefix `testQueuePrefix(runId, …)` gives. */
export function runKeyPattern(runId: string): string {
  return `t${runId.replace(/\W/g, '')}-*`;
}
