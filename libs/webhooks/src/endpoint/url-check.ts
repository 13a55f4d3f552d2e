import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * docs/webhooks.md#endpoints: a webhook may not reach the service's own network. Loopback,
 * private (RFC 1918, CGNAT), link-local and unique-local addresses, and the unspecified and
 * IPv4-mapped forms of them, are refused unless WEBHOOK_ALLOW_PRIVATE=true.
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? PRIVATE.check(mapped[1]!, 'ipv4') : PRIVATE.check(address, 'ipv6');
}

/**
 * Why the URL's host may not be called, or null: the host is a private address, or resolves to
 * one (every address DNS gives, so a name with one public and one private address is refused).
 * A name that does not resolve (yet, or from here) has no address to refuse: docs/webhooks.md#endpoints.
 */
export async function hostProblem(url: string): Promise<string | null> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return null;
    }
  }
  return addresses.some(isPrivateAddress)
    ? 'The url’s host is or resolves to a loopback, private, link-local or unique-local address.'
    : null;
}
