import { WorkerHost } from '@nestjs/bullmq';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { QueueBase } from 'bullmq';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { isDependencyError } from './dependency-errors.js';

/** What a process runs: an API serves HTTP, a worker consumes the queues, standalone does both. */
export type ProcessRole = 'api' | 'worker' | 'standalone';
export const PROCESS_ROLE = Symbol('PROCESS_ROLE');

export type Check = { status: 'up' } | { status: 'down'; error: string };
export type DependencyName = 'database' | 'queue' | 'storage';
/** `storage` only where the process has an object store (S3_BUCKET). */
export type Checks = Record<'database' | 'queue', Check> & { storage?: Check };

/**
 * The object store a context brings (libs/files with S3_BUCKET): the monitor finds it among the
 * providers and asks it with the others. Never required for readiness: without it only file routes
 * fail, and taking every API out of the load balancer would make that a whole outage.
 */
export abstract class StorageDependency {
  /** Resolves when the store answers. */
  abstract probe(): Promise<void>;
}

const TIMEOUT_MS = 2_000;
/** How often a process asks while everything answers, and while something does not. */
const STEADY_MS = 5_000;
const OUTAGE_MS = 1_000;
const LABEL: Record<DependencyName, string> = { database: 'PostgreSQL', queue: 'Redis', storage: 'Object storage' };

/** Failures reported by code that has no monitor at hand (the HTTP error reply): every live monitor hears them. */
const monitors = new Set<DependencyMonitor>();
export function reportDependencyError(err: unknown): boolean {
  if (!isDependencyError(err)) return false;
  for (const monitor of monitors) monitor.suspect();
  return true;
}

/**
 * The state of this process's dependencies (docs/http-conventions.md#dependency-outages, docs/operations.md
 * "Health and readiness"): PostgreSQL always, Redis when the queues live there (on BullMQ's
 * PostgreSQL backend the queue is the database). It asks every few seconds, every second during an
 * outage, and at once when a request or a queue meets a connection error; it logs one line when a
 * dependency is lost and one when it is back, with the outage's length, never one per retry.
 *
 * It also listens to every BullMQ queue and worker: without a listener their 'error' events end up
 * on stderr as a stack trace per reconnection attempt.
 */
@Injectable()
export class DependencyMonitor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Dependencies');
  private readonly down = new Map<DependencyName, { since: number }>();
  private readonly redis: Redis | undefined;
  private storage: StorageDependency | undefined;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<Checks> | undefined;
  private lastProbe = 0;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(PROCESS_ROLE) readonly role: ProcessRole,
    private readonly discovery: DiscoveryService,
  ) {
    if (config.queue.redisUrl) {
      // Its own small connection: a PING answers at once or fails at once (no offline queue), and
      // it reconnects every second at most, so "back" is seen within seconds.
      this.redis = new Redis(config.queue.redisUrl, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        connectTimeout: TIMEOUT_MS,
        retryStrategy: (times) => Math.min(times * 200, OUTAGE_MS),
      });
      this.redis.on('error', () => undefined); // the probe reports it
    }
  }

  /** The dependencies this role needs to be ready: an API serves without Redis, a worker does not. */
  required(name: DependencyName): boolean {
    return name === 'database' || (name === 'queue' && this.role !== 'api');
  }

  onApplicationBootstrap(): void {
    monitors.add(this);
    this.listenToQueues();
    this.redis?.connect().catch(() => undefined);
    this.schedule(STEADY_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    monitors.delete(this);
    clearTimeout(this.timer);
    this.redis?.disconnect();
  }

  /** A connection error was met somewhere: ask now (at most four times a second). */
  suspect(): void {
    if (this.stopped || this.inFlight || Date.now() - this.lastProbe < 250) return;
    void this.probe();
  }

  /** Asks every dependency (two seconds each), records and logs what changed, and answers each one's state. */
  probe(): Promise<Checks> {
    this.inFlight ??= this.run().finally(() => {
      this.inFlight = undefined;
      this.lastProbe = Date.now();
    });
    return this.inFlight;
  }

  private async run(): Promise<Checks> {
    const storage = this.storage;
    const [database, redis, store] = await Promise.all([
      within(() => this.dataSource.query('SELECT 1')),
      this.redis ? within(() => this.pingRedis()) : undefined,
      storage ? within(() => storage.probe()) : undefined,
    ]);
    this.record('database', database);
    if (redis) this.record('queue', redis);
    if (store) this.record('storage', store);
    return { database, queue: redis ?? database, ...(store && { storage: store }) };
  }

  private async pingRedis(): Promise<void> {
    const redis = this.redis!;
    if (redis.status !== 'ready') throw new Error(`Redis connection ${redis.status}`);
    await redis.ping();
  }

  private record(name: DependencyName, check: Check): void {
    const was = this.down.get(name);
    if (check.status === 'down' && !was) {
      this.down.set(name, { since: Date.now() });
      this.logger.error({ dependency: name, error: check.error }, `${LABEL[name]} connection lost`);
    } else if (check.status === 'up' && was) {
      this.down.delete(name);
      const outageMs = Date.now() - was.since;
      this.logger.log(
        { dependency: name, outage_ms: outageMs },
        `${LABEL[name]} connection back after ${(outageMs / 1000).toFixed(1)} s`,
      );
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.probe().finally(() => this.schedule(this.down.size ? OUTAGE_MS : STEADY_MS));
    }, ms);
    this.timer.unref();
  }

  /** Every queue and worker BullMQ made for this process: their errors feed the probe instead of stderr. */
  private listenToQueues(): void {
    const onError = (err: unknown) => {
      if (isDependencyError(err)) return this.suspect();
      this.logger.error({ error: err instanceof Error ? err.message : String(err) }, 'queue error');
    };
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as unknown;
      if (instance instanceof StorageDependency) this.storage = instance;
      else if (instance instanceof QueueBase) instance.on('error', onError);
      else if (instance instanceof WorkerHost) workerOf(instance)?.on('error', onError);
    }
  }
}

async function within(work: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
  });
  try {
    await Promise.race([work(), timeout]);
    return { status: 'up' };
  } catch (err) {
    return { status: 'down', error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

/** The host's worker, or none where it was never started (the getter throws then). */
function workerOf(host: WorkerHost): WorkerHost['worker'] | undefined {
  try {
    return host.worker;
  } catch {
    return undefined;
  }
}
