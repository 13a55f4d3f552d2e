import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Privacy (docs/privacy.md#what-is-purged-and-file-deletion): `rate_limits` is keyed by a keyed
 * hash (HMAC-SHA-256, libs/platform/src/security/keyed-hash.ts) of its key, which names an e-mail
 * or a network address, and no longer by the key in clear. The key is the service's secret, which
 * SQL does not have, so the counters in clear are cleared: they are windows of a minute to an hour,
 * and the worst a cleared one does is let a few more attempts in.
 */
export class RateLimitHashes1763700026100 implements MigrationInterface {
  name = 'RateLimitHashes1763700026100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM rate_limits`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM rate_limits`);
  }
}
