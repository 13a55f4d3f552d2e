import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '../support/eventually.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';

const run = promisify(execFile);
const STANDALONE = join(process.cwd(), 'dist/apps/standalone/src/main.js');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Issue 25, item 6: what `npm start` prints. The built standalone process, embedded as on a first
 * run: a few lines of our own before `serving` (none of Nest's module and route mapping), and a
 * second start on the same DATA_DIR refused in one line, exit 1.
 */
describe('npm start: its start-up lines, and a second start on the same DATA_DIR', () => {
  let env: TestEnvironment;
  let first: ChildProcess;
  let port: number;
  const out: string[] = [];
  let stderr = '';

  const childEnv = (p: number) => ({
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    LOG_PRETTY: 'false',
    PORT: String(p),
    HOST: '127.0.0.1',
    DATA_DIR: env.config.dataDir,
    JWT_SECRET: env.config.auth.jwtSecret,
  });

  beforeAll(async () => {
    env = await testEnvironment({}, { embedded: true });
    port = await freePort();
    first = spawn(process.execPath, [STANDALONE], { env: childEnv(port) });
    first.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let buffered = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no serving line in 90 s:\n${out.join('\n')}\n${stderr}`)),
        90_000,
      );
      first.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        out.push(...lines);
        if (lines.some((l) => l.includes('"msg":"serving '))) {
          clearTimeout(timer);
          resolve();
        }
      });
      first.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
  }, 120_000);

  afterAll(async () => {
    if (first && first.exitCode === null) {
      const exited = new Promise((resolve) => first.once('exit', resolve));
      first.kill('SIGTERM');
      await exited;
    }
    await env?.cleanup();
  });

  it('logs a handful of lines of its own before serving, none of Nest module or route mapping', () => {
    const records = out.map((l) => JSON.parse(l) as { level: number; context?: string; msg: string });
    const before = records.slice(
      0,
      records.findIndex((r) => r.msg.startsWith('serving ')),
    );
    const contexts = before.map((r) => r.context);
    for (const chatty of ['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication'])
      expect(contexts).not.toContain(chatty);
    // Creating the database, migrating, the database ready, the daily schedule: not the ~140 lines of before.
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.length).toBeLessThanOrEqual(10);
    expect(before.map((r) => r.msg).join('\n')).toMatch(/creating the embedded database/);
    expect(stderr).toBe('');
  });

  it('says after serving, in one warning, that no organisation exists and how to provision one', async () => {
    const warning = () =>
      out.map((l) => JSON.parse(l) as { level: number; msg: string }).find((r) => /no organisation/.test(r.msg));
    await eventually(() => warning() !== undefined, 10_000);
    expect(warning()).toMatchObject({
      level: 40,
      msg: 'no organisation exists yet, so no one can log in: provision one with `npm run cli -- provision <file>` (docs/provisioning.md; examples/demo-organisation.json to try); in the embedded mode stop this process first',
    });
  });

  it('a second start on the same DATA_DIR says in one line that the database is in use, and exits 1', async () => {
    const started = Date.now();
    const outcome = await run(process.execPath, [STANDALONE], {
      env: childEnv(await freePort()),
      timeout: 60_000,
    }).then(
      ({ stdout, stderr: err }) => ({ code: 0, stdout, stderr: err }),
      (err: { code: number; stdout: string; stderr: string }) => ({
        code: err.code,
        stdout: err.stdout,
        stderr: err.stderr,
      }),
    );
    expect(outcome).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(
        new RegExp(
          `^The embedded database in \\S+ is in use by process ${first.pid}\\. Stop that process first, [^\\n]*\\n$`,
        ),
      ),
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    // The first one serves on.
    expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
  }, 60_000);
});
