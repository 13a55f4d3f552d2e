import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { QueueAdmin } from '#app/platform';
import { bootStandalone } from '../support/test-app.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/apps/cli/src/main.js');
const QUEUE = 'rotas-series-extension';
const PASSWORD = 'queue dashboard password';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * Issue 25, item 3: the operator's queue tools (docs/operations.md#queues), in both modes. A job made to fail
 * on purpose (the series extension refuses an asOf that is not a date) is seen on the dashboard and
 * by queues:status, and queues:retry puts it back to waiting.
 */
describe('queue tools', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication | undefined;

  beforeAll(async () => {
    env = await testEnvironment({ ADMIN_PASSWORD: PASSWORD });
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const childEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: env.config.dataDir,
      DATABASE_URL: env.config.database.url ?? '',
      REDIS_URL: env.config.queue.redisUrl ?? '',
      QUEUE_PREFIX: env.config.queue.prefix,
      JWT_SECRET: env.config.auth.jwtSecret,
    };
    try {
      const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: childEnv });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  /** queues:status's table, as { queue: { waiting, active, delayed, failed } }. */
  function table(stdout: string): Record<string, Record<string, number>> {
    const [header, ...rows] = stdout.trimEnd().split('\n');
    expect(header!.split(/\s+/)).toEqual(['queue', 'waiting', 'active', 'delayed', 'failed']);
    return Object.fromEntries(
      rows.map((row) => {
        const [name, waiting, active, delayed, failed] = row.split(/\s+/);
        return [
          name,
          { waiting: Number(waiting), active: Number(active), delayed: Number(delayed), failed: Number(failed) },
        ];
      }),
    );
  }

  it('the dashboard at /admin/queues: 401 with WWW-Authenticate without the right password, the page and its API with it', async () => {
    app = await bootStandalone(env.config);
    const admin = app.get(QueueAdmin);
    await admin.queue(QUEUE).add('extend-series', { asOf: 'not a date' }, { attempts: 1 });
    const deadline = Date.now() + 30_000;
    while ((await admin.status()).find((q) => q.name === QUEUE)!.failed === 0) {
      if (Date.now() > deadline) throw new Error('the job did not fail');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const server = app.getHttpServer();

    for (const authorization of [undefined, basic('admin', 'wrong'), basic('root', PASSWORD), 'Bearer x', 'Basic !!']) {
      const req = request(server).get('/admin/queues');
      const res = await (authorization ? req.set('authorization', authorization) : req);
      expect({ authorization, status: res.status }).toEqual({ authorization, status: 401 });
      expect(res.headers['www-authenticate']).toMatch(/^Basic realm="[^"]+"/);
      expect(res.body).toEqual({ message: expect.any(String), status_code: 401 });
    }
    // The API behind the page is guarded as well.
    expect((await request(server).get('/admin/queues/api/queues')).status).toBe(401);

    const page = await request(server).get('/admin/queues').set('authorization', basic('admin', PASSWORD));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<html');

    const api = await request(server)
      .get('/admin/queues/api/queues')
      .query({ activeQueue: QUEUE, status: 'failed', page: 1, jobsPerPage: 10 })
      .set('authorization', basic('admin', PASSWORD));
    expect(api.status).toBe(200);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    const queues = api.body.queues as { name: string; counts: Record<string, number>; jobs: { data: unknown }[] }[];
    // Every queue of every context (every organisation's jobs: the operator's view).
    expect(queues.map((q) => q.name).sort()).toEqual([...app.get(QueueAdmin).names].sort());
    const queue = queues.find((q) => q.name === QUEUE)!;
    expect(queue.counts.failed).toBe(1);
    expect(queue.jobs.map((j) => j.data)).toEqual([{ asOf: 'not a date' }]);
    await app.close();
    app = undefined;
  }, 90_000);

  it('queues:status prints each queue with its waiting, active, delayed and failed counts', async () => {
    const { code, stdout, stderr } = await cli('queues:status');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const counts = table(stdout);
    expect(Object.keys(counts)).toContain('identity-messages');
    expect(Object.keys(counts)).toContain('webhooks');
    // Its delayed job is the daily extension's schedule.
    expect(counts[QUEUE]).toEqual({ waiting: 0, active: 0, delayed: 1, failed: 1 });
  }, 60_000);

  it('queues:retry <queue> puts its failed jobs back to waiting; an unknown queue is exit 2, one line naming the queues', async () => {
    const retry = await cli('queues:retry', QUEUE);
    expect(retry.code).toBe(0);
    expect(JSON.parse(retry.stdout)).toEqual({ queue: QUEUE, retried: 1 });
    expect(retry.stderr).toBe(`1 failed job of ${QUEUE} back to waiting\n`);
    expect(table((await cli('queues:status')).stdout)[QUEUE]).toEqual({ waiting: 1, active: 0, delayed: 1, failed: 0 });

    const again = await cli('queues:retry', QUEUE);
    expect(JSON.parse(again.stdout)).toEqual({ queue: QUEUE, retried: 0 });

    const unknown = await cli('queues:retry', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(
      /^queues:retry: unknown queue "nope"; the queues are: identity-messages, .*webhooks \(npm run cli -- queues:retry --help\)\n$/,
    );
  }, 60_000);

  it('without ADMIN_PASSWORD /admin/queues is a 404 like any unknown path', async () => {
    app = await bootStandalone({ ...env.config, admin: { password: undefined } });
    for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
      const res = await request(app.getHttpServer()).get(path).set('authorization', basic('admin', PASSWORD));
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body).toEqual({ message: expect.any(String), status_code: 404 });
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
    await app.close();
    app = undefined;
  }, 60_000);
});
