import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

/**
 * A `lookup` for the connection that answers only `addresses` (docs/webhooks.md#pinning): the
 * connection goes where the address check looked, whatever DNS would answer by now. With `all`
 * (Node's happy eyeballs) it answers every one of them, each already checked.
 */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (hostname, options, callback) => {
    if (entries.length === 0) {
      const err = Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
      return callback(err, '', 0);
    }
    if (options.all) return (callback as (err: null, all: typeof entries) => void)(null, entries);
    callback(null, entries[0]!.address, entries[0]!.family);
  };
}

export interface PinnedPost {
  url: string;
  /** The checked addresses of the url's host; the connection goes to one of them. */
  addresses: readonly string[];
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

/**
 * POSTs `body` and answers the response's status, reading nothing of its body. A connection of
 * its own (no pool: a kept-alive socket could lead elsewhere than this attempt's check), redirects
 * not followed; over https the certificate is checked against the url's host name, as usual (Node
 * takes the TLS server name from the host, not from the address the lookup gives).
 */
export function pinnedPost({ url, addresses, headers, body, signal }: PinnedPost): Promise<number> {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
        lookup: pinnedLookup(addresses),
        signal,
      },
      (res) => {
        resolve(res.statusCode ?? 0);
        res.destroy();
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
