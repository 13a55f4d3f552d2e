import { describe, expect, it } from '@jest/globals';
import { hostProblem, isPrivateAddress } from './url-check.js';

describe('webhook url check (docs/webhooks.md#endpoints)', () => {
  it('refuses loopback, private, link-local, unique-local and mapped addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect([a, isPrivateAddress(a)]).toEqual([a, true]);
  });
  it('lets public addresses through', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111'])
      expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  });
  it('judges a literal host without DNS, and a name by every address it resolves to', async () => {
    await expect(hostProblem('http://127.0.0.1:9/x')).resolves.toMatch(/private/);
    await expect(hostProblem('http://[::1]/x')).resolves.toMatch(/private/);
    await expect(hostProblem('http://localhost/x')).resolves.toMatch(/private/);
    await expect(hostProblem('https://93.184.216.34/x')).resolves.toBeNull();
  });
  it('has nothing to refuse in a name that does not resolve (RFC 2606 .invalid never does)', async () => {
    await expect(hostProblem('https://hooks.example.invalid/x')).resolves.toBeNull();
  });
});
