/**
 * Log-in round trip: POST /auth/api/pre-auth-token then POST /auth/api/token, over real HTTP
 * against the API (as `npm run start:api` builds it) on a scratch database, for a user with no
 * second factor. Also the cost of one argon2id verification at the parameters the service uses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import argon2 from 'argon2';
import { ARGON2_OPTIONS, ProvisionCommand } from '#app/identity';
import { createHttpApp, loadConfig } from '#app/platform';
import { ApiModule } from '../apps/api/src/api.module.js';
import { createScratch, dropScratch } from './db.js';

const DB = 'uvol_bench_login';
const PASSWORD = 'correct horse battery staple';

export interface LoginFigures {
  readonly argon2: { readonly p50: number; readonly p99: number; readonly runs: number };
  readonly roundTrip: { readonly p50: number; readonly p99: number; readonly runs: number; readonly perSecond: number };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function timeArgon2(runs: number): Promise<LoginFigures['argon2']> {
  const hash = await argon2.hash(PASSWORD, ARGON2_OPTIONS);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await argon2.verify(hash, PASSWORD);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), runs };
}

export async function benchLogin(runs = 200): Promise<LoginFigures> {
  const url = await createScratch(DB);
  const dataDir = mkdtempSync(join(tmpdir(), 'uvol-bench-login-'));
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    // The limits would (rightly) stop one account logging in 200 times a minute.
    AUTH_RATE_LIMIT: '10000',
    AUTH_RATE_LIMIT_PER_ADDRESS: '100000',
  });
  const app = await createHttpApp(ApiModule.forRoot(config), { logger: false });
  try {
    await app.listen(0, '127.0.0.1');
    const base = await app.getUrl();
    await app.get(CommandBus).execute(
      new ProvisionCommand({
        organisation: { name: 'Bench', slug: 'bench', timezone: 'Europe/London' },
        users: [{ key: 'u', email: 'u@bench.example', password: PASSWORD, display_name: 'U' }],
      }),
    );
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      return (await res.json()) as { token: string };
    };
    const logIn = async () =>
      post('/auth/api/token', {
        token: (await post('/auth/api/pre-auth-token', { email: 'u@bench.example', password: PASSWORD })).token,
      });
    for (let i = 0; i < 10; i++) await logIn(); // warm-up
    const times: number[] = [];
    const started = performance.now();
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await logIn();
      times.push(performance.now() - start);
    }
    const seconds = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    return {
      argon2: await timeArgon2(50),
      roundTrip: { p50: percentile(times, 50), p99: percentile(times, 99), runs, perSecond: runs / seconds },
    };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    await dropScratch(DB);
  }
}
