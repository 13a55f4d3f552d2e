/**
 * POST /api/expenses throughput at 32 connections beside a bare Fastify + pg route inserting the
 * same row (same machine, same run), and GET /api/users/{id}/expenses?include=type,rate,attachments
 * latency with 10,000 expenses in the organisation. The API is the real one (`npm run start:api`
 * builds the same module) on a scratch database; load comes from autocannon, in a child process, on loopback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Body, Controller, type DynamicModule, HttpCode, Module, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import pg from 'pg';
import { ProvisionCommand, RequirePermission } from '#app/identity';
import { createHttpApp, loadConfig } from '#app/platform';
import { ApiModule } from '../apps/api/src/api.module.js';
import { busyTicks, createScratch, dropScratch } from './db.js';

const DB = 'uvol_bench_expenses';
const PASSWORD = 'correct horse battery staple';

/** A route's figures in one round. */
export interface Measured {
  readonly perSecond: number;
  /** Machine CPU per request (every process, Postgres and autocannon included; steal excluded). */
  readonly cpuUs: number;
}

/** One round: each route loaded in turn for the same time, back to back. */
export interface Round {
  readonly api: Measured;
  /** The same app's floor: a route behind the same guard and validation pipe that answers a constant. */
  readonly floor: Measured;
  readonly bare: Measured;
}

export interface ExpenseFigures {
  readonly rounds: readonly Round[];
  /** The median round by API / bare ratio. */
  readonly median: Round;
  readonly list: { p50: number; p99: number; runs: number; expenses: number };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Seconds of the same load before the measured rounds: V8 is still compiling the API's hot paths for the first 20 s or so. */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP ?? 20);
/**
 * Measured rounds. This VM's speed drifts by a factor of two within minutes (steal time from its
 * host), so the routes are not measured one after the other once each: every round loads the API,
 * the bare route and the floor in turn, and the figure is the median round's ratio.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Target {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * autocannon in its own process: in this one it would take CPU from the server it measures, and
 * more from the heavier server, which would flatter the bare route. Each route is loaded for
 * WARM_UP_SECONDS first (not counted): measured cold, the API ran at 70% of its steady rate.
 */
async function rounds(targets: { api: Target; floor: Target; bare: Target }, seconds: number): Promise<Round[]> {
  const all = [targets.api, targets.bare, targets.floor];
  if (WARM_UP_SECONDS > 0) for (const t of all) await autocannon(t.url, t.headers, t.body, WARM_UP_SECONDS);
  const result: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const measured: Measured[] = [];
    for (const t of all) {
      const ticks = busyTicks();
      const { perSecond, total } = await autocannon(t.url, t.headers, t.body, seconds);
      measured.push({ perSecond, cpuUs: ((busyTicks() - ticks) * 10_000) / total });
    }
    const [api, bare, floor] = measured as [Measured, Measured, Measured];
    result.push({ api, bare, floor });
    process.stderr.write(
      `round ${i + 1}: API ${api.perSecond.toFixed(0)} req/s, bare ${bare.perSecond.toFixed(0)}, floor ${floor.perSecond.toFixed(0)}\n`,
    );
  }
  return result;
}

async function autocannon(
  url: string,
  headers: Record<string, string>,
  body: string,
  seconds: number,
): Promise<{ perSecond: number; total: number }> {
  const cli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const args = [
    cli,
    '-j',
    '-c',
    '32',
    '-d',
    String(seconds),
    '-m',
    'POST',
    '-H',
    'content-type=application/json',
    '-b',
    body,
  ];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  const child = spawn(process.execPath, [...args, url], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await new Promise((resolve) => child.on('exit', resolve));
  const result = JSON.parse(out) as { non2xx: number; errors: number; requests: { average: number; total: number } };
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { perSecond: result.requests.average, total: result.requests.total };
}

class FloorRef {
  @IsInt() @Min(1) id!: number;
}

/** The fields of the expense body that the bench sends, with the same validators. */
class FloorBody {
  @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) @Min(0) @Max(1_000_000) amount?: number;
  @IsOptional() @IsString() @MaxLength(2000) description?: string;
  @IsDefined() @Matches(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/) date!: string;
  @IsDefined() @ValidateNested() @Type(() => FloorRef) type!: FloorRef;
}

/**
 * What the framework costs before any work: the API's JWT guard (session check, cached), the
 * permission check and the validation pipe, then a constant answer. No handler can beat this.
 */
@Controller('bench')
class FloorController {
  @Post('floor')
  @HttpCode(201)
  @RequirePermission('create-expenses')
  floor(@Body() body: FloorBody) {
    return { id: 1, amount: body.amount ?? 0 };
  }
}

@Module({ controllers: [FloorController] })
class FloorModule {}

const withFloor = (api: DynamicModule): DynamicModule => ({
  module: class BenchApiModule {},
  imports: [api, FloorModule],
});

