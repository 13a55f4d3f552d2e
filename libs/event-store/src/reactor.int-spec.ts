import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { BullModule, InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, Module } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { contextFixture } from '../../../test/support/test-context.js';
import { Checkpoints } from './checkpoints.js';
import { EventStore, storeInternals } from './event-store.js';
import type { StoredEvent } from './event.types.js';
import type { Reactor } from './reactor.js';
import { ReactorRegistry } from './reactor-registry.js';
import { ReactorRunner } from './reactor-runner.js';
import { ReactorRunnerModule } from './reactor-runner.module.js';

const QUEUE = 'test-deliveries';
const processed: string[] = [];

@Processor(QUEUE)
class RecordingProcessor extends WorkerHost {
  async process(job: Job<{ eventId: string }>): Promise<void> {
    processed.push(job.data.eventId);
  }
}

@Injectable()
class QueueHandle {
  constructor(@InjectQueue(QUEUE) readonly queue: Queue) {}
}

@Module({
  imports: [BullModule.registerQueue({ name: QUEUE })],
  providers: [RecordingProcessor, QueueHandle],
  exports: [QueueHandle],
})
class TestQueueModule {}

/** A reactor whose nth job, on its first derivation only, cannot be enqueued (a worker killed mid-offer, Redis gone). */
function crashingReactor(type: string, crashAt: number): Reactor & { crashed: boolean } {
  let seen = 0;
  return {
    name: 'test-deliveries',
    queue: QUEUE,
    handles: [type],
    crashed: false,
    toJob(event: StoredEvent) {
      seen++;
      if (!this.crashed && seen === crashAt) {
        this.crashed = true;
        return { name: 'deliver', data: { eventId: event.eventId }, options: { priority: 0.5 } }; // BullMQ refuses it
      }
      return { name: 'deliver', data: { eventId: event.eventId } };
    },
  };
}

