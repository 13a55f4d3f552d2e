import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import sharp from 'sharp';
import request from 'supertest';
import { eventually } from '../support/eventually.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, organisationFile, provision } from '../support/test-app.js';
import { bootApi } from '../support/test-http.js';

const APP = 'https://app.example';
const png = () =>
  sharp({ create: { width: 40, height: 20, channels: 3, background: '#c81e5a' } })
    .png()
    .toBuffer();
const path = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** Issue 12, item 5: what a browser front end on another origin needs, and the request log. */
describe('browsers: CORS, caching, cross-origin files and the request log', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let plain: NestFastifyApplication;
  let token: string;
  // nestjs-pino keeps one logger per process, the first app's: both apps log here.
  const lines: string[] = [];
  const records = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const requestLines = () => records().filter((r) => r.msg === 'request completed');
  // A listening server, so that supertest does not close it after each request (which can cut a
  // streamed answer's socket before its last write is flushed, and log it as aborted).
  let base: string;
  const http = () => request(base);

  beforeAll(async () => {
    env = await testEnvironment({
      CORS_ORIGINS: `${APP}, http://localhost:5173`,
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT_PER_ADDRESS: '10000',
    });
    app = await bootStandalone({
      ...env.config,
      log: { ...env.config.log, destination: { write: (line: string) => lines.push(line) } },
    });
    await provision(
      app,
      organisationFile('browsers', [{ key: 'ann', email: 'ann@browsers.example', permissions: ['create-expenses'] }]),
    );
    token = await logIn(app, 'ann@browsers.example');
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    plain = await bootApi({ ...env.config, cors: { origins: [] } });
  });
  afterAll(async () => {
    await plain?.close();
    await app?.close();
    await env?.cleanup();
  });

  describe('with CORS_ORIGINS', () => {
    it('answers a preflight from an allowed origin, the Accept rule notwithstanding', async () => {
      const res = await http()
        .options('/api/users/me')
        .set({
          origin: APP,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization, x-request-id',
          accept: 'text/html',
        })
        .expect(204);
      expect(res.headers['access-control-allow-origin']).toBe(APP);
      expect(res.headers.vary).toMatch(/Origin/i);
      expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PUT, DELETE');
      expect(res.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, Accept, X-Request-Id');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
      // The second origin of the list, and a POST with a JSON body.
      const other = await http()
        .options('/auth/api/pre-auth-token')
        .set({
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        })
        .expect(204);
      expect(other.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    });

    it('gives another origin, and a request without one, no CORS header at all', async () => {
      // Its preflight is answered (204), only without CORS headers: the browser refuses the call itself.
      const preflight = await http()
        .options('/api/users/me')
        .set({ origin: 'https://evil.example', 'access-control-request-method': 'GET' });
      expect([preflight.status, preflight.text, preflight.headers['x-request-id']]).toEqual([
        204,
        '',
        expect.any(String),
      ]);
      // An OPTIONS that is no preflight (no Origin) finds no route, as before.
      await http().options('/api/users/me').expect(404);
      const real = await http()
        .get('/api/users/me')
        .set({ origin: 'https://app.example.evil.example', authorization: `Bearer ${token}` })
        .expect(200);
      const noOrigin = await http()
        .get('/api/users/me')
        .set({ authorization: `Bearer ${token}` })
        .expect(200);
      for (const res of [preflight, real, noOrigin]) {
        expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      }
    });

    it('lets the allowed origin read the answer and its exposed headers, errors included', async () => {
      const ok = await http()
        .get('/api/users/me')
        .set({ origin: APP, authorization: `Bearer ${token}` })
        .expect(200);
      expect(ok.headers['access-control-allow-origin']).toBe(APP);
      expect(ok.headers['access-control-expose-headers']).toBe('Location, Retry-After, X-Request-Id');
      const refused = await http()
        .get('/api/users/me')
        .set({ origin: APP, authorization: `Bearer ${token}`, accept: 'text/html' })
        .expect(406);
      expect(refused.headers['access-control-allow-origin']).toBe(APP);
      const unauthenticated = await http().get('/api/users/me').set({ origin: APP }).expect(401);
      expect(unauthenticated.headers['access-control-allow-origin']).toBe(APP);
    });

    it('keeps authenticated answers out of every cache', async () => {
      const res = await http()
        .get('/api/users/me')
        .set({ authorization: `Bearer ${token}` })
        .expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    });

    it('serves a signed file URL embeddable from another origin, cached privately', async () => {
      const upload = await http()
        .post('/api/files')
        .set({ authorization: `Bearer ${token}` })
        .attach('file', await png(), 'pic.png')
        .expect(201);
      expect(upload.headers['cache-control']).toBe('no-store');
      const content = await http().get(path(upload.body.data.signed_url)).set({ origin: APP }).expect(200);
      expect(content.headers['content-type']).toBe('image/png');
      expect(content.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(content.headers['cache-control']).toBe('private, max-age=3600');
      const meta = await http()
        .get(`/api/files/${upload.body.data.id}`)
        .set({ authorization: `Bearer ${token}` })
        .expect(200);
      expect(meta.headers['cross-origin-resource-policy']).toBe('same-origin');
    });

    it('logs one line per request, without query strings, tokens or bodies, and none for /health', async () => {
      const upload = await http()
        .post('/api/files')
        .set({ authorization: `Bearer ${token}` })
        .attach('file', await png(), 'log.png')
        .expect(201);
      lines.length = 0;
      const signed = path(upload.body.data.signed_url);
      await http().get(signed).set('x-request-id', 'browser-log-1').expect(200);
      await http()
        .get('/api/users/me')
        .set({ authorization: `Bearer ${token}`, 'x-request-id': 'browser-log-2' })
        .expect(200);
      await http().get('/health');
      await http().get('/api/nowhere?signature=abc').set('x-request-id', 'browser-log-3').expect(404);
      // A line is written once its answer has gone out, which a streamed file may finish after the
      // client has read it.
      await eventually(() => requestLines().length >= 3);
      const logged = requestLines().sort((a, b) => String(a.reqId).localeCompare(String(b.reqId)));
      expect(logged).toEqual([
        expect.objectContaining({
          level: 30,
          reqId: 'browser-log-1',
          method: 'GET',
          route: '/api/files/:id/content',
          status: 200,
          duration_ms: expect.any(Number),
        }),
        expect.objectContaining({
          level: 30,
          reqId: 'browser-log-2',
          method: 'GET',
          route: '/api/users/me',
          status: 200,
        }),
        expect.objectContaining({
          level: 30,
          reqId: 'browser-log-3',
          method: 'GET',
          route: '/api/nowhere',
          status: 404,
        }),
      ]);
      const text = lines.join('');
      expect(text).not.toContain('signature');
      expect(text).not.toContain(token);
      expect(text).not.toMatch(/authorization|\/health/i);
      for (const line of logged)
        expect(Object.keys(line).sort()).toEqual([
          'duration_ms',
          'hostname',
          'level',
          'method',
          'msg',
          'pid',
          'reqId',
          'route',
          'status',
          'time',
        ]);
    });
  });

  describe('without CORS_ORIGINS', () => {
    it('sends no CORS header, a preflight included (a 204 without one)', async () => {
      const preflight = await request(plain.getHttpServer())
        .options('/api/users/me')
        .set({ origin: APP, 'access-control-request-method': 'GET' });
      expect(preflight.status).toBe(204);
      const res = await request(plain.getHttpServer())
        .get('/api/users/me')
        .set({ origin: APP, authorization: `Bearer ${token}` })
        .expect(200);
      for (const r of [preflight, res])
        expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expect(res.headers['cache-control']).toBe('no-store');
    });
  });
});
