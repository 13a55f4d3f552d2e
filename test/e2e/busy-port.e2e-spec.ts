import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';

/** Issue 12, item 3: an expected failure at start is one clear line, not a stack trace; issue 31: at once. */
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

  it.each(['api', 'standalone'])(
    '%s: prints one line naming the address and what to do and exits 1 at once, before opening the database',
    async (app) => {
      const childEnv = {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: env.config.dataDir,
        DATABASE_URL: env.config.database.url ?? '',
        REDIS_URL: env.config.queue.redisUrl ?? '',
        // The test's own prefix: a process that got as far as its queues leaves no key outside it.
        QUEUE_PREFIX: env.config.queue.prefix,
        JWT_SECRET: env.config.auth.jwtSecret,
      };
      // Issue 31: embedded, the message came after the database, the migrations and the workers,
      // and the exit 15 s after it, with Nest's own error line besides.
      let said = 0;
      const child = spawn(process.execPath, [join(process.cwd(), `dist/apps/${app}/src/main.js`)], { env: childEnv });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        said ||= Date.now();
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect({ code, stdout, stderr }).toEqual({
        code: 1,
        stdout: '',
        stderr: `cannot listen on 127.0.0.1:${port}: the port is in use by another process (another npm start?): stop it, or set PORT\n`,
      });
      expect(Date.now() - said).toBeLessThan(2_000);
      expect(existsSync(join(env.config.dataDir, 'pglite'))).toBe(false);
    },
    60_000,
  );
});