describe('reactors', () => {
  // `ctx.internal`: the transactional writes domain code does not get, to test them and to seed streams.
  const ctx = contextFixture({
    extra: [TestQueueModule, ReactorRunnerModule],
    also: (app) => ({
      internal: storeInternals(app.get(EventStore)),
      runner: app.get(ReactorRunner),
      queue: app.get(QueueHandle).queue,
    }),
  });

  const append = (type: string, n: number) =>
    ctx.internal.transaction((tx) =>
      ctx.internal.append(tx, [
        {
          streamId: `r-${randomUUID()}`,
          expectedVersion: 'no_stream',
          events: Array.from({ length: n }, (_, i) => ({ type, data: { i } })),
        },
      ]),
    );

  /**
   * The log is read only below the cluster-wide snapshot horizon, so an open transaction of another
   * test file (another database, same server) can hold a delivery back for a moment: retry.
   */
  async function deliverSome(reactor: Reactor): Promise<number> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const n = await ctx.runner.deliver(reactor);
      if (n > 0 || Date.now() > deadline) return n;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function until(check: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it(
    'delivers every job exactly once, with the event id as job id, when the offer of a batch breaks: ' +
      'the checkpoint moved with the owed rows, and reoffer enqueues what the queue never got',
    async () => {
      const type = `test.Deliver${randomUUID().slice(0, 6)}`;
      const [appended] = await append(type, 20);
      const ids = appended!.events.map((e) => e.eventId);
      const reactor = crashingReactor(type, 8);
      ctx.app.get(ReactorRegistry).add(reactor);
      const db = ctx.app.get(DataSource);
      const owed = async () =>
        (await db.query(`SELECT event_id::text AS id FROM reactor_owed_jobs WHERE reactor = $1`, [reactor.name])).map(
          (r: { id: string }) => r.id,
        );

      await expect(deliverSome(reactor)).rejects.toThrow('Priority should not be float');
      // The batch is offered in one addBulk, refused whole: no job reached BullMQ; the checkpoint
      // moved, and all twenty were recorded as owed first.
      expect(await ctx.queue.getJobCountByTypes('waiting', 'active', 'completed')).toBe(0);
      const [checkpoint] = await db.query(`SELECT position FROM checkpoints WHERE name = $1`, [reactor.name]);
      expect(checkpoint).toBeDefined();
      expect((await owed()).sort()).toEqual([...ids].sort());
      expect(await ctx.runner.deliver(reactor)).toBe(0);

      // The reconciler's step: what is owed and missing from the queue is offered again, once.
      await until(async () => (await ctx.runner.reoffer(reactor)).reoffered === 20, 'the owed rows to settle', 10_000);
      await until(() => processed.length >= 20, 'twenty processed jobs');
      // Completed jobs are no longer owed (this reactor was added after boot, so reoffer finds them so, not the hook).
      await until(async () => (await ctx.runner.reoffer(reactor), (await owed()).length === 0), 'every owed row done');
      expect((await ctx.runner.reoffer(reactor)).reoffered).toBe(0);
      await new Promise((r) => setTimeout(r, 300)); // room for a duplicate to show up, if any
      expect([...processed].sort()).toEqual([...ids].sort());
      const jobs = await ctx.queue.getJobs(['completed', 'waiting', 'active', 'delayed', 'failed']);
      expect(jobs.map((j) => j.id).sort()).toEqual([...ids].sort());
    },
    60_000,
  );

  it('offers again the owed jobs of a queue that forgot them (emptied), and forgets those it finds completed', async () => {
    const type = `test.Forgot${randomUUID().slice(0, 6)}`;
    const [appended] = await append(type, 5);
    const ids = appended!.events.map((e) => e.eventId);
    const reactor: Reactor = {
      name: `forgot-${type}`,
      queue: QUEUE,
      handles: [type],
      toJob: (e) => ({ name: 'deliver', data: { eventId: e.eventId } }),
    };
    // Recorded as owed, checkpoint moved, but never enqueued: what a queue emptied after the offer looks like.
    const db = ctx.app.get(DataSource);
    await db.query(
      `INSERT INTO reactor_owed_jobs (reactor, event_id, recorded_at) SELECT $1, unnest($2::uuid[]), now() - interval '1 minute'`,
      [reactor.name, ids],
    );
    const before = processed.length;
    expect(await ctx.runner.reoffer(reactor)).toEqual({ reoffered: 5, done: 0 });
    await until(() => processed.length >= before + 5, 'five processed jobs');
    expect(processed.slice(before).sort()).toEqual([...ids].sort());
    // The completion hook may not be listening for this reactor (added after boot): reoffer finds them completed.
    await until(async () => (await ctx.queue.getJobState(ids[4]!)) === 'completed', 'the last job done');
    expect((await ctx.runner.reoffer(reactor)).reoffered).toBe(0);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM reactor_owed_jobs WHERE reactor = $1`, [
      reactor.name,
    ]);
    expect(n).toBe(0);
  }, 60_000);

  // Redis only: on BullMQ's PostgreSQL backend a job's data and state are one row.
  (process.env.TEST_REDIS_URL ? it : it.skip)(
    'offers again an owed job whose data the queue kept without its state (keys lost one by one)',
    async () => {
      const type = `test.Orphan${randomUUID().slice(0, 6)}`;
      const [appended] = await append(type, 1);
      const id = appended!.events[0]!.eventId;
      const reactor: Reactor = {
        name: `orphan-${type}`,
        queue: QUEUE,
        handles: [type],
        toJob: (e) => ({ name: 'deliver', data: { eventId: e.eventId } }),
      };
      const db = ctx.app.get(DataSource);
      await db.query(
        `INSERT INTO reactor_owed_jobs (reactor, event_id, recorded_at) VALUES ($1, $2, now() - interval '1 minute')`,
        [reactor.name, id],
      );
      // Offered as a delayed job, then its place in the delayed set lost: the job's hash stays, in no state.
      await ctx.queue.add('deliver', { eventId: id }, { jobId: id, delay: 3_600_000 });
      const redis = await (
        ctx.queue.getBackend() as unknown as { client: Promise<{ zrem(k: string, m: string): Promise<number> }> }
      ).client;
      expect(await redis.zrem(ctx.queue.keys.delayed!, id)).toBe(1);
      expect(await ctx.queue.getJobState(id)).toBe('unknown');
      expect(await ctx.queue.getJob(id)).toBeDefined();

      expect(await ctx.runner.reoffer(reactor)).toEqual({ reoffered: 1, done: 0 });
      await until(async () => (await ctx.queue.getJobState(id)) === 'completed', 'the job run again');
      expect(processed.filter((p) => p === id)).toHaveLength(1);
      expect(await ctx.runner.reoffer(reactor)).toEqual({ reoffered: 0, done: 1 });
    },
    60_000,
  );

  (process.env.TEST_PG_ADMIN_URL ? it : it.skip)('sees an event whose transaction commits late, once', async () => {
    const type = `test.Late${randomUUID().slice(0, 6)}`;
    const seen: string[] = [];
    const reactor: Reactor = {
      name: `late-${type}`,
      queue: 'never-used',
      handles: [type],
      toJob: (e) => (seen.push(e.eventId), null),
    };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const hasAppended = new Promise<void>((r) => (started = r));
    const slow = ctx.internal.transaction(async (tx) => {
      await ctx.internal.append(tx, [
        { streamId: `slow-${randomUUID()}`, expectedVersion: 'any', events: [{ type, data: {} }] },
      ]);
      started();
      await gate;
    });
    await hasAppended;
    await append(type, 3);
    expect(await ctx.runner.deliver(reactor)).toBe(0);
    release();
    await slow;
    expect(await deliverSome(reactor)).toBe(4);
    expect(await ctx.runner.deliver(reactor)).toBe(0);
    expect(new Set(seen).size).toBe(4);
    expect(seen).toHaveLength(4);
  });

  it('follows the log by itself once started, and reports its lag as zero when idle', async () => {
    const type = `test.Auto${randomUUID().slice(0, 6)}`;
    const got: string[] = [];
    const [appended] = await append(type, 5);
    const reactor: Reactor = {
      name: `auto-${type}`,
      queue: `auto-${type}`,
      handles: [type],
      toJob: (e) => (got.push(e.eventId), null),
    };
    ctx.app.get(ReactorRegistry).add(reactor);
    const loop = ctx.runner.follow(reactor);
    await until(() => got.length === 5, 'the runner loop to deliver');
    expect(got).toEqual(appended!.events.map((e) => e.eventId));
    const status = await ctx.app.get(Checkpoints).status();
    expect(status.find((s) => s.name === reactor.name)).toMatchObject({ kind: 'reactor', behind: 0, state: 'idle' });
    await ctx.runner.beforeApplicationShutdown();
    await loop;
  });
});
