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

/**
 * Subscribes the caller's organisation to every event at the environment's webhook receiver
 * (`operatorFeatures`, test-config.ts); the caller needs manage-integrations.
 */
export async function subscribeWebhooks(
  app: NestFastifyApplication,
  token: string,
  receiver: { readonly url: string } | undefined,
): Promise<void> {
  if (!receiver) throw new Error('subscribeWebhooks needs testEnvironment(…, { operatorFeatures: true })');
  await request(app.getHttpServer())
    .post('/api/webhooks')
    .set('authorization', `Bearer ${token}`)
    .send({ url: receiver.url, events: ['*'] })
    .expect(201);
}

export function provision(app: NestFastifyApplication, file: unknown): Promise<ProvisionResult> {
  return app.get(CommandBus).execute(new ProvisionCommand(file));
}

/**
 * A small organisation in the provisioning file's shape; `slug` keeps several apart. `options` name
 * it, give its own teams (by default `north` and `north-shop` below it), role profiles (by default
 * `shop`) and other fields of the organisation (timezone, features, settings).
 */
export function organisationFile(
  slug: string,
  users: Record<string, unknown>[],
  options: {
    name?: string;
    teams?: Record<string, unknown>[];
    role_profiles?: Record<string, unknown>[];
    organisation?: Record<string, unknown>;
  } = {},
) {
  return {
    organisation: {
      name: options.name ?? `${slug} volunteers`,
      slug,
      timezone: 'Europe/London',
      ...options.organisation,
    },
    role_profiles: options.role_profiles ?? [{ key: 'shop', name: 'Shop volunteer' }],
    teams: options.teams ?? [
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

/**
 * A user of a provisioning file: `<key>@<domain>.example` with TEST_PASSWORD, `permissions`, and the
 * role profile `shop` on each of `teams`; named `name` (by default the key). Other fields as given.
 */
export function userFile(
  key: string,
  permissions: string[],
  teams: string[],
  { domain = 'riverside', name = key, ...fields }: { domain?: string; name?: string; [field: string]: unknown } = {},
) {
  return {
    key,
    email: `${key}@${domain}.example`,
    password: TEST_PASSWORD,
    display_name: name,
    permissions,
    roles: teams.map((team) => ({ team, role_profile: 'shop' })),
    ...fields,
  };
}

/**
 * The other organisation of a test (Hillside, one team `t`), whose users see nothing of the first
 * one's: its records answer them 404. `organisation` adds fields (features, timezone); spread the
 * answer to add more (categories, teams).
 */
export function hillsideFile(users: Record<string, unknown>[], organisation: Record<string, unknown> = {}) {
  return organisationFile('hillside', users, {
    name: 'Hillside',
    role_profiles: [{ key: 'shop', name: 'P' }],
    teams: [{ key: 't', name: 'T' }],
    organisation,
  });
}

/**
 * The expenses and files tests' organisation (Riverside): teams `north`, `north-shop` below it and
 * `south`, role profile `shop` (`roleProfiles` adds more); users from `userFile`.
 */
export function riversideFile(
  users: Record<string, unknown>[],
  {
    roleProfiles = [],
    organisation = {},
  }: { roleProfiles?: Record<string, unknown>[]; organisation?: Record<string, unknown> } = {},
) {
  return organisationFile('riverside', users, {
    name: 'Riverside',
    role_profiles: [{ key: 'shop', name: 'Shop volunteer' }, ...roleProfiles],
    teams: [
      { key: 'north', name: 'North' },
      { key: 'north-shop', name: 'North shop', parent: 'north' },
      { key: 'south', name: 'South' },
    ],
    organisation,
  });
}

/** Logs a user in over HTTP (no second factor) and answers the JWT. */
export async function logIn(app: NestFastifyApplication, email: string, password = TEST_PASSWORD): Promise<string> {
  const http = () => request(app.getHttpServer());
  const pre = await http().post('/auth/api/pre-auth-token').send({ email, password }).expect(200);
  return (await http().post('/auth/api/token').send({ token: pre.body.token }).expect(200)).body.token;
}

/** Logs each of `keys` in, one after the other, as `<key>@<domain>.example`: their tokens by key. */
export async function logInAll(
  app: NestFastifyApplication,
  keys: string[],
  domain = 'riverside',
): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  for (const key of keys) tokens[key] = await logIn(app, `${key}@${domain}.example`);
  return tokens;
}
