import type { DynamicModule, Type } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { ProvisionCommand, type ProvisionResult } from '#app/identity';
import { type AppConfig, createHttpApp } from '#app/platform';
import { StandaloneModule } from '../../apps/standalone/src/standalone.module.js';
import { watchContract } from './openapi-contract.js';

/**
 * API and worker in one process, as `npm start` runs them, plus test-only modules. Every answer it
 * gives is checked against its own OpenAPI document (openapi-contract.ts).
 */
export async function bootStandalone(
  config: AppConfig,
  extra: (Type<unknown> | DynamicModule)[] = [],
): Promise<NestFastifyApplication> {
  @Module({ imports: [StandaloneModule.forRoot(config), ...extra] })
  class TestStandaloneModule {}
  const app = await createHttpApp(TestStandaloneModule);
  const contract = watchContract(app, extra);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  await contract.ready();
  return app;
}

export function provision(app: NestFastifyApplication, file: unknown): Promise<ProvisionResult> {
  return app.get(CommandBus).execute(new ProvisionCommand(file));
}

/** A small organisation in the provisioning file's shape; `slug` keeps several apart. */
export function organisationFile(slug: string, users: Record<string, unknown>[]) {
  return {
    organisation: { name: `${slug} volunteers`, slug, timezone: 'Europe/London' },
    role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
    teams: [
      { key: 'north', name: 'North region' },
      { key: 'north-shop', name: 'North shop', parent: 'north' },
    ],
    users: users.map((u) => ({
      password: TEST_PASSWORD,
      display_name: String(u.key),
      roles: [{ team: 'north-shop', role_profile: 'shop' }],
      ...u,
    })),
  };
}

/** The password `organisationFile` gives every user. */
export const TEST_PASSWORD = 'a long enough password';

/** Logs a user in over HTTP (no second factor) and answers the JWT. */
export async function logIn(app: NestFastifyApplication, email: string, password = TEST_PASSWORD): Promise<string> {
  const http = () => request(app.getHttpServer());
  const pre = await http().post('/auth/api/pre-auth-token').send({ email, password }).expect(200);
  return (await http().post('/auth/api/token').send({ token: pre.body.token }).expect(200)).body.token;
}
