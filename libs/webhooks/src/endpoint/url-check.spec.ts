import { describe, expect, it } from '@jest/globals';
import { addressesToCall, hostProblem, isLocalName, isPublicAddress, type Resolve } from './url-check.js';

/** A resolver that answers `answers` in turn (the last one again after that), and counts its calls. */
function stubResolver(...answers: (string[] | Error)[]): Resolve & { calls: number } {
  const resolve = Object.assign(
    async () => {
      const answer = answers[Math.min(resolve.calls++, answers.length - 1)]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    { calls: 0 },
  );
  return resolve;
}

const notFound = () => Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });

describe('webhook address rule (docs/webhooks.md#addresses)', () => {
  it('refuses every address that is not public unicast, in IPv4, IPv6 and the IPv6 forms of IPv4', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '198.18.0.1', // benchmarking
      '192.0.2.10', // documentation
      '240.0.0.1', // reserved
      '224.0.0.1', // multicast
      '239.255.255.250',
      '255.255.255.255', // broadcast
      '::',
      '::1',
      'fd00::1',
      'fe80::1',
      'ff02::1', // multicast
      'fec0::1', // deprecated site-local
      '2001:db8::1', // documentation
      '::ffff:127.0.0.1', // IPv4-mapped
      '::ffff:0:127.0.0.1', // IPv4-translated
      '64:ff9b::127.0.0.1', // NAT64
      '64:ff9b::10.0.0.1',
      '::127.0.0.1', // IPv4-compatible
      '::10.0.0.1',
      '2002:7f00:1::1', // 6to4
    ])
      expect([a, isPublicAddress(a)]).toEqual([a, false]);
  });

  it('lets public unicast through, also in an IPv6 form that embeds a public IPv4 address (NAT64)', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'])
      expect([a, isPublicAddress(a)]).toEqual([a, true]);
  });

  it('takes localhost, with trailing dots, and every name under it as local', () => {
    for (const host of ['localhost', 'localhost.', 'LOCALHOST..', 'a.localhost', 'a.b.localhost.'])
      expect([host, isLocalName(host)]).toEqual([host, true]);
    for (const host of ['localhost.example.org', 'mylocalhost', 'example.org'])
      expect([host, isLocalName(host)]).toEqual([host, false]);
  });

  it('judges a literal host and a local name without DNS, and another name by every address it resolves to', async () => {
    const never = stubResolver(new Error('DNS asked'));
    for (const url of ['http://127.0.0.1:9/x', 'http://[::1]/x', 'http://[64:ff9b::127.0.0.1]/', 'http://localhost./x'])
      await expect(hostProblem(url, never)).resolves.toMatch(/not public/);
    await expect(hostProblem('https://93.184.216.34/x', never)).resolves.toBeNull();
    expect(never.calls).toBe(0);
    await expect(hostProblem('https://hooks.test/x', stubResolver(['93.184.216.34', '10.0.0.1']))).resolves.toMatch(
      /not public/,
    );
    await expect(hostProblem('https://hooks.test/x', stubResolver(['93.184.216.34']))).resolves.toBeNull();
  });

  it('has nothing to refuse in a name that does not resolve', async () => {
    await expect(hostProblem('https://hooks.example.invalid/x', stubResolver(notFound()))).resolves.toBeNull();
  });
});

describe('the addresses an attempt may call (docs/webhooks.md#pinning)', () => {
  it('resolves once and answers what it checked, whatever DNS answers next', async () => {
    const rebinding = stubResolver(['93.184.216.34'], ['127.0.0.1']);
    await expect(addressesToCall('https://hooks.test/x', false, rebinding)).resolves.toEqual(['93.184.216.34']);
    expect(rebinding.calls).toBe(1);
  });

  it('refuses when the one answer holds an address that is not public, or there is none', async () => {
    await expect(
      addressesToCall('https://hooks.test/x', false, stubResolver(['127.0.0.1'], ['93.184.216.34'])),
    ).rejects.toThrow(/not public/);
    await expect(addressesToCall('http://localhost./x', false, stubResolver(['93.184.216.34']))).rejects.toThrow(
      /not public/,
    );
    await expect(addressesToCall('https://hooks.test/x', false, stubResolver([]))).rejects.toThrow(/no address/);
    await expect(addressesToCall('https://hooks.test/x', false, stubResolver(notFound()))).rejects.toThrow(/ENOTFOUND/);
  });

  it('with WEBHOOK_ALLOW_PRIVATE checks nothing, and still answers the one resolution', async () => {
    const resolve = stubResolver(['127.0.0.1'], ['127.0.0.2']);
    await expect(addressesToCall('http://hooks.test:9/x', true, resolve)).resolves.toEqual(['127.0.0.1']);
    await expect(addressesToCall('http://[::1]:9/x', true, resolve)).resolves.toEqual(['::1']);
    expect(resolve.calls).toBe(1);
  });
});
