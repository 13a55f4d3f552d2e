import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppConfig, loadConfig } from '#app/platform';
import { deleteRedisKeys, testQueuePrefix } from './global-teardown.js';
import { type S3Server, startS3Server } from './s3-server.js';
import { createTestDatabase, dropTestDatabase, testDatabaseName, withDatabase } from './template-database.js';

export interface TestEnvironment {
  readonly config: AppConfig;
  /** True when the suite runs without servers (PGlite, BullMQ on Postgres). */
  readonly embedded: boolean;
  /** With `operatorFeatures`: the bucket the files live in. */
  readonly s3?: S3Server;
  /** With `operatorFeatures`: a webhook receiver on 127.0.0.1 (answers 204) for `subscribeWebhooks` (test-app.ts). */
  readonly webhookReceiver?: { readonly url: string; received(): number };
  cleanup(): Promise<void>;
}

/** The dashboard's password and the metrics token `operatorFeatures` sets (user `admin` for the dashboard). */
export const OPERATOR_SECRETS = {
  adminPassword: 'a dashboard password',
  metricsToken: 'metrics-token-for-tests',
} as const;

/**
 * A fresh world for one test file: its own database cloned from the migrated template (or its own
 * embedded PGlite), its own BullMQ prefix, its own DATA_DIR. `cleanup()` (after the app is closed)
 * removes all three; global-teardown.ts catches what a crashed file left.
 *
 * `operatorFeatures`: the service as an operator runs it, every optional feature on: the queue
 * dashboard (ADMIN_PASSWORD), /metrics (METRICS_TOKEN), files in S3 (an s3rver of the file's
 * own) and a webhook receiver (WEBHOOK_ALLOW_PRIVATE, as it is on 127.0.0.1) that a suite
 * subscribes with `subscribeWebhooks`. Not the default: many suites assert the features' absence
 * (files under DATA_DIR, /metrics a 404). Its cost (an s3rver, the dashboard) was lost in the noise
 * of a loaded machine: boots of 4.3–5.4 s with it, 2.5–13 s without.
 */
export async function testEnvironment(
  overrides: Record<string, string> = {},
  options: { embedded?: boolean; operatorFeatures?: boolean } = {},
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
  const s3 = options.operatorFeatures ? await startS3Server() : undefined;
  const webhookReceiver = options.operatorFeatures ? await startWebhookReceiver() : undefined;
  const features = s3
    ? {
        ADMIN_PASSWORD: OPERATOR_SECRETS.adminPassword,
        METRICS_TOKEN: OPERATOR_SECRETS.metricsToken,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        ...s3.env,
      }
    : {};
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: adminUrl ? withDatabase(adminUrl, database) : undefined,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: 'silent',
    REACTOR_POLL_MS: '50',
    PUBLIC_URL: 'http://api.test',
    ...features,
    ...overrides,
  });
  return {
    config,
    embedded: !adminUrl,
    ...(s3 && { s3 }),
    ...(webhookReceiver && { webhookReceiver }),
    async cleanup() {
      await s3?.close();
      await webhookReceiver?.close();
      if (adminUrl) await dropTestDatabase(adminUrl, database);
      // The generated prefix only: an override may name a prefix the test shares on purpose.
      if (config.queue.redisUrl) await deleteRedisKeys(config.queue.redisUrl, `${queuePrefix}:*`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An HTTP server on 127.0.0.1 that answers every request 204 and counts them. */
async function startWebhookReceiver(): Promise<{ url: string; received(): number; close(): Promise<void> }> {
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    req.resume().on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
