import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A host name's addresses, as DNS gives them; throws when it does not resolve. */
export type Resolve = (host: string) => Promise<string[]>;

export const resolveHost: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export const ADDRESS_PROBLEM =
  'The url’s host is, or resolves to, an address that is not public unicast (loopback, private, link-local, unique-local, reserved, multicast or broadcast).';

/**
 * IPv6 forms that carry an IPv4 address in their last 32 bits, and are judged by it
 * (docs/webhooks.md#addresses): IPv4-mapped, IPv4-translated (RFC 6145), NAT64's well-known
 * prefix (RFC 6052) and the deprecated IPv4-compatible ::a.b.c.d (which also covers :: and ::1).
 */
const EMBEDS_IPV4 = ['::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96', '::/96'].map((cidr) =>
  ipaddr.IPv6.parseCIDR(cidr),
);

/** docs/webhooks.md#addresses: only an address ipaddr.js classes as `unicast` may be called. */
export function isPublicAddress(address: string): boolean {
  if (!isIP(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  if (EMBEDS_IPV4.some((prefix) => v6.match(prefix))) {
    const bytes = v6.toByteArray().slice(12);
    return new ipaddr.IPv4(bytes).range() === 'unicast';
  }
  return v6.range() === 'unicast';
}

/** `localhost`, with or without its trailing dot(s), and every name under it (RFC 6761): refused without asking DNS. */
export function isLocalName(host: string): boolean {
  return /(^|\.)localhost\.*$/i.test(host);
}

/** The URL's host as DNS and the address rule see it: without an IPv6 literal's brackets. */
export const hostOf = (url: string | URL): string => new URL(url).hostname.replace(/^\[|\]$/g, '');

/**
 * Why the URL's host may not be registered, or null (docs/webhooks.md#addresses): it is a local
 * name, or an address that is not public unicast, or a name of which any address DNS gives is not.
 * A name that does not resolve (yet, or from here) has no address to refuse.
 */
export async function hostProblem(url: string, resolve: Resolve = resolveHost): Promise<string | null> {
  const host = hostOf(url);
  if (isLocalName(host)) return ADDRESS_PROBLEM;
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return null;
  }
  return addresses.every(isPublicAddress) ? null : ADDRESS_PROBLEM;
}

/**
 * The addresses one delivery attempt may connect to (docs/webhooks.md#pinning): the host's,
 * resolved once, and every one of them public unless `allowPrivate`. Throws when there is none, or
 * one is refused: the attempt fails, and is retried.
 */
export async function addressesToCall(url: string, allowPrivate: boolean, resolve: Resolve): Promise<string[]> {
  const host = hostOf(url);
  if (!allowPrivate && isLocalName(host)) throw new Error(ADDRESS_PROBLEM);
  const addresses = isIP(host) ? [host] : await resolve(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  if (!allowPrivate && !addresses.every(isPublicAddress)) throw new Error(ADDRESS_PROBLEM);
  return addresses;
}
