import pg from 'pg';
import { Redis } from 'ioredis';

// Jest loads this file outside its module mapper, so it imports packages only, no project files.

const LOCAL_POSTGRES = ['postgres://app:app@127.0.0.1:5432/app_test', 'postgres://postgres@127.0.0.1:5432/postgres'];
const LOCAL_REDIS = 'redis://127.0.0.1:6379';

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
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 1500, maxRetriesPerRequest: 0, retryStrategy: () => null });
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
 * the test workers through the environment they inherit.
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
  const redisUrl = embedded ? undefined : (process.env.REDIS_URL ?? ((await redisAnswers(LOCAL_REDIS)) ? LOCAL_REDIS : undefined));
  if (process.env.REDIS_URL && !(await redisAnswers(process.env.REDIS_URL))) throw new Error('REDIS_URL is set but does not answer');
  process.env.TEST_PG_ADMIN_URL = adminUrl ?? '';
  process.env.TEST_REDIS_URL = redisUrl ?? '';
  process.env.TEST_RUN_ID = `${process.pid}`;
  const shownDb = adminUrl ? adminUrl.replace(/:[^:@/]+@/, ':***@') : 'embedded PGlite';
  process.stderr.write(`\n[tests] database: ${shownDb}; queues: ${redisUrl ?? 'BullMQ on PostgreSQL'}\n`);
}
