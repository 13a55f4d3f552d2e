import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import jwt from 'jsonwebtoken';
import { createGuardrails, generateSync } from 'otplib';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { type ProvisionResult, RequirePermission } from '#app/identity';
import { mailText, startMailCatcher, startSmsGateway } from '../support/mail-catcher.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, organisationFile, provision } from '../support/test-app.js';

const TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
const PASSWORD = 'a long enough password';
const totp = (secondsFromNow = 0) =>
  generateSync({
    secret: TOTP_SECRET,
    guardrails: createGuardrails({ MIN_SECRET_BYTES: 10 }),
    epoch: Math.floor(Date.now() / 1000) + secondsFromNow,
  });

@Controller('api/test-approvals')
class ApprovalsController {
  @Get()
  @RequirePermission('approve-claims')
  list() {
    return { data: [] };
  }
}
@Module({ controllers: [ApprovalsController] })
class ApprovalsModule {}

describe('authentication (docs/http-conventions.md#authentication)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let sms: Awaited<ReturnType<typeof startSmsGateway>>;
  let riverside: ProvisionResult;
  let hillside: ProvisionResult;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    mail = await startMailCatcher();
    sms = await startSmsGateway();
    env = await testEnvironment({
      SMTP_URL: mail.url,
      SMS_WEBHOOK_URL: sms.url,
      AUTH_RATE_LIMIT: '5',
      AUTH_RATE_LIMIT_PER_ADDRESS: '10000',
    });
    app = await bootStandalone(env.config, [ApprovalsModule]);
    riverside = await provision(
      app,
      organisationFile('riverside', [
        { key: 'plain', email: 'plain@riverside.example', permissions: ['approve-claims'] },
        { key: 'mailer', email: 'mailer@riverside.example', two_factor: 'email' },
        { key: 'texter', email: 'texter@riverside.example', two_factor: 'sms', phone: '+44 7700 900123' },
        { key: 'app', email: 'app@riverside.example', two_factor: 'auth_app', totp_secret: TOTP_SECRET },
        { key: 'linker', email: 'linker@riverside.example', two_factor: 'magic_link' },
        { key: 'burner', email: 'burner@riverside.example', two_factor: 'email' },
        { key: 'victim', email: 'victim@riverside.example' },
      ]),
    );
    hillside = await provision(app, organisationFile('hillside', [{ key: 'other', email: 'other@hillside.example' }]));
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await mail?.stop();
    await sms?.stop();
  });

  const preAuth = (email: string, password = PASSWORD) =>
    http().post('/auth/api/pre-auth-token').send({ email, password });
  const exchange = (token: string, key?: string | null, minimal?: boolean) =>
    http().post('/auth/api/token').send({ token, key, minimal });
  async function logIn(email: string): Promise<string> {
    const pre = await preAuth(email).expect(200);
    return (await exchange(pre.body.token).expect(200)).body.token;
  }
  const me = (token: string) => http().get('/api/users/me').set('authorization', `Bearer ${token}`);
  const refresh = (token: string) => http().post('/auth/api/token/refresh').send({ token });

  describe('without a second factor', () => {
    it('trades credentials for a pre-authentication token, and that for a JWT that opens the API', async () => {
      const pre = await preAuth('Plain@Riverside.example').expect(200);
      expect(pre.body).toEqual({
        token: expect.any(String),
        expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        two_factor: null,
      });
      const expiresIn = Date.parse(pre.body.expires_at) - Date.now();
      expect(expiresIn).toBeGreaterThan(590_000);
      expect(expiresIn).toBeLessThanOrEqual(600_000);
      const { body } = await exchange(pre.body.token).expect(200);
      const claims = jwt.decode(body.token) as Record<string, unknown>;
      expect(claims).toMatchObject({
        sub: String(riverside.users.plain),
        org: riverside.organisation.id,
        email: 'plain@riverside.example',
        name: 'plain',
      });
      expect(claims.jti).toEqual(expect.any(String));
      expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
      expect((await me(body.token).expect(200)).body.data).toMatchObject({
        id: riverside.users.plain,
        display_name: 'plain',
      });
    });

    it('answers an unknown e-mail and a wrong password alike', async () => {
      const unknown = await preAuth('nobody@riverside.example').expect(401);
      const wrong = await preAuth('victim@riverside.example', 'not the password').expect(401);
      expect(unknown.body).toEqual(wrong.body);
      expect(unknown.body).toEqual({ message: expect.any(String), status_code: 401 });
    });

    it('uses a pre-authentication token once', async () => {
      const pre = await preAuth('plain@riverside.example').expect(200);
      await exchange(pre.body.token).expect(200);
      expect((await exchange(pre.body.token).expect(401)).body.status_code).toBe(401);
      await exchange('made-up-token').expect(401);
    });

    it('leaves the profile claims out of a minimal JWT', async () => {
      const pre = await preAuth('plain@riverside.example').expect(200);
      const claims = jwt.decode((await exchange(pre.body.token, null, true).expect(200)).body.token) as Record<
        string,
        unknown
      >;
      expect(claims).not.toHaveProperty('email');
      expect(claims).not.toHaveProperty('name');
      expect(claims).toMatchObject({ sub: String(riverside.users.plain), org: riverside.organisation.id });
    });

    it('refuses a body without the required fields with 422', async () => {
      const res = await http().post('/auth/api/pre-auth-token').send({ email: 'not-an-email' }).expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'password']);
    });
  });

  describe('second factors', () => {
    it('email: the code reaches a real SMTP server and opens the token, a wrong one does not', async () => {
      const pre = await preAuth('mailer@riverside.example').expect(200);
      expect(pre.body.two_factor).toBe('email');
      const message = await mail.waitFor('mailer@riverside.example');
      const code = /sign-in code is (\d{6})/.exec(mailText(message.raw))![1]!;
      await exchange(pre.body.token).expect(401);
      await exchange(pre.body.token, code === '000000' ? '111111' : '000000').expect(401);
      const { body } = await exchange(pre.body.token, code).expect(200);
      await me(body.token).expect(200);
    });

    it('sms: the code is posted to SMS_WEBHOOK_URL and opens the token', async () => {
      const pre = await preAuth('texter@riverside.example').expect(200);
      expect(pre.body.two_factor).toBe('sms');
      const text = await sms.waitFor('+44 7700 900123');
      const code = /(\d{6})/.exec(text.body)![1]!;
      await me((await exchange(pre.body.token, code).expect(200)).body.token).expect(200);
    });

    it('auth_app: a TOTP code is accepted once, one step of drift either side', async () => {
      const first = await preAuth('app@riverside.example').expect(200);
      expect(first.body.two_factor).toBe('auth_app');
      const code = totp(-30);
      await exchange(first.body.token, code).expect(200);
      const second = await preAuth('app@riverside.example').expect(200);
      await exchange(second.body.token, code).expect(401);
      await exchange(second.body.token, totp(-90)).expect(401);
      await exchange(second.body.token, totp()).expect(200);
    });

    it('magic_link: the e-mailed link carries the key, under PUBLIC_URL', async () => {
      const pre = await preAuth('linker@riverside.example').expect(200);
      expect(pre.body.two_factor).toBe('magic_link');
      const text = mailText((await mail.waitFor('linker@riverside.example')).raw);
      const link = new URL(/(http\S+magic-link\S+)/.exec(text)![1]!);
      expect(link.origin).toBe('http://api.test');
      const key = link.searchParams.get('key')!;
      const page = await http().get(`${link.pathname}${link.search}`).set('accept', 'text/html').expect(200);
      expect(page.text).toContain(key);
      await me((await exchange(pre.body.token, key).expect(200)).body.token).expect(200);
    });

    it('five wrong keys burn the pre-authentication token', async () => {
      const pre = await preAuth('burner@riverside.example').expect(200);
      const code = /sign-in code is (\d{6})/.exec(mailText((await mail.waitFor('burner@riverside.example')).raw))![1]!;
      const wrong = code === '123456' ? '654321' : '123456';
      for (let i = 0; i < 5; i++) await exchange(pre.body.token, wrong).expect(401);
      await exchange(pre.body.token, code).expect(401);
    });
  });

  describe('tokens', () => {
    it('refuses expired, tampered, alg:none and foreign-key tokens on a protected route', async () => {
      const token = await logIn('plain@riverside.example');
      const claims = jwt.decode(token) as jwt.JwtPayload;
      const expired = jwt.sign(
        { ...claims, iat: claims.iat! - 7200, exp: claims.exp! - 7200 },
        env.config.auth.jwtSecret,
        { algorithm: 'HS256' },
      );
      const [h, , s] = token.split('.');
      const tampered = [
        h,
        Buffer.from(JSON.stringify({ ...claims, sub: String(riverside.users.victim) })).toString('base64url'),
        s,
      ].join('.');
      const none = jwt.sign(claims, '', { algorithm: 'none' });
      const foreign = jwt.sign(claims, 'another secret that is long enough to sign', { algorithm: 'HS256' });
      for (const bad of [expired, tampered, none, foreign, 'garbage']) {
        expect((await me(bad).expect(401)).body).toEqual({ message: 'Unauthenticated.', status_code: 401 });
      }
      await http().get('/api/users/me').expect(401);
      await me(token).expect(200);
    });

    it('refreshes once; a repeat within JWT_REFRESH_GRACE is a 409 that revokes nothing', async () => {
      const original = await logIn('victim@riverside.example');
      const refreshed = (await refresh(original).expect(200)).body.token;
      await me(refreshed).expect(200);
      await me(original).expect(401); // blacklisted by the refresh
      const repeat = await refresh(original).expect(409);
      expect(repeat.body).toEqual({ message: expect.stringMatching(/just been refreshed/), status_code: 409 });
      await me(refreshed).expect(200);
      await me((await refresh(refreshed).expect(200)).body.token).expect(200);
    });

    it('of 20 parallel refreshes of one JWT exactly one succeeds, the rest are 409s, and the winner’s token keeps working', async () => {
      const original = await logIn('victim@riverside.example');
      const results = await Promise.all(Array.from({ length: 20 }, () => refresh(original)));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s !== 200)).toEqual(Array(19).fill(409));
      expect(results.filter((r) => r.status === 409).every((r) => r.body.token === undefined)).toBe(true);
      const winner = results.find((r) => r.status === 200)!.body.token;
      await me(winner).expect(200);
      await me(original).expect(401);
      // The log-in goes on: the winner's token refreshes in its turn.
      await me((await refresh(winner).expect(200)).body.token).expect(200);
    });

    it('refreshes an expired token within JWT_REFRESH_TTL', async () => {
      const live = jwt.decode(await logIn('plain@riverside.example')) as jwt.JwtPayload;
      const expired = jwt.sign({ ...live, iat: live.iat! - 4000, exp: live.exp! - 4000 }, env.config.auth.jwtSecret, {
        algorithm: 'HS256',
      });
      const fresh = (await http().post('/auth/api/token/refresh').send({ token: expired }).expect(200)).body.token;
      await me(fresh).expect(200);
      const other = jwt.decode(await logIn('plain@riverside.example')) as jwt.JwtPayload;
      const tooOld = jwt.sign(
        { ...other, iat: other.iat! - 1_300_000, exp: other.exp! - 1_300_000 },
        env.config.auth.jwtSecret,
        { algorithm: 'HS256' },
      );
      await http().post('/auth/api/token/refresh').send({ token: tooOld }).expect(401);
    });

    it('logout blacklists the token everywhere', async () => {
      const token = await logIn('plain@riverside.example');
      await http().post('/auth/api/logout').set('authorization', `Bearer ${token}`).expect(204);
      await me(token).expect(401);
      await http().get(`/api/users/${riverside.users.plain}`).set('authorization', `Bearer ${token}`).expect(401);
      await http().post('/auth/api/token/refresh').send({ token }).expect(401);
    });
  });

  describe('tenancy and permissions', () => {
    it('a token of one organisation gets 404 for a user of another', async () => {
      const token = await logIn('plain@riverside.example');
      const res = await http()
        .get(`/api/users/${hillside.users.other}`)
        .set('authorization', `Bearer ${token}`)
        .expect(404);
      expect(res.body).toEqual({ message: 'User not found', status_code: 404 });
      await http().get(`/api/users/${riverside.users.victim}`).set('authorization', `Bearer ${token}`).expect(200);
      await http().get('/api/users/99999').set('authorization', `Bearer ${token}`).expect(404);
    });

    it('a route needing a permission is a 403 without it', async () => {
      const holder = await logIn('plain@riverside.example');
      const without = await logIn('victim@riverside.example');
      await http().get('/api/test-approvals').set('authorization', `Bearer ${holder}`).expect(200);
      const res = await http().get('/api/test-approvals').set('authorization', `Bearer ${without}`).expect(403);
      expect(res.body).toEqual({ message: expect.stringMatching(/approve-claims/), status_code: 403 });
    });
  });

  describe('changes made by another process are in force at once (sessions and users are not cached: docs/adr/0003)', () => {
    /**
     * Logs in and lets the log-in's own change notifications arrive (a few ms; 300 to spare), so
     * that a cache of sessions, were there one, would hold this one.
     */
    async function cachedLogIn(email: string) {
      const token = await logIn(email);
      await new Promise((r) => setTimeout(r, 300));
      return token;
    }

    it('a session revoked outside this process is refused at once', async () => {
      const token = await cachedLogIn('victim@riverside.example');
      await me(token).expect(200);
      const { sid } = jwt.decode(token) as { sid: string };
      // Straight to the read table, as another API process's projection would write it; not through this process.
      await app
        .get(DataSource)
        .query(`UPDATE sessions SET revoked_at = now(), revoked_reason = 'test' WHERE id = $1`, [sid]);
      await me(token).expect(401);
    });

    it('a token refreshed by another process: the new one works here at once, the old one is refused at once', async () => {
      const token = await cachedLogIn('victim@riverside.example');
      await me(token).expect(200);
      const claims = jwt.decode(token) as jwt.JwtPayload & { sid: string };
      const jti = randomUUID();
      // Another process's refresh: the session's current token changes in the table.
      await app.get(DataSource).query(`UPDATE sessions SET current_jti = $2 WHERE id = $1`, [claims.sid, jti]);
      const refreshed = jwt.sign({ ...claims, jti }, env.config.auth.jwtSecret, { algorithm: 'HS256' });
      await me(refreshed).expect(200);
      await me(token).expect(401);
    });

    it('a permission withdrawn outside this process applies at once', async () => {
      const holder = await cachedLogIn('plain@riverside.example');
      await http().get('/api/test-approvals').set('authorization', `Bearer ${holder}`).expect(200);
      const ds = app.get(DataSource);
      const [{ permissions }] = await ds.query(`SELECT permissions FROM users WHERE id = $1`, [riverside.users.plain]);
      await ds.query(`UPDATE users SET permissions = '[]' WHERE id = $1`, [riverside.users.plain]);
      try {
        await http().get('/api/test-approvals').set('authorization', `Bearer ${holder}`).expect(403);
      } finally {
        await ds.query(`UPDATE users SET permissions = $2::jsonb WHERE id = $1`, [
          riverside.users.plain,
          JSON.stringify(permissions),
        ]);
      }
    });
  });

  describe('brute force', () => {
    it('the sixth wrong password in a minute for one account gets 429', async () => {
      for (let i = 0; i < 5; i++) await preAuth('other@hillside.example', `wrong ${i}`).expect(401);
      const res = await preAuth('other@hillside.example', 'wrong again').expect(429);
      expect(res.body).toEqual({ message: expect.stringMatching(/Too many attempts/), status_code: 429 });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      await preAuth('other@hillside.example').expect(429); // even the right password, until the window ends
    });
  });

  describe('provisioning', () => {
    it('a file with one bad entry writes nothing', async () => {
      const ds = app.get(DataSource);
      const before = await ds.query(
        `SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM users) AS users`,
      );
      const file = organisationFile('valleyside', [
        { key: 'good', email: 'good@valleyside.example' },
        { key: 'bad', email: 'bad@valleyside.example', permissions: ['fly'] },
      ]);
      await expect(provision(app, file)).rejects.toThrow(/users\[1\] "bad"\.permissions\[0\]/);
      await expect(provision(app, organisationFile('riverside', []))).rejects.toThrow(/"riverside" exists already/);
      const after = await ds.query(
        `SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM users) AS users`,
      );
      expect(after).toEqual(before);
    });
  });
});
