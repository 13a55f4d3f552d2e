import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The retention sweep's read model (docs/privacy.md#retention), so a sweep never scans the log:
 * - `retention_activity`: one row per user, the latest instant of each kind of activity that is not
 *   a shift (registration, log-in, a change of theirs to an expense or claim);
 * - `retention_shifts`: one row per booked, not cancelled shift, with its end: the user's last
 *   shift end is their greatest `ends_at`, and a shift whose end is after the sweep's day spares them.
 */
export class Retention1763700027500 implements MigrationInterface {
  name = 'Retention1763700027500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE retention_activity (
        user_id bigint PRIMARY KEY, organisation_id bigint NOT NULL, registered_at timestamptz,
        last_login_at timestamptz, last_finance_change_at timestamptz)`);
    await q.query(`CREATE INDEX retention_activity_organisation ON retention_activity (organisation_id)`);
    await q.query(`
      CREATE TABLE retention_shifts (
        shift_id bigint PRIMARY KEY, organisation_id bigint NOT NULL, user_id bigint NOT NULL,
        ends_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX retention_shifts_user ON retention_shifts (user_id, ends_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE retention_shifts`);
    await q.query(`DROP TABLE retention_activity`);
  }
}
