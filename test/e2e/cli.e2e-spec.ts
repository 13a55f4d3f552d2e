import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { startEmbeddedPostgres } from '#app/platform';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { organisationFile } from '../support/test-app.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/apps/cli/src/main.js');

/** The compiled admin command line (`npm run cli -- …`; `npm test` builds first), as an operator runs it. */
describe('npm run cli', () => {
  let env: TestEnvironment;
  let file: string;

  beforeAll(async () => {
    env = await testEnvironment();
    file = join(env.config.dataDir, 'riverside.json');
    writeFileSync(
      file,
      JSON.stringify(
        organisationFile('riverside', [
          { key: 'alice', email: 'alice@riverside.example' },
          { key: 'bob', email: 'bob@riverside.example' },
        ]),
      ),
    );
  });
  afterAll(() => env?.cleanup());

  async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const childEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: env.config.dataDir,
      DATABASE_URL: env.config.database.url ?? '',
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

  /** Reads the database the CLI wrote (in embedded mode by opening DATA_DIR once the CLI has exited). */
  async function sql<T>(text: string): Promise<T[]> {
    const embedded = env.config.database.url
      ? undefined
      : await startEmbeddedPostgres(env.config.database.embeddedDir, env.config.database.embeddedDir);
    const client = new pg.Client({ connectionString: embedded?.url ?? env.config.database.url });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
      await embedded?.stop();
    }
  }

  it('provision: refuses a file with a bad entry with exit 2, naming it, and writes nothing', async () => {
    const bad = join(env.config.dataDir, 'bad.json');
    writeFileSync(bad, JSON.stringify(organisationFile('bad', [{ key: 'carol', email: 'not-an-email' }])));
    const result = await cli('provision', bad);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/users\[0\] "carol"\.email/);
    expect(result.stdout).toBe('');
    expect(await sql(`SELECT count(*)::int AS n FROM events`)).toEqual([{ n: 0 }]);
  });

  it('provision: creates everything and prints the key → id map', async () => {
    const result = await cli('provision', file);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      organisation: { id: expect.any(Number), slug: 'riverside' },
      teams: { north: expect.any(Number), 'north-shop': expect.any(Number) },
      role_profiles: { shop: expect.any(Number) },
      categories: {},
      users: { alice: expect.any(Number), bob: expect.any(Number) },
      roles: { alice: [expect.any(Number)], bob: [expect.any(Number)] },
    });
  });

  it('provision: refuses a slug that exists already, and an unreadable file, with exit 2', async () => {
    const again = await cli('provision', file);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/"riverside" exists already/);
    expect((await cli('provision', join(env.config.dataDir, 'missing.json'))).code).toBe(2);
    expect((await cli('no-such-command')).code).toBe(2);
  });

  it('projections:status lists each projection and reactor with its lag', async () => {
    const { code, stdout } = await cli('projections:status');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^name\s+kind\s+position\s+behind\s+state/);
    expect(stdout).toMatch(/identity\.directory\s+projection\s+\d+\s+0\s+live/);
    // Every context's reactors, though the command loads no worker (issue 25, item 6).
    const reactors = [...stdout.matchAll(/^(\S+)\s+reactor\s/gm)].map((m) => m[1]).sort();
    expect(reactors).toEqual([
      'expenses.submission-mail',
      'files.deletion',
      'identity.message-purge',
      'identity.two-factor-messages',
      'rotas.cover-alerts',
      'rotas.notifications',
      'rotas.reminders',
      'rotas.series-generation',
      'rotas.swap-mail',
      'webhooks.fan-out',
    ]);
  });

  it('projections:replay rebuilds the directory exactly, with plain progress lines on stderr off a terminal', async () => {
    const checksum = `SELECT md5(string_agg(u::text, '|' ORDER BY id)) AS sum FROM users u`;
    const before = await sql(checksum);
    const { code, stdout, stderr } = await cli('projections:replay', 'identity.directory');
    expect(code).toBe(0);
    expect(stderr).toMatch(/^swap: \d+\/\d+ events$/m);
    expect(stdout).toMatch(/^replayed \d+ events into identity\.directory in \d+ ms \(\d+ events\/s\)\n$/);
    expect(await sql(checksum)).toEqual(before);
    const unknown = await cli('projections:replay', 'nope');
    expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({
      code: 2,
      stderr: expect.stringMatching(
        /^projections:replay: Unknown projection "nope"; known: .*identity\.directory.*\n$/,
      ),
    });
  });
});
