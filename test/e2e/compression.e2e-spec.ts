import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { bootStandalone, logIn, organisationFile, provision } from '../support/test-app.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootApi } from '../support/test-http.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * docs/http-conventions.md#compression over a real socket in both modes: the bytes as sent (node:http
 * does not decode them, unlike fetch and supertest), decoded with node:zlib and compared with the
 * plain body.
 */
describe('compression (issue 25 item 2)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let base = '';

  const get = (path: string, headers: Record<string, string> = {}): Promise<Raw> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(`${base}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });

  beforeAll(async () => {
    env = await testEnvironment();
    app = env.embedded ? await bootStandalone(env.config) : await bootApi(env.config);
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('sends a large answer plain without Accept-Encoding, with identity only, and to an unknown coding', async () => {
    const variants: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'compress' },
    ];
    for (const headers of variants) {
      const res = await get('/api/docs-json', headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.length).toBeGreaterThan(1024);
      expect(JSON.parse(res.body.toString('utf8')).openapi).toBe('3.0.0');
    }
  });

  it('compresses the OpenAPI document with br or gzip by the client’s preference, br on a tie', async () => {
    const plain = (await get('/api/docs-json')).body;
    const cases: [string, 'br' | 'gzip'][] = [
      ['gzip, deflate, br', 'br'],
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['br;q=0.5, gzip;q=0.9', 'gzip'],
      ['gzip;q=0.2, br;q=0.8', 'br'],
      ['gzip;q=1, br;q=1', 'br'],
      ['br;q=0, gzip', 'gzip'],
    ];
    for (const [acceptEncoding, expected] of cases) {
      const res = await get('/api/docs-json', { 'accept-encoding': acceptEncoding });
      expect([acceptEncoding, res.status, res.headers['content-encoding']]).toEqual([acceptEncoding, 200, expected]);
      expect(String(res.headers.vary).split(/,\s*/)).toContain('Accept-Encoding');
      expect(res.body.length).toBeLessThan(plain.length / 3);
      const decoded = expected === 'br' ? brotliDecompressSync(res.body) : gunzipSync(res.body);
      expect(decoded.equals(plain)).toBe(true);
    }
  });

  it('sends an answer of 1 KiB or less plain, whatever Accept-Encoding says', async () => {
    const res = await get('/', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThanOrEqual(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8')).docs).toBe('/api/docs');
  });

  it('says Vary: Accept-Encoding, once, on every answer, compressed or not (RFC 9110 12.5.5)', async () => {
    const answers: [string, Raw][] = [
      ['large, compressed', await get('/api/docs-json', { 'accept-encoding': 'gzip' })],
      ['large, no Accept-Encoding', await get('/api/docs-json')],
      ['large, identity only', await get('/api/docs-json', { 'accept-encoding': 'identity' })],
      ['small', await get('/', { 'accept-encoding': 'br, gzip' })],
      ['small, no Accept-Encoding', await get('/')],
      ['an error', await get('/api/users/me', { 'accept-encoding': 'gzip' })],
      ['the docs page', await get('/api/docs/', { 'accept-encoding': 'gzip' })],
    ];
    for (const [what, res] of answers) {
      const names = String(res.headers.vary).split(/,\s*/);
      expect([what, names.filter((n) => n.toLowerCase() === 'accept-encoding')]).toEqual([what, ['Accept-Encoding']]);
    }
    expect(answers[0]![1].headers['content-encoding']).toBe('gzip');
    expect(answers[1]![1].headers['content-encoding']).toBeUndefined();
  });

  it('compresses the calendar feed by the same rule and keeps its ETag and 304', async () => {
    await provision(app, organisationFile('zip', [{ key: 'ann', email: 'ann@zip.example', permissions: [] }]));
    const jwt = await logIn(app, 'ann@zip.example');
    const issued = await new Promise<Raw>((resolve, reject) => {
      const req = httpRequest(
        `${base}/api/users/me/calendar-feed`,
        { method: 'POST', headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(issued.status).toBe(201);
    const path = new URL(JSON.parse(issued.body.toString('utf8')).data.url).pathname;
    const first = await get(path, { 'accept-encoding': 'gzip' });
    expect(first.status).toBe(200);
    const plain = await get(path);
    const body = first.headers['content-encoding'] === 'gzip' ? gunzipSync(first.body) : first.body;
    expect(body.toString('utf8')).toBe(plain.body.toString('utf8'));
    expect(body.toString('utf8')).toMatch(/^BEGIN:VCALENDAR/);
    // Compressed only above 1 KiB, by the same rule.
    expect(first.headers['content-encoding']).toBe(plain.body.length > 1024 ? 'gzip' : undefined);
    // One weak ETag for the plain and the compressed answer: only a weak validator may name both
    // (RFC 9110 8.8.1, 8.8.3.3), and the 304 carries it whatever the request's Accept-Encoding.
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(etag).toBe(String(plain.headers.etag));
    for (const res of [first, plain]) expect(String(res.headers.vary)).toBe('Accept-Encoding');
    for (const acceptEncoding of ['gzip', 'br', '']) {
      const again = await get(path, {
        'if-none-match': etag,
        ...(acceptEncoding && { 'accept-encoding': acceptEncoding }),
      });
      expect([acceptEncoding, again.status, again.body.length]).toEqual([acceptEncoding, 304, 0]);
      expect([acceptEncoding, again.headers.etag, again.headers.vary]).toEqual([
        acceptEncoding,
        etag,
        'Accept-Encoding',
      ]);
    }
  });
});
