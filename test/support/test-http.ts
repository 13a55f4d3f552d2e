import type { DynamicModule, Type } from '@nestjs/common';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type AppConfig, createHttpApp } from '#app/platform';
import { ApiModule } from '../../apps/api/src/api.module.js';
import { watchContract } from './openapi-contract.js';

/**
 * The real API application (same conventions as `npm start`), plus test-only modules. Every
 * answer it gives is checked against its own OpenAPI document (openapi-contract.ts).
 */
export async function bootApi(
  config: AppConfig,
  extra: (Type<unknown> | DynamicModule)[] = [],
): Promise<NestFastifyApplication> {
  @Module({ imports: [ApiModule.forRoot(config), ...extra] })
  class TestApiModule {}
  const app = await createHttpApp(TestApiModule);
  const contract = watchContract(app, extra);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  await contract.ready();
  return app;
}
