import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The volunteer hours report's read model (docs/rota-domain.md#volunteer-hours): one row per booked
 * shift with what the report sums (its real booked minutes, its attendance), so the report is one
 * aggregate over this table and never reads `rota_shifts` or the log. A cancelled shift's row is
 * deleted. The report reads an organisation's dates, hence (organisation_id, date); starts_at is in
 * the index so the "has started" test needs no row fetch.
 */
export class VolunteerHours1763700024500 implements MigrationInterface {
  name = 'VolunteerHours1763700024500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rota_volunteer_hours (
        shift_id bigint PRIMARY KEY, organisation_id bigint NOT NULL, team_id bigint NOT NULL, rota_id bigint NOT NULL,
        user_id bigint NOT NULL, date date NOT NULL, starts_at timestamptz NOT NULL, booked_minutes integer NOT NULL,
        attendance_status text, attended_minutes integer)`);
    await q.query(
      `CREATE INDEX rota_volunteer_hours_organisation_date ON rota_volunteer_hours (organisation_id, date, starts_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rota_volunteer_hours`);
  }
}
