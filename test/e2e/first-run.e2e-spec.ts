import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import type { ProvisionResult } from '#app/identity';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, provision } from '../support/test-app.js';

/** The file README.md has a newcomer provision, and the passwords it documents. */
const EXAMPLE = JSON.parse(readFileSync(join(process.cwd(), 'examples/demo-organisation.json'), 'utf8')) as {
  users: {
    key: string;
    email: string;
    password: string;
    display_name: string;
    two_factor: string | null;
    permissions: string[];
  }[];
};
const ALL_PERMISSIONS = [
  'manage-organisation',
  'manage-integrations',
  'edit-expense-settings',
  'create-expenses',
  'approve-claims',
  'self-approve-claims',
  'manage-rotas',
  'add-user-shifts',
  'manage-data-protection',
];

/**
 * A newcomer's first run (README "From nothing to a first call"): `npm start` on an empty DATA_DIR
 * says what it is doing while it sets the database up, `GET /` points at the documentation, and
 * the example organisation provisions and logs in as the README says.
 */
describe('first run: start-up progress, GET /, the example organisation', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  const log: { context?: string; msg: string }[] = [];
  let ids: ProvisionResult;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    // Embedded, as on a machine with nothing but Node: the database is created by this start.
    env = await testEnvironment({ LOG_LEVEL: 'info' }, { embedded: true });
    const destination = {
      write: (line: string) => void log.push(JSON.parse(line) as { context?: string; msg: string }),
    };
    app = await bootStandalone({ ...env.config, log: { ...env.config.log, pretty: false, destination } });
    ids = await provision(app, EXAMPLE);
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('says, as it happens and in order, that it creates the embedded database and runs the migrations', () => {
    const database = log.filter((r) => r.context === 'Database').map((r) => r.msg);
    expect(database).toEqual([
      expect.stringMatching(/^creating the embedded database in .+ \(first start only; it takes a few seconds\)…$/),
      expect.stringMatching(/^embedded database created in \d+ ms$/),
      expect.stringMatching(/^embedded PostgreSQL \(PGlite\) in .+, ready in \d+ ms$/),
      expect.stringMatching(/^running \d+ migrations…$/),
      expect.stringMatching(/^ran \d+ migrations in \d+ ms$/),
    ]);
    // Before Nest's own records, which its logger holds until the application is built.
    expect(log.findIndex((r) => r.context === 'Database')).toBe(0);
  });

  it('GET / answers, without a token, where the documentation and the health check are', async () => {
    const res = await http().get('/').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ name: 'uvol', docs: '/api/docs', openapi: '/api/docs-json', health: '/health' });
    // Each path it names answers.
    await http().get(res.body.docs).expect(200);
    await http().get(res.body.openapi).expect(200);
    await http().get(res.body.health).expect(200);
  });

  it('GET / is in the OpenAPI document: public, with its response schema', async () => {
    const doc = (await http().get('/api/docs-json').expect(200)).body;
    const operation = doc.paths['/']?.get;
    expect(operation).toBeDefined();
    expect(operation.security).toEqual([{}]);
    const schema = operation.responses['200'].content['application/json'].schema;
    expect(schema).toEqual({ $ref: '#/components/schemas/ServiceIndex' });
    expect(doc.components.schemas.ServiceIndex.required).toEqual(['name', 'docs', 'openapi', 'health']);
  });

  it('provisions the example: the admin holds every permission and no second factor, each volunteer one method', () => {
    expect(Object.keys(ids.users)).toEqual(EXAMPLE.users.map((u) => u.key));
    const admin = EXAMPLE.users.find((u) => u.key === 'admin')!;
    expect([...admin.permissions].sort()).toEqual([...ALL_PERMISSIONS].sort());
    expect(admin.two_factor).toBeNull();
    const methods = EXAMPLE.users.filter((u) => u.key !== 'admin').map((u) => u.two_factor);
    expect([...methods].sort()).toEqual(['auth_app', 'email', 'magic_link', 'sms']);
  });

  it('logs the admin in as the README does (pre-authentication token, then JWT) and answers GET /api/users/me', async () => {
    const admin = EXAMPLE.users.find((u) => u.key === 'admin')!;
    const pre = await http()
      .post('/auth/api/pre-auth-token')
      .set('content-type', 'application/json')
      .send({ email: admin.email, password: admin.password })
      .expect(200);
    expect(pre.body).toMatchObject({ token: expect.any(String), two_factor: null });
    const jwt = await http().post('/auth/api/token').send({ token: pre.body.token }).expect(200);
    const me = await http().get('/api/users/me').set('authorization', `Bearer ${jwt.body.token}`).expect(200);
    expect(me.body.data).toMatchObject({
      id: ids.users.admin,
      display_name: 'Ada Admin',
      permissions: [...ALL_PERMISSIONS].sort(),
    });
  });

  it('asks each volunteer for the second factor the example gives them', async () => {
    for (const user of EXAMPLE.users.filter((u) => u.key !== 'admin')) {
      const pre = await http()
        .post('/auth/api/pre-auth-token')
        .send({ email: user.email, password: user.password })
        .expect(200);
      expect({ user: user.key, two_factor: pre.body.two_factor }).toEqual({
        user: user.key,
        two_factor: user.two_factor,
      });
    }
  });
});
