import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BullModule, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Job } from 'bullmq';
import request from 'supertest';
import { AsReactor, EventStore, type Reactor, type StoredEvent } from '#app/event-store';
import { type AppConfig, createHttpApp } from '#app/platform';
import { StandaloneModule } from '../../apps/standalone/src/standalone.module.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';

const QUEUE = 'embedded-greetings';

/** Reacts to test.Greeted by queueing a job; the job appends test.Answered, proving the round trip. */
@AsReactor()
@Injectable()
class GreetingReactor implements Reactor {
  readonly name = 'embedded-greetings';
  readonly queue = QUEUE;
  readonly handles = ['test.Greeted'];
  toJob(event: StoredEvent) {
    return { name: 'answer', data: { streamId: event.streamId } };
  }
}

@Processor(QUEUE)
class AnswerProcessor extends WorkerHost {
  constructor(private readonly store: EventStore) {
    super();
  }
  async process(job: Job<{ streamId: string }>): Promise<void> {
    // Answers the greeting once: the stream holds it alone (a retried job appends nothing).
    await this.store.handle(
      job.data.streamId,
      (count: number | null) => (count ?? 0) + 1,
      (count) => (count === 1 ? [{ type: 'test.Answered', data: {} }] : []),
    );
  }
}

@Module({ imports: [BullModule.registerQueue({ name: QUEUE })], providers: [GreetingReactor, AnswerProcessor] })
class GreetingModule {}

async function boot(config: AppConfig): Promise<NestFastifyApplication> {
  @Module({ imports: [StandaloneModule.forRoot(config), GreetingModule] })
  class EmbeddedTestModule {}
  const app = await createHttpApp(EmbeddedTestModule);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

/** `npm start` with nothing but Node: PGlite under DATA_DIR, BullMQ on the same database. */
describe('embedded mode (no DATABASE_URL, no REDIS_URL)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication | undefined;
  const streamId = `greeting-${randomUUID()}`;

  beforeAll(async () => {
    env = await testEnvironment({}, { embedded: true });
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('boots from an empty DATA_DIR and serves the API', async () => {
    expect(env.config.database.url).toBeUndefined();
    expect(env.config.queue.redisUrl).toBeUndefined();
    expect(existsSync(env.config.database.embeddedDir)).toBe(false);
    app = await boot(env.config);
    expect(existsSync(join(env.config.database.embeddedDir, 'PG_VERSION'))).toBe(true);
    const health = await request(app.getHttpServer()).get('/health').expect(200);
    expect(health.body.details).toEqual({
      database: { status: 'up', required: true },
      queue: { status: 'up', required: true },
    });
  });

  it('runs a job: an event goes through a reactor and BullMQ on Postgres to a worker', async () => {
    const store = app!.get(EventStore);
    await store.handle(
      streamId,
      () => null,
      () => [{ type: 'test.Greeted', data: { to: 'world' } }],
      { expect: 'no_stream' },
    );
    const deadline = Date.now() + 45_000;
    let types: string[] = [];
    while (Date.now() < deadline) {
      types = (await store.readStream(streamId)).map((e) => e.type);
      if (types.length === 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(types).toEqual(['test.Greeted', 'test.Answered']);
  });

  it('survives a restart with its data', async () => {
    await app!.close();
    app = undefined;
    app = await boot(env.config);
    const types = (await app.get(EventStore).readStream(streamId)).map((e) => e.type);
    expect(types).toEqual(['test.Greeted', 'test.Answered']);
    await request(app.getHttpServer()).get('/health').expect(200);
  });
});
