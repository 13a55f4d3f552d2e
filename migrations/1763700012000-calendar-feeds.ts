import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 16, calendar feeds: one row per user with a live feed, holding the token's SHA-256 only
 * (the token itself is never stored). The feed route finds its row by that hash, hence the unique
 * index; the primary key on the user makes a rotation overwrite the old hash.
 */
export class CalendarFeeds1763700012000 implements MigrationInterface {
  name = 'CalendarFeeds1763700012000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rota_calendar_feeds (
        user_id bigint PRIMARY KEY, organisation_id bigint NOT NULL, token_hash text NOT NULL, issued_at timestamptz NOT NULL)`);
    await q.query(`CREATE UNIQUE INDEX rota_calendar_feeds_token ON rota_calendar_feeds (token_hash)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rota_calendar_feeds`);
  }
}
