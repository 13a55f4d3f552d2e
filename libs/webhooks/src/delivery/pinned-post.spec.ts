import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { addressesToCall, type Resolve } from '../endpoint/url-check.js';
import { pinnedLookup, pinnedPost } from './pinned-post.js';

/**
 * docs/webhooks.md#pinning: the connection goes to the address that was checked. Everything here
 * listens on, and connects to, 127.0.0.1 (or 127.0.0.2, where nothing listens); the host name
 * `hooks.test` (RFC 6761) is never asked of DNS: a stub answers for it.
 */
describe('a delivery attempt’s connection, pinned to the checked address', () => {
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    received.push(req.headers);
    req.resume().on('end', () => res.writeHead(204).end());
  });
  let port: number;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (url: string, addresses: string[]) =>
    pinnedPost({ url, addresses, headers: { 'webhook-id': 'msg_1' }, body: '{}', signal: AbortSignal.timeout(5_000) });

  it('the lookup answers only the given addresses, one or all', () => {
    const lookup = pinnedLookup(['127.0.0.1', '::1']);
    const one: unknown[] = [];
    lookup('hooks.test', {}, (...args) => one.push(args));
    expect(one).toEqual([[null, '127.0.0.1', 4]]);
    const all: unknown[] = [];
    lookup('hooks.test', { all: true }, (...args) => all.push(args));
    expect(all).toEqual([
      [
        null,
        [
          { address: '127.0.0.1', family: 4 },
          { address: '::1', family: 6 },
        ],
      ],
    ]);
  });

  it('with a resolver that answers 127.0.0.1 and then 127.0.0.2, the request reaches 127.0.0.1, under its host name', async () => {
    let calls = 0;
    const rebinding: Resolve = async () => (calls++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']);
    const url = `http://hooks.test:${port}/x`;
    const before = received.length;
    const addresses = await addressesToCall(url, true, rebinding);
    expect(await post(url, addresses)).toBe(204);
    expect(calls).toBe(1);
    expect(received.slice(before).map((h) => h.host)).toEqual([`hooks.test:${port}`]);
  });

  it('goes nowhere else: pinned to 127.0.0.2, where nothing listens, it is refused', async () => {
    const before = received.length;
    await expect(post(`http://hooks.test:${port}/x`, ['127.0.0.2'])).rejects.toThrow(/ECONNREFUSED/);
    expect(received.length).toBe(before);
  });

  it('over https, the TLS server name is the url’s host, not the address', async () => {
    const names: string[] = [];
    const tls = createTlsServer({
      SNICallback: (name, cb) => {
        names.push(name);
        cb(new Error('no certificate here'));
      },
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const tlsPort = (tls.address() as AddressInfo).port;
    try {
      await expect(post(`https://hooks.test:${tlsPort}/x`, ['127.0.0.1'])).rejects.toThrow();
      expect(names).toEqual(['hooks.test']);
    } finally {
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});
