import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';

const run = promisify(execFile);

/** Issue 12, item 3: an expected failure at start is one clear line, not a stack trace. */
describe('starting on a port another process holds', () => {
  let env: TestEnvironment;
  let holder: Server;
  let port: number;

  beforeAll(async () => {
    env = await testEnvironment();
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => holder?.close(resolve));
    await env?.cleanup();
  });

  it('prints one line naming the address and what to do, and exits 1', async () => {
    const childEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: env.config.dataDir,
      DATABASE_URL: env.config.database.url ?? '',
      REDIS_URL: env.config.queue.redisUrl ?? '',
      JWT_SECRET: env.config.auth.jwtSecret,
    };
    const outcome = await run(process.execPath, [join(process.cwd(), 'dist/apps/api/src/main.js')], {
      env: childEnv,
      timeout: 60_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe(
      `cannot listen on 127.0.0.1:${port}: the port is in use by another process (another npm start?): stop it, or set PORT\n`,
    );
  });
});
