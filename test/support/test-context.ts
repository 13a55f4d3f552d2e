import { afterAll, beforeAll } from '@jest/globals';
import type { DynamicModule, INestApplicationContext, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import type { AppConfig } from '#app/platform';
import { coreImports } from '../../apps/common/core.js';
import { testEnvironment, type TestEnvironment } from './test-config.js';

/** The core modules (database, queues, CQRS, event store) plus `extra`, on the test's own database. */
export async function bootContext(
  config: AppConfig,
  extra: (Type<unknown> | DynamicModule)[] = [],
  providers: Type<unknown>[] = [],
): Promise<INestApplicationContext> {
  const moduleRef = await Test.createTestingModule({
    imports: [...coreImports(config, { migrate: true }), ...extra],
    providers,
  }).compile();
  moduleRef.enableShutdownHooks();
  return moduleRef.init();
}

/** What `contextFixture` sets up: read its fields in hooks and tests, once its `beforeAll` has run. */
export interface ContextFixture {
  readonly env: TestEnvironment;
  readonly app: INestApplicationContext;
  readonly store: EventStore;
  readonly ds: DataSource;
}

/**
 * The set-up of an integration spec: before the file's tests, a fresh environment (test-config.ts)
 * and the core context booted on it (`bootContext`, with `extra` modules and `providers`); after
 * them, both closed. `also` adds fields of the spec's own, got from the booted context. A spec's own
 * `beforeAll` (creating its tables, say), declared after the call, runs after this one.
 */
export function contextFixture<Also extends object = object>(
  options: {
    overrides?: Record<string, string>;
    extra?: (Type<unknown> | DynamicModule)[];
    providers?: Type<unknown>[];
    also?: (app: INestApplicationContext) => Also;
  } = {},
): ContextFixture & Also {
  const fixture: Record<string, unknown> = {};
  beforeAll(async () => {
    const env = await testEnvironment(options.overrides);
    fixture.env = env;
    const app = await bootContext(env.config, options.extra, options.providers);
    fixture.app = app;
    Object.assign(fixture, { store: app.get(EventStore), ds: app.get(DataSource) }, options.also?.(app));
  });
  afterAll(async () => {
    await (fixture.app as INestApplicationContext | undefined)?.close();
    await (fixture.env as TestEnvironment | undefined)?.cleanup();
  });
  return fixture as unknown as ContextFixture & Also;
}
