import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import { WorkerHost } from '@nestjs/bullmq';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource, type QueryRunner } from 'typeorm';
import { APP_CONFIG, type AppConfig, isDependencyError } from '#app/platform';
import { LOCKS } from './locks.js';
import { LogWalk } from './log-walk.js';
import type { Reactor, ReactorJob } from './reactor.js';
import { ReactorRegistry } from './reactor-registry.js';
import { OwedJobs } from './owed-jobs.js';

const BATCH = 100;
/** Owed jobs looked at per query when re-offering. */
const REOFFER_PAGE = 500;
/** A row younger than this may still be on its way to the queue from the runner: left to it. */
const SETTLED_MS = 2_000;
const MAX_BACKOFF_MS = 10_000;
/**
 * Finished jobs are kept a week: BullMQ refuses a known job id only while the job exists, so a job
 * offered again (its owed row's delete failed) finds itself there, completed, and is not run twice.
 */
const JOB_DEFAULTS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 7 * 24 * 3600 },
  removeOnFail: { age: 30 * 24 * 3600 },
} as const;

/**
 * Follows the log for every reactor, in the worker. A batch is delivered under the reactor's
 * advisory lock (so two workers never deliver the same batch): its jobs are recorded as owed in the
 * transaction that moves the checkpoint, then enqueued. What the queue never got or forgot (a crash
 * between the two, Redis down or restarted empty) stays owed in PostgreSQL, and `reoffer` (run by
 * the Reconciler) enqueues it again; a job's completion deletes its row
 * (docs/adr/0009-postgresql-records-owed-work.md).
 */
@Injectable()
export class ReactorRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ReactorRunner.name);
  private stopping = false;
  private loops: Promise<void>[] = [];
  private wake: (() => void)[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly walk: LogWalk,
    private readonly registry: ReactorRegistry,
    private readonly moduleRef: ModuleRef,
    private readonly owed: OwedJobs,
    private readonly discovery: DiscoveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.whenDone();
    this.loops = this.registry.all().map((reactor) => this.follow(reactor));
  }

  /**
   * A reactor job done is no longer owed: each worker of a reactor's queue deletes its row when it
   * completes one. A delete that fails (the database away) leaves the row; `reoffer` finds the job
   * completed and deletes it then.
   */
  private whenDone(): void {
    const byQueue = new Map(this.registry.all().map((r) => [r.queue, r.name]));
    for (const wrapper of this.discovery.getProviders()) {
      const host = wrapper.instance as unknown;
      if (!(host instanceof WorkerHost)) continue;
      let worker: WorkerHost['worker'];
      try {
        worker = host.worker;
      } catch {
        continue; // never started
      }
      const reactor = byQueue.get(worker.name);
      if (!reactor) continue;
      worker.on('completed', (job) => {
        this.owed.done(reactor, [job.id ?? '']).catch((err: Error) => {
          if (isDependencyError(err)) return; // the dependency monitor logs the outage once
          this.logger.warn(`reactor ${reactor}: job ${job.id} done, its owed row stays: ${err.message}`);
        });
      });
    }
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

  // The owed rows and the checkpoint are one statement; the enqueueing comes after it, never inside
  // a transaction: embedded PGlite runs one transaction at a time, and BullMQ's Postgres backend
  // writes to the same database.
  private async deliverLocked(reactor: Reactor, session: QueryRunner): Promise<number> {
    // The checkpoint and the batch after it in one statement (log-walk.ts).
    const { cursor, events } = await this.walk.after(session, reactor.name, reactor.handles, BATCH);
    if (!cursor) return 0;
    // perTransaction: a transaction whose events began in an earlier batch (the cursor's) had its job there.
    const served = new Set(reactor.perTransaction ? [cursor.transactionId] : []);
    const jobs = events.flatMap((event) => {
      if (served.has(event.transactionId)) return [];
      const job = reactor.toJob(event);
      if (job && reactor.perTransaction) served.add(event.transactionId);
      return job ? [{ eventId: event.eventId, job }] : [];
    });
    const last = events[events.length - 1]!;
    await this.owed.recordPast(
      session,
      reactor.name,
      jobs.map((j) => j.eventId),
      last,
    );
    await this.offer(reactor, jobs);
    return events.length;
  }

  /**
   * One Redis round trip for a batch's jobs (BullMQ's addBulk: one MULTI). BullMQ adds nothing for a
   * job id it still has, whatever the job's state: offering twice is harmless.
   */
  private async offer(reactor: Reactor, jobs: readonly { eventId: string; job: ReactorJob }[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.queueOf(reactor).addBulk(
      jobs.map(({ eventId, job }) => ({
        name: job.name,
        data: job.data,
        opts: { ...JOB_DEFAULTS, ...job.options, jobId: eventId },
      })),
    );
  }

  /**
   * Enqueues again each owed job the queue no longer has, and forgets those it holds as completed.
   * A job waiting, delayed, active or failed is left to the queue (a failed one stays owed: a
   * person retries it). Answers how many jobs it offered again.
   */
  async reoffer(reactor: Reactor): Promise<{ reoffered: number; done: number }> {
    const queue = this.queueOf(reactor);
    let reoffered = 0;
    let done = 0;
    for (let after: string | null = null; ;) {
      const ids = await this.owed.page(reactor.name, after, REOFFER_PAGE, SETTLED_MS);
      if (ids.length === 0) break;
      after = ids[ids.length - 1]!;
      const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
      const completed = ids.filter((_, i) => states[i] === 'completed');
      const missing = ids.filter((_, i) => states[i] === 'unknown');
      await this.clearOrphans(queue, missing);
      await this.owed.done(reactor.name, completed);
      done += completed.length;
      const events = missing.length ? await this.owed.events(missing) : [];
      const offers = events.flatMap((event) => {
        const job = reactor.toJob(event);
        return job ? [{ eventId: event.eventId, job }] : [];
      });
      await this.offer(reactor, offers);
      const jobless = events.filter((e) => !offers.some((o) => o.eventId === e.eventId)).map((e) => e.eventId);
      if (jobless.length) await this.owed.done(reactor.name, jobless);
      reoffered += events.length;
      if (ids.length < REOFFER_PAGE) break;
    }
    return { reoffered, done };
  }

  /**
   * A queue that lost its keys one by one (eviction, a partial delete) may keep a job's data without
   * its state: BullMQ adds nothing for an id it still holds, so the job would never run again. Such
   * orphans go first; BullMQ's own sweep checks each one atomically, so a job that is in a state is kept.
   */
  private async clearOrphans(queue: Queue, missing: readonly string[]): Promise<void> {
    const kept = await Promise.all(missing.map((id) => queue.getJob(id)));
    if (kept.some(Boolean)) await queue.removeOrphanedJobs();
  }

  queueOf(reactor: Reactor): Queue {
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
        // An outage is one line lost and one back, the dependency monitor's (docs/http-conventions.md#dependency-outages).
        if (!isDependencyError(err)) {
          this.logger.error(`reactor ${reactor.name}: ${(err as Error).message}; retrying in ${backoff} ms`);
        }
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
