import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import request from 'supertest';
import { IdentityAdminModule, RevokePermissionsCommand } from '#app/identity';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, organisationFile, provision, userFile } from '../support/test-app.js';
import { bootApi } from '../support/test-http.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const servers = !!process.env.TEST_PG_ADMIN_URL;

/**
 * Two processes on one database (issue 31): A is where a refresh, log-out, revocation or permission
 * change is made, B an API process whose change notifications are held back (its LISTEN connection
 * stalls in a proxy, so its feed still looks live). Each change must be in force on B as soon as A
 * has answered, whatever B has heard (docs/adr/0003). Servers mode only: the embedded mode is one
 * process owning its PGlite, so there is no second process to disagree.
 */
(servers ? describe : describe.skip)('sessions and permissions across processes (servers mode)', () => {
  let env: TestEnvironment;
  let proxy: TcpProxy;
  let a: NestFastifyApplication;
  let b: NestFastifyApplication;
  const on = (app: NestFastifyApplication) => request(app.getHttpServer());
  const me = (app: NestFastifyApplication, token: string) =>
    on(app).get('/api/users/me').set('authorization', `Bearer ${token}`);
  const refresh = (app: NestFastifyApplication, token: string) =>
    on(app).post('/auth/api/token/refresh').send({ token });

  beforeAll(async () => {
    env = await testEnvironment({ JWT_REFRESH_GRACE: '0' });
    const url = new URL(env.config.database.url!);
    proxy = await new TcpProxy({ host: url.hostname, port: Number(url.port) }).start();
    a = await bootStandalone(env.config, [IdentityAdminModule]);
    b = await bootApi({ ...env.config, database: { ...env.config.database, url: proxy.urlFor(url.toString()) } });
    await provision(
      a,
      organisationFile('riverside', [
        userFile('volunteer', [], ['north-shop']),
        userFile('boss', ['manage-organisation'], ['north-shop']),
      ]),
    );
  }, 120_000);
  afterAll(async () => {
    proxy?.release();
    await b?.close();
    await a?.close();
    await proxy?.stop();
    await env?.cleanup();
  });

  /** Runs `steps` with B's change notifications held back (its one LISTEN connection stalled). */
  async function withFeedHeld(steps: () => Promise<void>): Promise<void> {
    expect(proxy.hold((startup) => startup.includes('uvol change feed'))).toBe(1);
    try {
      await steps();
    } finally {
      proxy.release();
    }
  }

  it('a token refreshed on A is refused on B at once; the new one works on both', async () => {
    const token = await logIn(a, 'volunteer@riverside.example');
    await withFeedHeld(async () => {
      await me(b, token).expect(200);
      const fresh = (await refresh(a, token).expect(200)).body.token as string;
      await me(b, token).expect(401);
      await me(a, token).expect(401);
      await me(b, fresh).expect(200);
      await me(a, fresh).expect(200);
    });
  });

  it('a log-out on A is refused on B at once', async () => {
    const token = await logIn(a, 'volunteer@riverside.example');
    await withFeedHeld(async () => {
      await me(b, token).expect(200);
      await on(a).post('/auth/api/logout').set('authorization', `Bearer ${token}`).expect(204);
      await me(b, token).expect(401);
      await me(a, token).expect(401);
    });
  });

  it('a session revoked on A (a refreshed token presented again) is refused on B at once', async () => {
    const token = await logIn(a, 'volunteer@riverside.example');
    await withFeedHeld(async () => {
      const fresh = (await refresh(a, token).expect(200)).body.token as string;
      await me(b, fresh).expect(200);
      await refresh(a, token).expect(401);
      await me(b, fresh).expect(401);
      await me(a, fresh).expect(401);
    });
  });

  it('a permission withdrawn on A is refused on B at once (403)', async () => {
    const token = await logIn(a, 'boss@riverside.example');
    const history = (app: NestFastifyApplication) =>
      on(app).get('/api/organisation/history').set('authorization', `Bearer ${token}`);
    await withFeedHeld(async () => {
      await history(b).expect(200);
      await history(a).expect(200);
      const access = await a
        .get(CommandBus)
        .execute(new RevokePermissionsCommand('boss@riverside.example', ['manage-organisation']));
      expect(access.permissions).toEqual([]);
      await history(b).expect(403);
      await history(a).expect(403);
      await me(b, token).expect(200);
    });
  });
});