/** The bare route: Fastify and one pooled INSERT of the same row, no auth, no validation, no events. */
export async function bareRoute(url: string): Promise<{ url: string; close: () => Promise<void> }> {
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  await pool.query(`CREATE TABLE IF NOT EXISTS bare_expenses (LIKE expenses INCLUDING ALL)`);
  await pool.query(`CREATE SEQUENCE IF NOT EXISTS bare_ids`);
  const app = Fastify();
  app.post('/expenses', async (req) => {
    const b = req.body as { amount: number; description: string; date: string; type: { id: number } };
    const { rows } = await pool.query(
      `INSERT INTO bare_expenses (id, organisation_id, user_id, type_id, amount, description, date, claimed, created_at, updated_at)
       VALUES (nextval('bare_ids'), 1, 1, $1, $2, $3, $4, false, now(), now()) RETURNING *`,
      [b.type.id, b.amount, b.description, b.date],
    );
    return rows[0];
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `${address}/expenses`,
    close: async () => {
      await app.close();
      await pool.end();
    },
  };
}

export async function benchExpenses(seconds = 10): Promise<ExpenseFigures> {
  const url = await createScratch(DB);
  const dataDir = mkdtempSync(join(tmpdir(), 'uvol-bench-expenses-'));
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_ADDRESS: '100000',
  });
  const app = await createHttpApp(withFloor(ApiModule.forRoot(config)), { logger: false });
  try {
    await app.listen(0, '127.0.0.1');
    const base = await app.getUrl();
    const org = await app.get(CommandBus).execute(
      new ProvisionCommand({
        organisation: { name: 'Bench', slug: 'bench', timezone: 'Europe/London' },
        role_profiles: [{ key: 'p', name: 'P' }],
        teams: [{ key: 't', name: 'T' }],
        users: [
          {
            key: 'u',
            email: 'u@bench.example',
            password: PASSWORD,
            display_name: 'U',
            permissions: ['create-expenses', 'edit-expense-settings'],
            roles: [{ team: 't', role_profile: 'p' }],
          },
        ],
      }),
    );
    const post = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const pre = await post('/auth/api/pre-auth-token', { email: 'u@bench.example', password: PASSWORD });
    const token = String((await post('/auth/api/token', { token: pre.token })).token);
    const type = await post('/api/expenses/types', { name: 'Travel', position: 1 }, token);
    const rate = await post('/api/expenses/rates', { short_name: 'Car', rate: 0.45, passenger_rate: 0.05 }, token);
    const today = new Date().toISOString().slice(0, 10);
    // The list first, at exactly 10,000 expenses: the write loads below add tens of thousands more.
    const list = await listLatency(url, base, token, org.users.u as number, Number(type.id), Number(rate.id));
    // Statistics, as autovacuum would have them by now (off on this server; bench/README.md).
    await app.get(DataSource).query('ANALYZE');
    const body = JSON.stringify({ amount: 4.2, description: 'bus', date: today, type: { id: type.id } });
    const auth = { authorization: `Bearer ${token}` };
    const bare = await bareRoute(url);
    try {
      const measured = await rounds(
        {
          api: { url: `${base}/api/expenses`, headers: auth, body },
          floor: { url: `${base}/bench/floor`, headers: auth, body },
          bare: {
            url: bare.url,
            headers: {},
            body: JSON.stringify({ amount: 4.2, description: 'bus', date: '2026-11-20', type: { id: 1 } }),
          },
        },
        seconds,
      );
      const byRatio = [...measured].sort(
        (a, b) => a.api.perSecond / a.bare.perSecond - b.api.perSecond / b.bare.perSecond,
      );
      return { rounds: measured, median: byRatio[Math.floor(byRatio.length / 2)]!, list };
    } finally {
      await bare.close();
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    await dropScratch(DB);
  }
}

/** Tops the organisation up to 10,000 expenses (rows written directly: this measures the read path), then times the list. */
async function listLatency(url: string, base: string, token: string, userId: number, typeId: number, rateId: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const [{ n }] = (await client.query(`SELECT count(*)::int AS n FROM expenses`)).rows;
  await client.query(
    `INSERT INTO expenses (id, organisation_id, user_id, type_id, rate_id, amount, description, date, ` +
      `miles, passengers, claimed, created_at, updated_at)
     SELECT nextval('expenses_expense_ids'), 1, $1, $2, CASE WHEN g % 2 = 0 THEN $3::bigint END, ` +
      `5, 'seeded', current_date - (g % 60), 10, 0, false, now(), now()
       FROM generate_series(1, greatest(0, 10000 - $4::int)) g`,
    [userId, typeId, rateId, n],
  );
  const [{ total }] = (await client.query(`SELECT count(*)::int AS total FROM expenses`)).rows;
  await client.end();
  const path = `${base}/api/users/${userId}/expenses?include=type,rate,attachments&o=d`;
  const times: number[] = [];
  for (let i = 0; i < 400; i++) {
    const start = performance.now();
    const res = await fetch(`${path}&page=${(i % 20) + 1}`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`list answered ${res.status}`);
    if (i >= 200) times.push(performance.now() - start); // the first 200 warm up (V8 compiles the read path)
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), runs: times.length, expenses: total };
}
