/**
 * Issue 22 "Safety under load" (`BENCH_ONLY=webhooks npm run bench`, docs/webhooks.md#isolation):
 * how long a healthy webhook endpoint waits for its deliveries when another endpoint of the same
 * organisation never answers.
 *
 * The app is `npm start`'s (StandaloneModule: API and worker in one process) on a scratch database,
 * queues on Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379; empty: BullMQ on Postgres). Two
 * receivers on 127.0.0.1: one answers 204 at once, one accepts the connection and never answers
 * (every attempt to it waits out the 10 s timeout). EVENTS rota changes (`PUT /api/rotas/{id}`,
 * one at a time, through Fastify's inject) each become one `rota.changed` delivery per endpoint.
 * Measured from the first change to the healthy receiver's last delivery:
 *
 * - baseline: the healthy endpoint alone;
 * - subject: the healthy endpoint and the dead one, both subscribed to every event.
 *
 *   BENCH_WEBHOOKS_EVENTS   rota changes (default 1000)
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import { DateTime } from 'luxon';
import { ProvisionCommand } from '#app/identity';
import { createHttpApp, loadConfig, todayIn } from '#app/platform';
import { StandaloneModule } from '../apps/standalone/src/standalone.module.js';
import { createScratch, dropScratch, secondsSince } from './db.js';

const DB = 'uvol_bench_webhooks';
const PASSWORD = 'correct horse battery staple';
const EVENTS = Number(process.env.BENCH_WEBHOOKS_EVENTS ?? 1000);
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Seconds from the first change, and from the last, to the healthy endpoint's last delivery. */
interface Phase {
  total: number;
  after: number;
}

export interface WebhooksFigures {
  events: number;
  alone: Phase;
  withDead: Phase;
  /** Attempts the dead endpoint had received when the healthy one was done. */
  deadAttempts: number;
}

async function receiver(answer: boolean) {
  let count = 0;
  let last = 0;
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      last = performance.now();
      if (answer) res.writeHead(204).end();
      else open.add(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    count: () => count,
    last: () => last,
    reset: () => ((count = 0), (last = 0)),
    async stop() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export async function benchWebhooks(log: (line: string) => void): Promise<WebhooksFigures> {
  const url = await createScratch(DB);
  const dataDir = mkdtempSync(join(tmpdir(), 'uvol-bench-webhooks-'));
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `bench-webhooks-${process.pid}`;
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    REDIS_URL: redisUrl || undefined,
    QUEUE_PREFIX: prefix,
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const app: NestFastifyApplication = await createHttpApp(StandaloneModule.forRoot(config), { logger: false });
  app.useLogger(false);
  const healthy = await receiver(true);
  const dead = await receiver(false);
  try {
    await app.init();
    const fastify = app.getHttpAdapter().getInstance();
    const org = await app.get(CommandBus).execute(
      new ProvisionCommand({
        organisation: { name: 'Bench', slug: 'bench', timezone: 'Europe/London' },
        role_profiles: [{ key: 'p', name: 'P' }],
        teams: [{ key: 't', name: 'T' }],
        users: [
          {
            key: 'admin',
            email: 'admin@bench.example',
            password: PASSWORD,
            display_name: 'Admin',
            permissions: ['manage-rotas', 'manage-integrations'],
            roles: [{ team: 't', role_profile: 'p' }],
          },
        ],
      }),
    );
    const call = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: object, token?: string) => {
      const res = await fastify.inject({
        method,
        url: path,
        headers: {
          ...(body && { 'content-type': 'application/json' }),
          ...(token && { authorization: `Bearer ${token}` }),
        },
        ...(body && { payload: JSON.stringify(body) }),
      });
      if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const pre = await call('POST', '/auth/api/pre-auth-token', { email: 'admin@bench.example', password: PASSWORD });
    const token = (await call('POST', '/auth/api/token', { token: pre.token })).token as string;
    const pattern = WEEKDAYS.map((d) => ({
      weekday_start: d,
      start_time: '09:00',
      weekday_end: d,
      end_time: '17:00',
      min: 1,
      ideal: 1,
      max: 5,
    }));
    const patternId = (await call('POST', '/api/shift-patterns', { name: 'Days', pattern }, token)).data.id;
    const today = DateTime.fromISO(todayIn('Europe/London'));
    // A rota per phase: every change reads the rota's stream, so a longer one would slow the second phase's writes.
    let rotas = 0;
    const newRota = async (): Promise<number> => {
      const body = {
        name: 'r',
        start_date: today.plus({ days: ++rotas }).toISODate()!,
        pattern_id: patternId,
        team: [{ id: org.teams.t }],
      };
      return (await call('POST', '/api/rotas', body, token)).data[0].id;
    };

    let round = 0;
    const run = async (label: string): Promise<Phase> => {
      const rota = await newRota();
      await new Promise((r) => setTimeout(r, 1000));
      healthy.reset();
      const began = performance.now();
      for (let i = 0; i < EVENTS; i++) await call('PUT', `/api/rotas/${rota}`, { name: `${label} ${++round}` }, token);
      const written = performance.now();
      log(`${label}: ${EVENTS} changes written in ${secondsSince(began).toFixed(1)} s`);
      while (healthy.count() < EVENTS) {
        if (secondsSince(began) > 600) throw new Error(`${label}: ${healthy.count()} of ${EVENTS} after 600 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const phase = { total: (healthy.last() - began) / 1000, after: (healthy.last() - written) / 1000 };
      log(
        `${label}: the healthy endpoint's last delivery ${phase.total.toFixed(2)} s after the first change, ${phase.after.toFixed(2)} s after the last`,
      );
      return phase;
    };

    const first = (await call('POST', '/api/webhooks', { url: healthy.url, events: ['*'] }, token)).data.id;
    // Warm-up: a delivery, not timed.
    await call('POST', `/api/webhooks/${first}/ping`, undefined, token);
    const alone = await run('healthy alone');
    const deadId = (await call('POST', '/api/webhooks', { url: dead.url, events: ['*'] }, token)).data.id;
    const withDead = await run('healthy beside a dead endpoint');
    const deadAttempts = dead.count();
    log(`dead endpoint (${deadId}): ${deadAttempts} attempts had reached it`);
    return { events: EVENTS, alone, withDead, deadAttempts };
  } finally {
    await healthy.stop();
    await dead.stop();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (redisUrl) {
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
    await dropScratch(DB);
  }
}

export function webhooksReport(f: WebhooksFigures): string {
  const s = (n: number) => `${n.toFixed(2)} s`;
  return (
    `\nWebhooks: ${f.events} rota changes written one after the other; the healthy endpoint's last delivery\n` +
    `  alone:                  ${s(f.alone.total)} after the first change, ${s(f.alone.after)} after the last\n` +
    `  beside a dead endpoint: ${s(f.withDead.total)} after the first change, ${s(f.withDead.after)} after the last ` +
    `(the dead one: ${f.deadAttempts} attempts)\n` +
    `webhooks: healthy waits ${s(f.withDead.after)} after the last event beside a dead endpoint, ${s(f.alone.after)} alone\n`
  );
}
