import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import parsePrometheusTextFormat, { type MetricFamily, type Sample } from 'parse-prometheus-text-format';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { WorkerModule } from '../../apps/worker/src/worker.module.js';
import { bootStandalone, organisationFile, provision } from '../support/test-app.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootApi } from '../support/test-http.js';
import { lintMetrics, promtoolCheck } from '../support/promtool.js';

const TOKEN = 'metrics-token-for-the-tests';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** One family's samples by name; fails when the family is missing. */
function family(families: MetricFamily[], name: string): MetricFamily {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no ${name} in /metrics (${families.map((f) => f.name).join(', ')})`);
  return found;
}

/**
 * A labelled histogram's `_count` samples. The parser folds a histogram family into one sample and
 * keeps labels only for an unlabelled histogram, so its HELP and TYPE lines are left out here and
 * the `_count` lines read as samples of their own, with their labels.
 */
function histogramCounts(text: string, name: string): Sample[] {
  const untyped = text
    .split('\n')
    .filter((line) => !line.startsWith(`# HELP ${name} `) && !line.startsWith(`# TYPE ${name} `))
    .join('\n');
  return parsePrometheusTextFormat(untyped)
    .filter((f) => f.name === `${name}_count`)
    .flatMap((f) => f.metrics);
}

const labelled = (f: MetricFamily, labels: Record<string, string>) =>
  f.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

/**
 * docs/metrics.md over HTTP in both modes: the Prometheus text format read by a real parser, each
 * series moving (a request under its route pattern, an appended event, a queued job), the token
 * rule (401, and 404 with no METRICS_TOKEN), and a worker process's METRICS_PORT (servers mode: the
 * worker role booted beside the API; embedded: everything on the standalone's one port).
 */
