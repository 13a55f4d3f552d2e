import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32, docs/privacy.md#anonymising-a-user: when a user was anonymised (null: they were not),
 * and an anonymised user's row keeps no e-mail address and no password hash.
 */
export class UserAnonymisation1763700026500 implements MigrationInterface {
  name = 'UserAnonymisation1763700026500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE users
        ADD COLUMN anonymised_at timestamptz,
        ALTER COLUMN email DROP NOT NULL,
        ALTER COLUMN password_hash DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM users WHERE anonymised_at IS NOT NULL`);
    await q.query(`
      ALTER TABLE users
        DROP COLUMN anonymised_at,
        ALTER COLUMN email SET NOT NULL,
        ALTER COLUMN password_hash SET NOT NULL`);
  }
}
