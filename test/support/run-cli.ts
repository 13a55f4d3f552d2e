import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { startEmbeddedPostgres } from '#app/platform';
import type { TestEnvironment } from './test-config.js';

const run = promisify(execFile);

/** The compiled admin command line (`npm run cli -- …`; `npm test` builds first). */
export const CLI = join(process.cwd(), 'dist/apps/cli/src/main.js');

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the CLI as an operator does, in a child process with only the environment it needs, against
 * the test file's database (in embedded mode its DATA_DIR: nothing else may have it open meanwhile).
 */
export async function runCli(
  env: TestEnvironment,
  args: readonly string[],
  extra: Record<string, string> = {},
): Promise<CliRun> {
  const childEnv: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: env.config.dataDir,
    DATABASE_URL: env.config.database.url ?? '',
    JWT_SECRET: env.config.auth.jwtSecret,
    ...extra,
  };
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: childEnv as NodeJS.ProcessEnv });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Reads the database the CLI wrote (in embedded mode by opening DATA_DIR once the CLI has exited). */
export async function querySql<T>(env: TestEnvironment, text: string, params: unknown[] = []): Promise<T[]> {
  const embedded = env.config.database.url
    ? undefined
    : await startEmbeddedPostgres(env.config.database.embeddedDir, env.config.database.embeddedDir);
  const client = new pg.Client({ connectionString: embedded?.url ?? env.config.database.url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
    await embedded?.stop();
  }
}
