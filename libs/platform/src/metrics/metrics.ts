import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The `route` label of a request no route matched: a fixed value, never the raw path (docs/metrics.md). */
export const UNMATCHED_ROUTE = 'unmatched';
/** How long a scrape waits for one gauge's source (the database, a queue) before leaving it out. */
const COLLECT_TIMEOUT_MS = 2_000;

/** One label set and its value, as a gauge computed on scrape reports them. */
export type GaugeSample<L extends string> = { labels: Record<L, string>; value: number };

/**
 * The process's one Prometheus registry (docs/metrics.md): prom-client's default process metrics,
 * the series every process counts, and gauges whose values are read on scrape. Contexts reach it
 * through #app/platform and count where the thing happens.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code, and how long each took',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [this.registry],
  });
  private readonly appended = new Counter({
    name: 'uvol_events_appended_total',
    help: 'Events appended to the log (committed), by type',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: 'uvol_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retried (another attempt is due) or failed (for good)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    // Gauges named like counters: `promtool check metrics` refuses them (a gauge must not end in
    // _total). Their labelled twins (`nodejs_active_handles{type}`…) stay; a sum of those is the total.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
      this.registry.removeSingleMetric(name);
  }

  /** `route` is the route pattern (`/api/rota/shifts/:id`), or undefined where none matched. */
  request(method: string, route: string | undefined, statusCode: number, seconds: number): void {
    this.requests.observe({ method, route: route ?? UNMATCHED_ROUTE, status_code: String(statusCode) }, seconds);
  }

  /** Called once the events are committed. */
  eventsAppended(events: readonly { type: string }[]): void {
    for (const e of events) this.appended.inc({ type: e.type });
  }

  webhookDelivery(outcome: 'delivered' | 'retried' | 'failed'): void {
    this.deliveries.inc({ outcome });
  }

  /**
   * A gauge read on scrape from `read` (asynchronous: nothing blocks the event loop). A source that
   * fails or takes longer than two seconds leaves the gauge empty for that scrape rather than failing it.
   */
  gaugeOnScrape<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => Promise<GaugeSample<L>[]>,
  ): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        const samples = await within(read()).catch(() => []);
        for (const s of samples) this.set(s.labels as never, s.value);
      },
    });
  }

  /** The text exposition format (and its content type). */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

function within<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), COLLECT_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
