import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppConfig, loadConfig } from '#app/platform';
import { deleteRedisKeys, testQueuePrefix } from './global-teardown.js';
import { createTestDatabase, dropTestDatabase, testDatabaseName, withDatabase } from './template-database.js';

export interface TestEnvironment {
  readonly config: AppConfig;
  /** True when the suite runs without servers (PGlite, BullMQ on Postgres). */
  readonly embedded: boolean;
  cleanup(): Promise<void>;
}

/**
 * A fresh world for one test file: its own database cloned from the migrated template (or its own
 * embedded PGlite), its own BullMQ prefix, its own DATA_DIR. `cleanup()` (after the app is closed)
 * removes all three; global-teardown.ts catches what a crashed file left.
 */
export async function testEnvironment(
  overrides: Record<string, string> = {},
  options: { embedded?: boolean } = {},
): Promise<TestEnvironment> {
  const adminUrl = options.embedded ? undefined : process.env.TEST_PG_ADMIN_URL || undefined;
  const redisUrl = options.embedded ? undefined : process.env.TEST_REDIS_URL || undefined;
  // Under the run's temporary folder (TMPDIR, set by global-setup.ts).
  const dataDir = mkdtempSync(join(tmpdir(), 'uvol-test-'));
  const suffix = randomBytes(6).toString('hex');
  const runId = process.env.TEST_RUN_ID ?? 'adhoc';
  // Named by run, so the run's teardown drops its own databases and keys and never another run's.
  const database = testDatabaseName(runId, suffix);
  const queuePrefix = testQueuePrefix(runId, suffix);
  if (adminUrl) await createTestDatabase(adminUrl, database, runId);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: adminUrl ? withDatabase(adminUrl, database) : undefined,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: 'silent',
    REACTOR_POLL_MS: '50',
    PUBLIC_URL: 'http://api.test',
    ...overrides,
  });
  return {
    config,
    embedded: !adminUrl,
    async cleanup() {
      if (adminUrl) await dropTestDatabase(adminUrl, database);
      // The generated prefix only: an override may name a prefix the test shares on purpose.
      if (config.queue.redisUrl) await deleteRedisKeys(config.queue.redisUrl, `${queuePrefix}:*`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
