import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { BUILT, freePort, type ServiceProcess, startProcess, stopProcess } from '../support/worker-process.js';

const servers = !!process.env.TEST_PG_ADMIN_URL && !!process.env.TEST_REDIS_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Resolves after `ms` without keeping the test's process alive once the race it is in is decided. */
const giveUpAfter = (ms: number) => new Promise<null>((resolve) => setTimeout(() => resolve(null), ms).unref());

/**
 * Issue 31: every process exits within 10 s of SIGTERM, whatever is down (docs/process-lifecycle.md#stopping).
 * A worker, an API and a standalone process, built as `npm run start:worker`, `start:api` and
 * `npm start` run them, reach
 * PostgreSQL and Redis through TCP proxies; both proxies are cut, then each process gets SIGTERM.
 * Servers mode: the embedded mode has no server to lose.
 */
(servers ? describe : describe.skip)('SIGTERM with PostgreSQL and Redis both gone (servers mode)', () => {
  let env: TestEnvironment;
  let pg: TcpProxy;
  let redis: TcpProxy;
  const started: ServiceProcess[] = [];

  beforeAll(async () => {
    env = await testEnvironment();
    const target = (url: string) => ({ host: new URL(url).hostname, port: Number(new URL(url).port) });
    // Started by each test, which cuts them.
    pg = new TcpProxy(target(env.config.database.url!));
    redis = new TcpProxy(target(env.config.queue.redisUrl!));
  });
  afterAll(async () => {
    for (const p of started) await stopProcess(p);
    await pg?.stop();
    await redis?.stop();
    await env?.cleanup();
  });

  it.each([
    ['worker', BUILT.worker, /^worker running/],
    ['api', BUILT.api, /^serving /],
    ['standalone (api + worker)', BUILT.standalone, /^serving /],
  ])(
    'the %s process exits within 10 s: closed in time, or at the deadline with one line',
    async (_role, main, ready) => {
      await pg.start();
      await redis.start();
      const config = {
        ...env.config,
        database: { ...env.config.database, url: pg.urlFor(env.config.database.url!) },
        queue: { ...env.config.queue, redisUrl: redis.urlFor(env.config.queue.redisUrl!) },
      };
      const p = startProcess(main, config, { PORT: String(await freePort()), HOST: '127.0.0.1' });
      started.push(p);
      await p.waitForLine(ready);
      await pg.stop();
      await redis.stop();
      // Long enough for every client to have lost its connection and be trying again.
      await sleep(2_000);

      p.child.kill('SIGTERM');
      const sent = Date.now();
      const exit = await Promise.race([p.exited(), giveUpAfter(20_000)]);
      const took = Date.now() - sent;

      expect(exit).not.toBeNull();
      expect(took).toBeLessThan(10_000);
    },
    90_000,
  );
});
