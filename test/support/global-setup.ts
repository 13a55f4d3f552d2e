import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';

// Jest loads this file outside its module mapper, so it imports packages only, no project files.

const LOCAL_POSTGRES = ['postgres://app:app@127.0.0.1:5432/app_test', 'postgres://postgres@127.0.0.1:5432/postgres'];
// Database 15, not 0: a developer's Redis keeps its own data in 0, and `npm test` stays out of it
// unless REDIS_URL (or TEST_REDIS_URL) names another database.
const LOCAL_REDIS = 'redis://127.0.0.1:6379/15';

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/**
 * Picks the servers once for the whole run: DATABASE_URL / REDIS_URL when set, the local defaults
 * when they answer, the embedded mode (PGlite, BullMQ on Postgres) otherwise. The choice reaches
 * the test workers through the environment they inherit, as do the run id (which names the run's
 * databases, BullMQ prefixes and temporary folder, so global-teardown.ts removes what the run left
 * and nothing else) and TMPDIR: every temporary folder a test makes lands in `<tmp>/uvol-test-<run>-…`.
 */
export default async function globalSetup(): Promise<void> {
  // TEST_EMBEDDED=1 ignores running servers: the bare-machine run, on any machine.
  const embedded = process.env.TEST_EMBEDDED === '1';
  const candidates = embedded ? [] : process.env.DATABASE_URL ? [process.env.DATABASE_URL] : LOCAL_POSTGRES;
  let adminUrl: string | undefined;
  for (const url of candidates) {
    if (await postgresAnswers(url)) {
      adminUrl = url;
      break;
    }
  }
  if (process.env.DATABASE_URL && !adminUrl) throw new Error('DATABASE_URL is set but does not answer');
  const askedRedis = process.env.TEST_REDIS_URL || process.env.REDIS_URL || undefined;
  const redisUrl = embedded ? undefined : (askedRedis ?? ((await redisAnswers(LOCAL_REDIS)) ? LOCAL_REDIS : undefined));
  if (redisUrl && askedRedis && !(await redisAnswers(askedRedis)))
    throw new Error(`${process.env.TEST_REDIS_URL ? 'TEST_REDIS_URL' : 'REDIS_URL'} is set but does not answer`);
  const runId = `${process.pid}`;
  process.env.TEST_PG_ADMIN_URL = adminUrl ?? '';
  process.env.TEST_REDIS_URL = redisUrl ?? '';
  process.env.TEST_RUN_ID = runId;
  // os.tmpdir() reads TMPDIR on every call, in the workers Jest starts next and the processes they spawn.
  process.env.TEST_TMPDIR_BEFORE = process.env.TMPDIR ?? '';
  process.env.TEST_TMP_ROOT = mkdtempSync(join(tmpdir(), `uvol-test-${runId}-`));
  process.env.TMPDIR = process.env.TEST_TMP_ROOT;
  const hidePassword = (url: string) => url.replace(/:[^:@/]+@/, ':***@');
  const shownDb = adminUrl ? hidePassword(adminUrl) : 'embedded PGlite';
  process.stderr.write(
    `\n[tests] database: ${shownDb}; queues: ${redisUrl ? hidePassword(redisUrl) : 'BullMQ on PostgreSQL'}\n`,
  );
}
