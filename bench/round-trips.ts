/**
 * Issue 33 "Cost" (`BENCH_ONLY=trips npm run bench`): the round trips to PostgreSQL and to Redis of
 * ONE `POST /api/rota/shifts` (a single booking) and of ONE `POST /api/expenses`, the log-in check
 * included, each statement listed with the project code that sent it.
 *
 * The app is ApiModule (no worker, so no reactor sends anything during the request) on a scratch
 * database with queues on Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379). After a few
 * untimed requests of each route (prepared statements, pooled ids and pools warm), every `query` of
 * pg's Client and every command ioredis sends is recorded while one request of each is answered.
 * A `query` of pg is one round trip (Parse/Bind/Execute/Sync, or one simple-protocol text).
 *
 *   BENCH_TRIPS_WARM_UP   requests of each route before the counted one (default 5)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import { DateTime } from 'luxon';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { ProvisionCommand } from '#app/identity';
import { createHttpApp, loadConfig, todayIn } from '#app/platform';
import { ApiModule } from '../apps/api/src/api.module.js';
import { createScratch, dropScratch } from './db.js';
import { created, everyDayPattern, PASSWORD, tokenFor } from './shifts.js';

const DB = 'uvol_bench_trips';
const ZONE = 'Europe/London';
const WARM_UP = Number(process.env.BENCH_TRIPS_WARM_UP ?? 5);

/** One round trip: to which server, the statement or command, and the project frame that sent it. */
export interface Trip {
  readonly to: 'postgres' | 'redis';
  readonly text: string;
  readonly from: string;
}

