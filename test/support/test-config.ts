import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppConfig, loadConfig } from '#app/platform';
import { createTestDatabase, dropTestDatabase, withDatabase } from './template-database.js';

export interface TestEnvironment {
  readonly config: AppConfig;
  /** True when the suite runs without servers (PGlite, BullMQ on Postgres). */
  readonly embedded: boolean;
  cleanup(): Promise<void>;
}

/**
 * A fresh world for one test file: its own database cloned from the migrated template (or its own
 * embedded PGlite), its own BullMQ prefix, its own DATA_DIR.
 */
export async function testEnvironment(
  overrides: Record<string, string> = {},
  options: { embedded?: boolean } = {},
): Promise<TestEnvironment> {
  const adminUrl = options.embedded ? undefined : process.env.TEST_PG_ADMIN_URL || undefined;
  const redisUrl = options.embedded ? undefined : process.env.TEST_REDIS_URL || undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'uvol-test-'));
  const suffix = randomBytes(6).toString('hex');
  const database = `uvol_t_${suffix}`;
  if (adminUrl) await createTestDatabase(adminUrl, database, process.env.TEST_RUN_ID ?? 'adhoc');
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: adminUrl ? withDatabase(adminUrl, database) : undefined,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `t${suffix}`,
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
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
