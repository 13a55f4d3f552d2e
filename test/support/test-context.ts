import type { DynamicModule, INestApplicationContext, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { AppConfig } from '#app/platform';
import { coreImports } from '../../apps/common/core.js';

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
