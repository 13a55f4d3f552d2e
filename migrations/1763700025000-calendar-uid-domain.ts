import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31, docs/adr/0012-calendar-uids.md: the host part of every calendar UID, recorded once per
 * installation (at most one row) the first time a UID is made, and used from then on whatever
 * PUBLIC_URL says. Empty here: a migration does not know PUBLIC_URL.
 */
export class CalendarUidDomain1763700025000 implements MigrationInterface {
  name = 'CalendarUidDomain1763700025000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rota_calendar_uid_domain (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), domain text NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rota_calendar_uid_domain`);
  }
}