describe('metrics (issue 25 item 1)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let worker: INestApplicationContext | undefined;
  let metricsPort = 0;

  beforeAll(async () => {
    metricsPort = await freePort();
    env = await testEnvironment({ METRICS_TOKEN: TOKEN, METRICS_PORT: String(metricsPort) });
    if (env.embedded) {
      app = await bootStandalone(env.config);
    } else {
      app = await bootApi(env.config);
      worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(env.config), { logger: false });
      await worker.init();
    }
  });

  afterAll(async () => {
    await worker?.close();
    await app?.close();
    await env?.cleanup();
  });

  const scrapeText = async (): Promise<string> => {
    const res = await request(app.getHttpServer()).get('/metrics').set('authorization', `Bearer ${TOKEN}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text;
  };
  const scrape = async (): Promise<MetricFamily[]> => parsePrometheusTextFormat(await scrapeText());
  /** The worker role's /metrics: the worker's METRICS_PORT (servers mode), the standalone's route (embedded). */
  const scrapeWorkerText = async (): Promise<string> => {
    if (!worker) return scrapeText();
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(200);
    return res.text();
  };
  const scrapeWorker = async (): Promise<MetricFamily[]> => parsePrometheusTextFormat(await scrapeWorkerText());

  it('answers the default process metrics and every series the docs name', async () => {
    const families = await scrape();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_active_handles',
      'http_request_duration_seconds',
    ])
      family(families, name);
    for (const name of ['uvol_queue_jobs', 'uvol_reactor_lag_events']) family(await scrapeWorker(), name);
    expect(family(families, 'http_request_duration_seconds').type).toBe('HISTOGRAM');
    // Counters without labels yet are declared all the same (HELP and TYPE), so a dashboard finds them.
    for (const name of ['uvol_events_appended_total', 'uvol_webhook_deliveries_total'])
      expect(family(families, name).type).toBe('COUNTER');
  });

  it('counts a request under its route pattern, never the raw path; an unknown path under one fixed label', async () => {
    const token = 'x'.repeat(43);
    const labels = { method: 'GET', route: '/calendar/:token.ics', status_code: '404' };
    const counts = async () => histogramCounts(await scrapeText(), 'http_request_duration_seconds');
    const count = (samples: Sample[]) =>
      Number(samples.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value ?? 0);
    const before = count(await counts());
    await request(app.getHttpServer()).get(`/calendar/${token}.ics`).expect(404);
    await request(app.getHttpServer()).get(`/no-such-route-${token}`).expect(404);
    const after = await counts();
    expect(count(after)).toBe(before + 1);
    const routes = after.map((m) => m.labels?.route ?? '');
    expect(routes.filter((r) => r.includes(token))).toEqual([]);
    expect(routes).toContain('unmatched');
    expect(routes).toContain('/metrics');
  });

  it('counts appended events by type, each one in the log', async () => {
    const ds = app.get(DataSource);
    const counted = async () =>
      new Map(
        family(await scrape(), 'uvol_events_appended_total').metrics.map((m) => [m.labels!.type!, Number(m.value)]),
      );
    const logged = async () =>
      new Map(
        (
          (await ds.query(`SELECT type, count(*)::int AS n FROM events GROUP BY type`)) as { type: string; n: number }[]
        ).map((r) => [r.type, r.n]),
      );
    const [countedBefore, loggedBefore] = [await counted(), await logged()];
    await provision(app, organisationFile('metrics', [{ key: 'ann', email: 'ann@metrics.example' }]));
    const [countedAfter, loggedAfter] = [await counted(), await logged()];
    const moved = [...countedAfter].filter(([type, n]) => n > (countedBefore.get(type) ?? 0));
    expect(moved.length).toBeGreaterThan(0);
    // Counted after the commit: every event counted is in the log.
    for (const [type, n] of moved)
      expect((loggedAfter.get(type) ?? 0) - (loggedBefore.get(type) ?? 0)).toBeGreaterThanOrEqual(
        n - (countedBefore.get(type) ?? 0),
      );
  });

  it('reports each queue by state, read from the queue on scrape', async () => {
    const queue = app.get<Queue>(getQueueToken('webhooks'), { strict: false });
    const delayed = (families: MetricFamily[]) =>
      Number(labelled(family(families, 'uvol_queue_jobs'), { queue: 'webhooks', state: 'delayed' })?.value ?? -1);
    const before = delayed(await scrapeWorker());
    expect(before).toBeGreaterThanOrEqual(0);
    const states = family(await scrapeWorker(), 'uvol_queue_jobs')
      .metrics.filter((m) => m.labels?.queue === 'webhooks')
      .map((m) => m.labels?.state);
    expect(states.sort()).toEqual(['active', 'delayed', 'failed', 'waiting']);
    const job = await queue.add('metrics-test', {}, { delay: 3_600_000 });
    try {
      expect(delayed(await scrapeWorker())).toBe(before + 1);
    } finally {
      await job.remove();
    }
  });

  it('exports the queue and reactor-lag gauges from the worker role only, so a sum over the targets counts each job once', async () => {
    const gauges = ['uvol_queue_jobs', 'uvol_reactor_lag_events'];
    const names = (families: MetricFamily[]) => families.map((f) => f.name).filter((n) => gauges.includes(n));
    expect(names(await scrapeWorker()).sort()).toEqual(gauges);
    // Servers mode: the API process is a second target and exports neither.
    if (worker) expect(names(await scrape())).toEqual([]);
  });

  it('passes `promtool check metrics` where promtool is installed, and its rules in any case, on the API and the worker', async () => {
    // The fallback's rules catch what promtool caught on prom-client's defaults.
    expect(lintMetrics('# HELP a_total x\n# TYPE a_total gauge\na_total 1\n')).toEqual([
      'a_total: non-counter metrics should not have "_total" suffix',
    ]);
    const scrapes = [await scrapeText(), ...(worker ? [await scrapeWorkerText()] : [])];
    for (const text of scrapes) {
      expect(text).not.toMatch(/^nodejs_active_\w+_total /m);
      expect(lintMetrics(text)).toEqual([]);
      const promtool = await promtoolCheck(text);
      if (promtool) expect(promtool).toEqual({ status: 0, output: '' });
    }
  });

  it('refuses a missing or wrong token with 401 and the error body', async () => {
    const http = () => request(app.getHttpServer());
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const req = http().get('/metrics');
      const res = await (authorization ? req.set('authorization', authorization) : req).expect(401);
      expect(res.body).toEqual({ message: expect.any(String), status_code: 401 });
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.text).not.toContain('process_cpu');
    }
  });

  it('serves the same on METRICS_PORT from a worker process, with the same token rule (servers mode)', async () => {
    if (!worker) {
      // Embedded: one process, everything on its one port, the reactors' lag too.
      expect(env.embedded).toBe(true);
      const lag = family(await scrape(), 'uvol_reactor_lag_events').metrics;
      expect(lag.map((m) => m.labels?.reactor)).toContain('rotas.notifications');
      return;
    }
    const base = `http://127.0.0.1:${metricsPort}`;
    const missing = await fetch(`${base}/metrics`);
    expect([missing.status, missing.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await fetch(`${base}/other`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parsePrometheusTextFormat(await res.text());
    family(families, 'process_cpu_seconds_total');
    expect(family(families, 'uvol_queue_jobs').metrics.length).toBeGreaterThan(0);
    // The worker runs the reactors: one lag for each.
    const lag = family(families, 'uvol_reactor_lag_events').metrics;
    expect(lag.map((m) => m.labels?.reactor)).toEqual(
      expect.arrayContaining(['identity.two-factor-messages', 'expenses.submission-mail', 'rotas.notifications']),
    );
    for (const m of lag) expect(Number(m.value)).toBeGreaterThanOrEqual(0);
  });
});

describe('metrics without METRICS_TOKEN', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    env = await testEnvironment();
    app = env.embedded ? await bootStandalone(env.config) : await bootApi(env.config);
  });

  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('is a 404 like an unknown route, whatever the Authorization', async () => {
    const unknown = await request(app.getHttpServer()).get('/no-such-route').expect(404);
    for (const authorization of ['', `Bearer ${TOKEN}`]) {
      const res = await request(app.getHttpServer()).get('/metrics').set('authorization', authorization).expect(404);
      expect(res.body).toEqual({ message: 'Cannot GET /metrics', status_code: 404 });
      expect(Object.keys(res.body)).toEqual(Object.keys(unknown.body));
    }
  });
});
