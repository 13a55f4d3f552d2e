import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '../support/eventually.js';
import { querySql, runCli } from '../support/run-cli.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';

const run = promisify(execFile);
const WORKER = join(process.cwd(), 'dist/apps/worker/src/main.js');

/**
 * Issue 31: a worker started before `migrate` logged 44 error lines in 16 s with no hint and left a
 * failed job behind. It runs no migrations: while any is pending it refuses to start, in one line
 * saying what to run, before it adds any job; once they have run, it starts.
 */
describe('a worker started before the migrations have run', () => {
  let env: TestEnvironment;
  let worker: ChildProcess | undefined;
  const childEnv = () => ({
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATA_DIR: env.config.dataDir,
    DATABASE_URL: env.config.database.url ?? '',
    REDIS_URL: env.config.queue.redisUrl ?? '',
    QUEUE_PREFIX: env.config.queue.prefix,
    JWT_SECRET: env.config.auth.jwtSecret,
  });

  beforeAll(async () => {
    env = await testEnvironment();
    // A database that has had no migration: PostgreSQL's test database (cloned from the migrated
    // template) emptied; embedded, the empty DATA_DIR, whose database the worker creates.
    if (!env.embedded) await querySql(env, `DROP SCHEMA public CASCADE; CREATE SCHEMA public`);
  });
  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      worker.kill('SIGTERM');
      await new Promise((resolve) => worker!.once('exit', resolve));
    }
    await env?.cleanup();
  });

  it('refuses to start in one line naming `npm run cli -- migrate`, exit 1, and adds no job', async () => {
    const outcome = await run(process.execPath, [WORKER], { env: childEnv(), timeout: 60_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code: number; stdout: string; stderr: string }) => ({ ...err }),
    );
    // Embedded, the lines saying the database is being created come first (startup-progress.ts).
    const lines = outcome.stderr
      .split('\n')
      .filter((l) => !/^(creating the embedded|embedded database created)/.test(l));
    expect({ code: outcome.code, stderr: lines }).toEqual({
      code: 1,
      stderr: [
        expect.stringMatching(
          /^the database has \d+ migrations? to run: run `npm run cli -- migrate` \(or start the API or npm start, which run them\), then start this process again$/,
        ),
        '',
      ],
    });
    expect(outcome.stdout).not.toMatch(/"level":(50|60)/);
    // The CLI migrates before it counts: every queue is empty (no cover sweep scheduled, none failed).
    const status = await runCli(env, ['queues:status']);
    expect({ code: status.code, stderr: status.stderr }).toEqual({ code: 0, stderr: '' });
    const counts = status.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s+/).slice(1).map(Number));
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.flat().every((n) => n === 0)).toBe(true);
  }, 120_000);

  it('starts once they have run', async () => {
    // The queues:status above migrated the database (every command but migrate does).
    let out = '';
    worker = spawn(process.execPath, [WORKER], { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    worker.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    worker.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await eventually(() => out.includes('worker running') || worker!.exitCode !== null, 60_000);
    expect(out).toContain('worker running');
  }, 120_000);
});
