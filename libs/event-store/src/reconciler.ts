import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig, isDependencyError } from '#app/platform';
import { ReactorRegistry } from './reactor-registry.js';
import { ReactorRunner } from './reactor-runner.js';

/**
 * Why a full pass runs: the worker started, the queue lost its data (the marker key is gone: Redis
 * restarted empty, FLUSHDB, eviction), or an hour went by (a single job lost for any other reason).
 */
export type ReconcileReason = 'boot' | 'lost' | 'hourly';

/**
 * Work a context keeps in the queue that the reactors' owed rows do not cover (job schedulers,
 * delayed jobs planned from read tables): `reconcile` puts back whatever is missing, idempotently.
 */
export interface Reconciles {
  reconcile(reason: ReconcileReason): Promise<void>;
}
export const AsReconciler = DiscoveryService.createDecorator();

const HOUR_MS = 3_600_000;
/** Under the deployment's prefix, so it goes with everything else the queue forgets. */
const MARKER = 'reconciled';

/** The Redis escape hatch of a BullMQ backend; absent on the PostgreSQL backend. */
interface RedisMarker {
  exists(key: string): Promise<number>;
  set(key: string, value: string): Promise<unknown>;
  del(key: string): Promise<number>;
}
type Backend = { client?: Promise<RedisMarker>; on?(event: 'ready', listener: () => void): unknown };

/**
 * PostgreSQL is the record of owed work; the queue only carries it (docs/adr/0009-postgresql-records-owed-work.md).
 * Every RECONCILE_MS, and whenever the worker's Redis connection is ready again, each reactor's owed
 * jobs that the queue no longer has are offered again. A full pass (every `Reconciles`: schedulers,
 * reminders) runs at start, hourly, and when the marker key is gone from Redis, which is how an
 * emptied Redis shows itself. Two workers may reconcile at once: every step is idempotent.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(Reconciler.name);
  private stopping = false;
  private loop: Promise<void> = Promise.resolve();
  private wakeUp: (() => void) | null = null;
  private lastFull = 0;
  private running: Promise<void> | null = null;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly registry: ReactorRegistry,
    private readonly runner: ReactorRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const backend = this.backend();
    backend?.on?.('ready', () => this.wakeUp?.());
    this.loop = this.follow();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.wakeUp?.();
    await this.loop;
  }

  /** One pass now (tests, the fault drill); a pass already running is waited for instead. */
  async pass(): Promise<void> {
    this.running ??= this.run().finally(() => (this.running = null));
    await this.running;
  }

  private async follow(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.pass();
      } catch (err) {
        // An outage is the dependency monitor's to log, once each way.
        if (!isDependencyError(err)) {
          this.logger.error(
            `reconciliation failed, retrying in ${this.config.queue.reconcileMs} ms: ${(err as Error).message}`,
          );
        }
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.wakeUp?.(), this.config.queue.reconcileMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          this.wakeUp = null;
          resolve();
        };
      });
    }
  }

  private async run(): Promise<void> {
    const marker = await this.marker();
    const lost = marker ? (await marker.client.exists(marker.key)) === 0 : false;
    const reason: ReconcileReason | null =
      this.lastFull === 0 ? 'boot' : lost ? 'lost' : Date.now() - this.lastFull >= HOUR_MS ? 'hourly' : null;
    if (reason) {
      // Set first: should the queue be emptied during the pass, the marker goes too, and the next pass is full again.
      await marker?.client.set(marker.key, new Date().toISOString());
      try {
        for (const part of this.parts()) await part.reconcile(reason);
      } catch (err) {
        await marker?.client.del(marker.key).catch(() => 0);
        throw err;
      }
      this.lastFull = Date.now();
    }
    let reoffered = 0;
    for (const reactor of this.registry.all()) reoffered += (await this.runner.reoffer(reactor)).reoffered;
    if (reason === 'lost' || reoffered > 0)
      this.logger.warn(`queue reconciled (${reason ?? 'periodic'}): ${reoffered} owed jobs offered again`);
  }

  private parts(): Reconciles[] {
    return this.discovery
      .getProviders({ metadataKey: AsReconciler.KEY })
      .flatMap((wrapper) => (wrapper.instance ? [wrapper.instance as Reconciles] : []));
  }

  private backend(): Backend | undefined {
    const [reactor] = this.registry.all();
    if (!reactor) return undefined;
    return (this.runner.queueOf(reactor) as Queue).getBackend() as unknown as Backend;
  }

  private async marker(): Promise<{ client: RedisMarker; key: string } | undefined> {
    const client = this.config.queue.redisUrl ? await this.backend()?.client : undefined;
    return client ? { client, key: `${this.config.queue.prefix}:${MARKER}` } : undefined;
  }
}