/** The first frame of the project's own code (libs/, apps/) on the stack, async frames included. */
function senderOf(stack: string | undefined): string {
  const frames = (stack ?? '').split('\n').slice(2);
  // The first caller past the database helpers (prepared statements, the write's query), if any.
  const own =
    frames.find((f) => /\/dist\/(libs|apps)\//.test(f) && !/\/platform\/src\/database\//.test(f)) ??
    frames.find((f) => /\/dist\/(libs|apps)\//.test(f));
  const m = own && /(?:at (?:async )?)?(\S+)? ?\(?.*\/dist\/((?:libs|apps)\/[^:)]+):(\d+)/.exec(own.trim());
  return m ? `${m[2]}:${m[3]} ${m[1] ?? ''}`.trim() : '(no project frame)';
}

/**
 * Records every pg `Client.query` and every ioredis command while installed. Process-wide: only
 * what this process sends during the span counts, so the span must hold the one request alone.
 */
export class TripRecorder {
  readonly trips: Trip[] = [];
  private readonly pgQuery = pg.Client.prototype.query;
  private readonly redisSend = Redis.prototype.sendCommand;

  constructor() {
    Error.stackTraceLimit = 60;
    const trips = this.trips;
    const pgQuery = this.pgQuery;
    const redisSend = this.redisSend;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === 'string' ? first : (first?.text ?? '');
      trips.push({ to: 'postgres', text: text.replace(/\s+/g, ' ').trim(), from: senderOf(new Error().stack) });
      return (pgQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pgQuery;
    Redis.prototype.sendCommand = function (this: Redis, command: { name: string }, ...rest: unknown[]) {
      trips.push({ to: 'redis', text: command.name, from: senderOf(new Error().stack) });
      return (redisSend as (...a: unknown[]) => unknown).apply(this, [command, ...rest]);
    } as typeof redisSend;
  }

  stop(): Trip[] {
    pg.Client.prototype.query = this.pgQuery;
    Redis.prototype.sendCommand = this.redisSend;
    Error.stackTraceLimit = 10;
    return this.trips;
  }
}

export interface TripsFigures {
  readonly booking: Trip[];
  readonly expense: Trip[];
}

const plusDays = (date: string, n: number) => DateTime.fromISO(date, { zone: 'utc' }).plus({ days: n }).toISODate()!;

/** Records the trips of `request` alone (after a pause, so nothing earlier is still in flight). */
async function recorded(request: () => Promise<unknown>): Promise<Trip[]> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  const recorder = new TripRecorder();
  try {
    await request();
  } finally {
    recorder.stop();
  }
  return recorder.trips;
}

export async function benchTrips(log: (line: string) => void = () => undefined): Promise<TripsFigures> {
  const url = await createScratch(DB);
  const dataDir = mkdtempSync(join(tmpdir(), 'uvol-bench-trips-'));
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_ADDRESS: '100000',
    REDIS_URL: redisUrl || undefined,
    QUEUE_PREFIX: 'uvol_bench_trips',
  });
  const app: NestFastifyApplication = await createHttpApp(ApiModule.forRoot(config), { logger: false });
  app.useLogger(false);
  try {
    await app.listen(0, '127.0.0.1');
    const base = await app.getUrl();
    const org = await app.get(CommandBus).execute(
      new ProvisionCommand({
        organisation: { name: 'Bench', slug: 'bench', timezone: ZONE },
        role_profiles: [{ key: 'p', name: 'Shop volunteer' }],
        teams: [{ key: 'shop', name: 'Shop' }],
        users: [
          {
            key: 'boss',
            email: 'boss@trips.bench',
            password: PASSWORD,
            display_name: 'Boss',
            permissions: ['manage-rotas', 'create-expenses', 'edit-expense-settings'],
            roles: [{ team: 'shop', role_profile: 'p' }],
          },
          {
            key: 'v',
            email: 'v@trips.bench',
            password: PASSWORD,
            display_name: 'Volunteer',
            roles: [{ team: 'shop', role_profile: 'p' }],
          },
        ],
      }),
    );
    const token = await tokenFor(base, 'boss@trips.bench');
    const patternId = await everyDayPattern(base, token, 1000);
    const today = todayIn(ZONE);
    const rota = await created(
      base,
      '/api/rotas',
      { name: 'Shop', start_date: today, pattern_id: patternId, team: [{ id: org.teams.shop }] },
      token,
    );
    const rotaId = (rota.data as { id: number }[])[0]!.id;
    const type = (await created(base, '/api/expenses/types', { name: 'Travel', position: 1 }, token)) as {
      id?: number;
      data?: { id: number };
    };
    const expense = { amount: 4.2, description: 'bus', date: today, type: { id: type.data?.id ?? type.id } };
    let k = 0;
    const book = () => {
      const date = plusDays(today, 1 + k++);
      return created(
        base,
        '/api/rota/shifts',
        {
          rota: { id: rotaId },
          user: { id: org.users.v },
          start_datetime: `${date} 10:00`,
          end_datetime: `${date} 11:00`,
        },
        token,
      );
    };
    for (let i = 0; i < WARM_UP; i++) {
      await book();
      await created(base, '/api/expenses', expense, token);
    }
    await app.get(DataSource).query('ANALYZE');
    const booking = await recorded(book);
    const expenseTrips = await recorded(() => created(base, '/api/expenses', expense, token));
    log(`one booking: ${booking.length} round trips; one expense: ${expenseTrips.length}`);
    return { booking, expense: expenseTrips };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    await dropScratch(DB);
  }
}

const lines = (title: string, trips: Trip[]) => {
  const pgCount = trips.filter((t) => t.to === 'postgres').length;
  const redisCount = trips.length - pgCount;
  return (
    `${title}: ${pgCount} round trips to PostgreSQL, ${redisCount} to Redis\n` +
    trips
      .map(
        (t, i) =>
          `  ${String(i + 1).padStart(2)}. ${t.to === 'postgres' ? 'pg   ' : 'redis'} ${t.text.slice(0, 110).padEnd(110)}  ← ${t.from}\n`,
      )
      .join('')
  );
};

/** The printed list; the last line is `trips: booking <n> (pg <p>, redis <r>), expense <m> (pg …, redis …)`. */
export function tripsReport(f: TripsFigures): string {
  const count = (trips: Trip[], to: Trip['to']) => trips.filter((t) => t.to === to).length;
  return (
    `\n` +
    lines('POST /api/rota/shifts, one booking', f.booking) +
    lines('POST /api/expenses, one expense', f.expense) +
    `trips: booking ${f.booking.length} (pg ${count(f.booking, 'postgres')}, redis ${count(f.booking, 'redis')}), ` +
    `expense ${f.expense.length} (pg ${count(f.expense, 'postgres')}, redis ${count(f.expense, 'redis')})\n`
  );
}
