import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32 (docs/privacy.md, "Sealed fields in the log"): one data key per user, outside the log,
 * itself sealed with SECRETS_KEY. Destroying it (anonymisation) leaves the row, key null, so no
 * later append for that user is sealed with a new key. `user_id` is not a foreign key: the key is
 * written in the append that first needs it, which may come before the users read table has the row.
 */
export class PersonalDataKeys1763700027000 implements MigrationInterface {
  name = 'PersonalDataKeys1763700027000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE personal_data_keys (
        user_id bigint PRIMARY KEY, sealed_key text NULL,
        created_at timestamptz NOT NULL DEFAULT now(), destroyed_at timestamptz NULL,
        CHECK ((sealed_key IS NULL) = (destroyed_at IS NOT NULL)))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE personal_data_keys`);
  }
}
