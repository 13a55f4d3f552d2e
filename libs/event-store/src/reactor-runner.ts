import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource, type QueryRunner } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '#app/platform';
import { EventStore } from './event-store.js';
import { LOCKS } from './locks.js';
import type { Reactor } from './reactor.js';
import { ReactorRegistry } from './reactor-registry.js';

const BATCH = 100;
const MAX_BACKOFF_MS = 10_000;
/**
 * Finished jobs are kept a week: BullMQ refuses a known job id only while the job exists, so a
 * batch offered again after a crash must find its jobs still there.
 */
const JOB_DEFAULTS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 7 * 24 * 3600 },
  removeOnFail: { age: 30 * 24 * 3600 },
} as const;

/**
 * Follows the log for every reactor, in the worker. A batch is delivered under the reactor's
 * advisory lock (so two workers never deliver the same batch), its jobs enqueued, and only then
 * the checkpoint moved: if enqueueing fails (Redis down, a crash) the checkpoint stays and the
 * batch is offered again; BullMQ drops the ids it already has.
 */
@Injectable()
export class ReactorRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ReactorRunner.name);
  private stopping = false;
  private loops: Promise<void>[] = [];
  private wake: (() => void)[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly registry: ReactorRegistry,
    private readonly moduleRef: ModuleRef,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loops = this.registry.all().map((reactor) => this.follow(reactor));
  }

  // Before the queues close (they close in the shutdown phase): a batch being delivered still
  // reaches an open queue, and its checkpoint moves (platform's WorkersCloseFirst, same reason).
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const wake of this.wake) wake();
    await Promise.all(this.loops);
  }

  /** Delivers one batch; the number of events it handled (0 when idle or locked elsewhere). */
  async deliver(reactor: Reactor): Promise<number> {
    const session = this.dataSource.createQueryRunner();
    try {
      const [{ locked }] = await session.query(`SELECT pg_try_advisory_lock(${LOCKS.reactor('$1')}) AS locked`, [
        reactor.name,
      ]);
      if (!locked) return 0;
      try {
        return await this.deliverLocked(reactor, session);
      } finally {
        await session.query(`SELECT pg_advisory_unlock(${LOCKS.reactor('$1')})`, [reactor.name]);
      }
    } finally {
      await session.release();
    }
  }

  // No transaction spans the enqueueing: embedded PGlite runs one transaction at a time, and
  // BullMQ's Postgres backend writes to the same database. A crash between enqueueing and the
  // checkpoint update only offers the batch again, and BullMQ keeps the first job of each id.
  private async deliverLocked(reactor: Reactor, session: QueryRunner): Promise<number> {
    const [row] = await session.query(`SELECT transaction_id::text, position FROM checkpoints WHERE name = $1`, [
      reactor.name,
    ]);
    const cursor = { transactionId: row?.transaction_id ?? '0', position: Number(row?.position ?? 0) };
    const events = await this.store.readAll(cursor, BATCH, reactor.handles, session.manager);
    if (events.length === 0) return 0;
    for (const event of events) {
      const job = reactor.toJob(event);
      if (job)
        await this.queueOf(reactor).add(job.name, job.data, { ...JOB_DEFAULTS, ...job.options, jobId: event.eventId });
    }
    const last = events[events.length - 1]!;
    await session.query(
      `INSERT INTO checkpoints (name, kind, transaction_id, position) VALUES ($1, 'reactor', $2::xid8, $3)
       ON CONFLICT (name) DO UPDATE SET transaction_id = $2::xid8, position = $3, updated_at = now()`,
      [reactor.name, last.transactionId, last.position],
    );
    return events.length;
  }

  private queueOf(reactor: Reactor): Queue {
    return this.moduleRef.get<Queue>(getQueueToken(reactor.queue), { strict: false });
  }

  /** Follows one reactor until shutdown; started for every registered reactor at boot. */
  async follow(reactor: Reactor): Promise<void> {
    let backoff = this.config.queue.reactorPollMs;
    while (!this.stopping) {
      try {
        const handled = await this.deliver(reactor);
        backoff = this.config.queue.reactorPollMs;
        if (handled === BATCH) continue;
      } catch (err) {
        this.logger.error(`reactor ${reactor.name}: ${(err as Error).message}; retrying in ${backoff} ms`);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
      await this.sleep(backoff);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const wakeups = this.wake;
      function done() {
        clearTimeout(timer);
        const i = wakeups.indexOf(done);
        if (i >= 0) wakeups.splice(i, 1);
        resolve();
      }
      wakeups.push(done);
    });
  }
}
