import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { OPERATOR_SECRETS, testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, organisationFile, provision, subscribeWebhooks } from '../support/test-app.js';
import { eventCount, expectRefused } from '../support/nothing-written.js';
import { filesUnder } from '../support/s3-server.js';

/**
 * Issue 10, items 1 and 8: bodies and requests built to stall or crash the server. Against the
 * service as an operator runs it, every optional feature on (issue 31: the dashboard once took the
 * error handling away from every route).
 */
describe('hostile input (docs/http-conventions.md#errors; a 5xx or an event-loop stall is a bug)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let base: string;
  let adminToken: string;
  const http = () => request(app.getHttpServer());
  const events = () => eventCount(app.get(DataSource));

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' }, { operatorFeatures: true });
    app = await bootStandalone(env.config);
    await provision(
      app,
      organisationFile('hostile', [
        {
          key: 'admin',
          email: 'admin@hostile.example',
          permissions: ['manage-organisation', 'edit-expense-settings', 'manage-integrations'],
        },
      ]),
    );
    adminToken = await logIn(app, 'admin@hostile.example');
    await subscribeWebhooks(app, adminToken, env.webhookReceiver);
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  /** The error shape (docs/http-conventions.md#errors) and the headers every answer carries. */
  function expectErrorAnswer(
    res: { status: number; body: unknown; headers: Record<string, unknown> },
    status: number,
  ): void {
    expect(res.status).toBe(status);
    expect(res.body).toEqual(expect.objectContaining({ message: expect.any(String), status_code: status }));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toEqual(expect.stringContaining("default-src 'self'"));
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  }

  describe('with the dashboard on, refused bodies still reach the error filter (issue 31)', () => {
    it('the optional features are on: the dashboard asks for its password, /metrics answers its token', async () => {
      expect((await http().get('/admin/queues')).status).toBe(401);
      const dashboard = Buffer.from(`admin:${OPERATOR_SECRETS.adminPassword}`).toString('base64');
      expect((await http().get('/admin/queues').set('authorization', `Basic ${dashboard}`)).status).toBe(200);
      const metrics = await http().get('/metrics').set('authorization', `Bearer ${OPERATOR_SECRETS.metricsToken}`);
      expect(metrics.status).toBe(200);
    });

    const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    it.each([
      ['malformed JSON', 400, '{"email":'],
      ['an empty body', 400, ''],
      ['a body over the route’s limit', 413, `{"email":"${'x'.repeat(1_100_000)}"}`],
      ['null', 400, 'null'],
      ['an array', 400, '[]'],
      ['a number', 400, '42'],
      ['a 20-deep object', 400, deepObject(20)],
      // fetch, not supertest: supertest sends a Buffer as JSON text.
      ['bytes that are not UTF-8', 400, Buffer.from('{"a":"\xff\xfe"}', 'latin1')],
    ])('%s is a %i with the error body', async (_what, status, body) => {
      const res = await fetch(`${base}/auth/api/pre-auth-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const answer = { status: res.status, body: await res.json(), headers: Object.fromEntries(res.headers) };
      expectErrorAnswer(answer, status);
      expect(Object.keys(answer.body as object).sort()).toEqual(['message', 'status_code']);
    });
  });

  describe('other inputs that once reached a 500 are refused, storing nothing (issue 31)', () => {
    it('JSON in a charset other than UTF-8 is a 400', async () => {
      for (const charset of ['utf-16', 'latin1']) {
        const res = await http()
          .post('/auth/api/pre-auth-token')
          .set('content-type', `application/json; charset=${charset}`)
          .send('{"email":"admin@hostile.example","password":"x"}');
        expectErrorAnswer(res, 400);
        expect(res.body.message).toMatch(/charset/);
      }
    });

    it('a multipart upload that never closes its boundary is a 400, twenty times out of twenty', async () => {
      const part =
        '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n' +
        'Content-Type: application/pdf\r\n\r\n%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\r\n';
      for (let i = 0; i < 20; i++) {
        await expectRefused(
          app.get(DataSource),
          () =>
            http()
              .post('/api/files')
              .set('authorization', `Bearer ${adminToken}`)
              .set('content-type', 'multipart/form-data; boundary=XyZ')
              .send(Buffer.from(part)),
          400,
          ['files'],
        );
      }
      expect({ disk: filesUnder(env.config.files.dir), bucket: await env.s3!.objects() }).toEqual({
        disk: [],
        bucket: {},
      });
    });
  });

  describe('JSON bodies are refused by shape before anything costly runs', () => {
    const deepArrays = (bytes: number) => '['.repeat(bytes / 2) + ']'.repeat(bytes / 2);

    it('nesting beyond 16 levels is a 400, on a public route', async () => {
      const res = await http()
        .post('/auth/api/pre-auth-token')
        .set('content-type', 'application/json')
        .send(deepArrays(60_000));
      expectErrorAnswer(res, 400);
      expect(res.body.message).toMatch(/nested deeper than 16/);
    });

    it('an object with more than 256 keys is a 400, not a 422 listing every key', async () => {
      const wide = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, 1]));
      const res = await http().post('/auth/api/pre-auth-token').send(wide);
      expectErrorAnswer(res, 400);
      expect(res.body.message).toMatch(/more than 256 keys/);
      expect(JSON.stringify(res.body).length).toBeLessThan(500);
    });

    it('a body over the route’s limit is a 413 (1 MB on the log-in route)', async () => {
      const res = await http()
        .post('/auth/api/pre-auth-token')
        .set('content-type', 'application/json')
        .send(deepArrays(1_000_000));
      expectErrorAnswer(res, 413);
    });

    it('the organisation update takes bodies up to 1 MiB, and refuses a deep one there too', async () => {
      const before = await events();
      const res = await http()
        .put('/api/organisation')
        .set('authorization', `Bearer ${adminToken}`)
        .set('content-type', 'application/json')
        .send(`{"name":${deepArrays(900_000)}}`);
      expectErrorAnswer(res, 400);
      const long = await http()
        .put('/api/organisation')
        .set('authorization', `Bearer ${adminToken}`)
        .send({ name: 'x'.repeat(70_000) });
      // Past the 64 KiB default, so it reached validation: the name's length rule answers.
      expectErrorAnswer(long, 422);
      expect(await events()).toBe(before);
    });

    it.each([
      ['an array', '[{"email":"a@b.example","password":"x"}]'],
      ['null', 'null'],
      ['a number', '42'],
      ['a string', '"text"'],
    ])('a JSON body that is %s is a 400', async (_what, body) => {
      const res = await http().post('/auth/api/pre-auth-token').set('content-type', 'application/json').send(body);
      expectErrorAnswer(res, 400);
    });

    it('a body of 250 unknown keys gets a 422 naming at most 50 fields', async () => {
      const before = await events();
      const body = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`unknown_${i}`, 1]));
      const res = await http().post('/api/expenses/types').set('authorization', `Bearer ${adminToken}`).send(body);
      expectErrorAnswer(res, 422);
      expect(Object.keys(res.body.errors)).toHaveLength(50);
      expect(res.body.message).toMatch(/more fields not listed/);
      expect(await events()).toBe(before);
    });

    it('GET /health answers within 500 ms while 20 hostile bodies are in flight', async () => {
      // Raw sockets, the request bytes built once: the client shares this process's event loop,
      // so it must cost little beside what it makes the server do.
      const { port } = app.getHttpServer().address() as AddressInfo;
      const body = Buffer.from(deepArrays(1_000_000));
      const head = (method: string, path: string) =>
        Buffer.from(
          `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
        );
      const requests = [head('PUT', '/api/organisation'), head('POST', '/auth/api/pre-auth-token')];
      // fetch loads its implementation on first use, in this process: once before, so the figure
      // below is the server's answer and not the client's start-up.
      expect((await fetch(`${base}/health`)).status).toBe(200);
      // One round: 20 hostile bodies sent at once, then a health check timed beside the same
      // call with nothing hostile in flight. Under a loaded CI machine (suites run in parallel) a
      // health check alone can take hundreds of ms, which is not a stall of ours, so a round counts
      // against its own baseline, and the best of three rounds is kept: a server that stalls on
      // these bodies stalls in every round, a neighbour's burst does not last three.
      const round = async (): Promise<{ took: number; limit: number }> => {
        const quiet = performance.now();
        expect((await fetch(`${base}/health`)).status).toBe(200);
        const baseline = performance.now() - quiet;
        const attacks = Array.from(
          { length: 20 },
          (_, i) =>
            new Promise<number>((resolve, reject) => {
              const socket = connect(port, '127.0.0.1', () => socket.end(Buffer.concat([requests[i % 2]!, body])));
              let answer = '';
              socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
              // The server may answer (413) and close before the whole body is sent.
              socket.on('error', (err: NodeJS.ErrnoException) =>
                err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err),
              );
              socket.on('close', () => resolve(Number(answer.split(' ')[1])));
            }),
        );
        await new Promise((resolve) => setTimeout(resolve, 10));
        const started = performance.now();
        const health = await fetch(`${base}/health`);
        const took = performance.now() - started;
        expect(health.status).toBe(200);
        for (const status of await Promise.all(attacks)) expect([400, 413]).toContain(status);
        return { took, limit: 500 + 3 * baseline };
      };
      const rounds = [];
      for (let i = 0; i < 3; i++) {
        rounds.push(await round());
        if (rounds.at(-1)!.took < rounds.at(-1)!.limit) break;
      }
      expect(rounds.some((r) => r.took < r.limit) ? [] : rounds).toEqual([]);
    });
  });

  describe('framework-level refusals have the error body and the security headers', () => {
    it('a path parameter over the router’s length limit is a 414', async () => {
      const res = await http()
        .get(`/api/users/${'9'.repeat(2049)}/expenses`)
        .set('authorization', `Bearer ${adminToken}`);
      expectErrorAnswer(res, 414);
    });

    /** Sends raw bytes and parses the one answer the server writes before closing. */
    function raw(payload: string): Promise<{ status: number; headers: Record<string, string>; body: unknown }> {
      const { port } = app.getHttpServer().address() as AddressInfo;
      return new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(payload));
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString('latin1')));
        socket.on('error', reject);
        socket.on('close', () => {
          const [head = '', body = ''] = data.split('\r\n\r\n');
          const [statusLine = '', ...lines] = head.split('\r\n');
          const headers = Object.fromEntries(
            lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
          );
          resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) });
        });
      });
    }

    it('headers over the size limit are a 431', async () => {
      const res = await raw(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expectErrorAnswer(res, 431);
    });

    it('broken framing is a 400', async () => {
      const res = await raw(
        'GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nzzz\r\n\r\n',
      );
      expectErrorAnswer(res, 400);
    });
  });
});
