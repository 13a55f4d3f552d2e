import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { bootStandalone, logIn, organisationFile, provision, TEST_PASSWORD } from '../support/test-app.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';

const ADMIN_PASSWORD = 'an admin password for the tests';
const METRICS_TOKEN = 'a metrics token for the tests';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const INVALID_TOKEN = 'Bearer error="invalid_token"';

/**
 * Issue 31, "What real clients and tools found": the Content-Security-Policy a browser meets over
 * plain HTTP, and the WWW-Authenticate of every kind of 401 (docs/http-conventions.md#authentication),
 * with the optional routes on (the dashboard, metrics).
 */
describe('headers real clients read: CSP over plain HTTP, WWW-Authenticate on 401s', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let token: string;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    env = await testEnvironment({
      ADMIN_PASSWORD,
      METRICS_TOKEN,
      AUTH_RATE_LIMIT_PER_ADDRESS: '10000',
    });
    app = await bootStandalone(env.config);
    await provision(app, organisationFile('headers', [{ key: 'ann', email: 'ann@headers.example' }]));
    token = await logIn(app, 'ann@headers.example');
  });

  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('sends no upgrade-insecure-requests on the docs page, the dashboard and the API (a LAN install without TLS)', async () => {
    const answers: [string, request.Response][] = [
      ['docs page', await http().get('/api/docs').redirects(1)],
      ['docs script', await http().get('/api/docs/swagger-ui-init.js')],
      ['dashboard', await http().get('/admin/queues').set('authorization', basic('admin', ADMIN_PASSWORD))],
      ['API', await http().get('/api/users/me').set('authorization', `Bearer ${token}`)],
    ];
    for (const [what, res] of answers) {
      const csp = String(res.headers['content-security-policy']);
      expect([what, res.status]).toEqual([what, 200]);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self' 'unsafe-inline'");
      expect(csp).not.toMatch(/upgrade-insecure-requests/i);
    }
  });

  it('says Bearer on a 401 without a token, and invalid_token on one whose bearer token is not valid', async () => {
    const secret = env.config.auth.jwtSecret;
    const expired = jwt.sign({ sub: '1', exp: Math.floor(Date.now() / 1000) - 60 }, secret, { algorithm: 'HS256' });
    const foreign = jwt.sign({ sub: '1' }, 'another secret entirely, long enough', { algorithm: 'HS256' });
    const revoked = await logIn(app, 'ann@headers.example');
    await http().post('/auth/api/logout').set('authorization', `Bearer ${revoked}`).expect(204);
    const cases: [string | undefined, string][] = [
      [undefined, 'Bearer'],
      [basic('ann', 'x'), 'Bearer'],
      ['Bearer not-a-jwt', INVALID_TOKEN],
      [`Bearer ${expired}`, INVALID_TOKEN],
      [`Bearer ${foreign}`, INVALID_TOKEN],
      [`Bearer ${revoked}`, INVALID_TOKEN],
    ];
    for (const [authorization, challenge] of cases) {
      for (const call of [() => http().get('/api/users/me'), () => http().post('/auth/api/logout')]) {
        const req = call();
        const res = await (authorization ? req.set('authorization', authorization) : req);
        expect({ authorization, status: res.status, challenge: res.headers['www-authenticate'] }).toEqual({
          authorization,
          status: 401,
          challenge,
        });
        expect(res.body).toEqual({ message: expect.any(String), status_code: 401 });
      }
    }
  });

  it('says Bearer on the log-in routes’ 401s and on the metrics route’s; the dashboard keeps Basic', async () => {
    const refusals: [string, request.Test][] = [
      [
        'wrong password',
        http().post('/auth/api/pre-auth-token').send({ email: 'ann@headers.example', password: 'wrong password!' }),
      ],
      [
        'unknown e-mail',
        http().post('/auth/api/pre-auth-token').send({ email: 'no@headers.example', password: TEST_PASSWORD }),
      ],
      ['unknown pre-auth token', http().post('/auth/api/token').send({ token: 'no such pre-authentication token' })],
      ['refresh of no JWT', http().post('/auth/api/token/refresh').send({ token: 'not a jwt' })],
      ['metrics, no token', http().get('/metrics')],
      ['metrics, wrong token', http().get('/metrics').set('authorization', 'Bearer wrong')],
    ];
    for (const [what, req] of refusals) {
      const res = await req;
      expect([what, res.status, res.headers['www-authenticate']]).toEqual([what, 401, 'Bearer']);
    }
    const dashboard = await http().get('/admin/queues').set('authorization', `Bearer ${token}`);
    expect(dashboard.status).toBe(401);
    expect(dashboard.headers['www-authenticate']).toMatch(/^Basic realm=/);
  });

  it('leaves WWW-Authenticate off answers that are not 401s', async () => {
    for (const res of [
      await http().get('/api/users/me').set('authorization', `Bearer ${token}`),
      await http().get('/api/no-such-route').set('authorization', `Bearer ${token}`),
      await http().post('/auth/api/pre-auth-token').send({}),
    ]) {
      expect(res.status).not.toBe(401);
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
  });
});
