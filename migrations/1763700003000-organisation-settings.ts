import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One row per organisation setting (secrets sealed), and the settings' change history. */
export class OrganisationSettings1763700003000 implements MigrationInterface {
  name = 'OrganisationSettings1763700003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organisation_settings (
        organisation_id bigint NOT NULL, name text NOT NULL, value jsonb,
        PRIMARY KEY (organisation_id, name))`);
    await q.query(`
      CREATE TABLE organisation_settings_history (
        position bigint PRIMARY KEY, organisation_id bigint NOT NULL, actor_id bigint,
        changed_at timestamptz NOT NULL, fields jsonb NOT NULL)`);
    await q.query(
      `CREATE INDEX organisation_settings_history_org ON organisation_settings_history (organisation_id, position)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE organisation_settings_history`);
    await q.query(`DROP TABLE organisation_settings`);
  }
}
