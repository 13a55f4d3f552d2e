import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Fixed-window attempt counters shared by every API process (Redis is optional, Postgres is not). */
export class RateLimits1763700000100 implements MigrationInterface {
  name = 'RateLimits1763700000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE rate_limits (
        key          text PRIMARY KEY,
        window_start timestamptz NOT NULL,
        hits         integer NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rate_limits`);
  }
}
