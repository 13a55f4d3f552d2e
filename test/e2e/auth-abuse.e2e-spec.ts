import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, organisationFile, provision, TEST_PASSWORD } from '../support/test-app.js';

/**
 * Abuse of the authentication routes: reused refreshes after JWT_REFRESH_GRACE, lock-outs from
 * other addresses, floods of refused bodies. The app does not trust X-Forwarded-For, so the client
 * address is the socket's: each request leaves from the loopback address the test needs
 * (127.0.0.0/8 is all loopback on Linux).
 */
const LIMIT = 1; // AUTH_RATE_LIMIT: per account and address per minute; 20 × that per account per 15 minutes
const PER_ADDRESS = 6; // AUTH_RATE_LIMIT_PER_ADDRESS

describe('authentication under abuse (429: docs/http-conventions.md#authentication; docs/operations.md#configuration)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let port: number;
  let nextAddress = 2;
  const newAddress = () => `127.0.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 2}`;

  beforeAll(async () => {
    env = await testEnvironment({
      JWT_REFRESH_GRACE: '1',
      AUTH_RATE_LIMIT: String(LIMIT),
      AUTH_RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
    });
    app = await bootStandalone(env.config);
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
    await provision(
      app,
      organisationFile('riverside', [
        { key: 'owner', email: 'owner@riverside.example' },
        { key: 'target', email: 'target@riverside.example' },
        { key: 'refresher', email: 'refresher@riverside.example' },
      ]),
    );
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  interface Answer {
    statusCode: number;
    headers: Record<string, string | string[] | undefined>;
    json(): Record<string, unknown> & { token: string };
  }
  /** One request from `from`; a string payload is sent as it is (malformed JSON). */
  const send = (method: string, path: string, from: string, payload?: unknown, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const body = payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload);
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          localAddress: from,
          headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
        },
        (res) => {
          let text = '';
          res
            .setEncoding('utf8')
            .on('data', (chunk: string) => (text += chunk))
            .on('end', () =>
              resolve({ statusCode: res.statusCode!, headers: res.headers, json: () => JSON.parse(text) }),
            );
        },
      );
      req.on('error', reject).end(body);
    });
  const post = (url: string, from: string, payload: unknown) => send('POST', url, from, payload);
  const preAuth = (from: string, email: string, password = TEST_PASSWORD) =>
    post('/auth/api/pre-auth-token', from, { email, password });
  async function logIn(email: string, from = newAddress()): Promise<string> {
    const pre = await preAuth(from, email);
    expect(pre.statusCode).toBe(200);
    const jwt = await post('/auth/api/token', from, { token: pre.json().token });
    expect(jwt.statusCode).toBe(200);
    return jwt.json().token;
  }
  const me = async (token: string) =>
    (await send('GET', '/api/users/me', '127.0.0.1', undefined, { authorization: `Bearer ${token}` })).statusCode;

  it('a repeat within JWT_REFRESH_GRACE is a 409; a reuse after it revokes every token of the log-in', async () => {
    const from = newAddress();
    const original = await logIn('refresher@riverside.example', from);
    const refreshed = await post('/auth/api/token/refresh', from, { token: original });
    expect(refreshed.statusCode).toBe(200);
    const winner = refreshed.json().token;
    expect((await post('/auth/api/token/refresh', from, { token: original })).statusCode).toBe(409);
    expect(await me(winner)).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    const reuse = await post('/auth/api/token/refresh', from, { token: original });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({ message: expect.stringMatching(/revoked/), status_code: 401 });
    expect(await me(winner)).toBe(401);
    expect((await post('/auth/api/token/refresh', from, { token: winner })).statusCode).toBe(401);
  });

  it('wrong passwords from one address do not lock the owner out from another', async () => {
    const attacker = newAddress();
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await preAuth(attacker, 'owner@riverside.example', `guess ${i}`)).statusCode);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(6 - LIMIT).fill(429)]);
    const refused = await preAuth(attacker, 'owner@riverside.example');
    expect(refused.statusCode).toBe(429); // even the right password, from the attacker's address
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await me(await logIn('owner@riverside.example'))).toBe(200);
  });

  it('attempts for one account spread over many addresses meet the slower limit for the account from anywhere', async () => {
    const anywhere = LIMIT * 20;
    for (let i = 0; i < anywhere / LIMIT; i++) {
      const from = newAddress();
      for (let j = 0; j < LIMIT; j++)
        expect((await preAuth(from, 'target@riverside.example', 'a guess')).statusCode).toBe(401);
    }
    const res = await preAuth(newAddress(), 'target@riverside.example');
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(60);
    expect((await preAuth(newAddress(), 'owner@riverside.example')).statusCode).toBe(200); // other accounts are untouched
  });

  it.each([
    ['/auth/api/pre-auth-token', { email: 'not an address' }],
    ['/auth/api/token', { token: 42 }],
    ['/auth/api/token/refresh', {}],
  ])(
    'bodies refused by validation or parsing count against AUTH_RATE_LIMIT_PER_ADDRESS on %s',
    async (url, invalid) => {
      const from = newAddress();
      const statuses = [];
      for (let i = 0; i < PER_ADDRESS; i++)
        statuses.push((await post(url, from, i % 2 ? '{"email": ' : invalid)).statusCode);
      expect(statuses).toEqual(Array.from({ length: PER_ADDRESS }, (_, i) => (i % 2 ? 400 : 422)));
      const limited = await post(url, from, invalid);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ message: expect.stringMatching(/Too many attempts/), status_code: 429 });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await post(url, newAddress(), invalid)).statusCode).toBe(422); // another address is not limited
    },
  );

  it('bodies of the wrong content type count against AUTH_RATE_LIMIT_PER_ADDRESS too', async () => {
    const from = newAddress();
    const plain = () =>
      send('POST', '/auth/api/pre-auth-token', from, 'email=a@b.example', { 'content-type': 'text/plain' });
    const statuses = [];
    for (let i = 0; i < PER_ADDRESS; i++) statuses.push((await plain()).statusCode);
    expect(statuses).toEqual(Array.from({ length: PER_ADDRESS }, () => 400));
    expect((await plain()).statusCode).toBe(429);
  });
});
