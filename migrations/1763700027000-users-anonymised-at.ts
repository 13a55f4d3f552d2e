import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `users.anonymised_at` (docs/privacy.md, contract §4): set by identity's directory projection on
 * identity.UserAnonymised. `IF NOT EXISTS`: the anonymise work adds the same column; whichever
 * migration runs first adds it.
 */
export class UsersAnonymisedAt1763700027000 implements MigrationInterface {
  name = 'UsersAnonymisedAt1763700027000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN IF NOT EXISTS anonymised_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN IF EXISTS anonymised_at`);
  }
}
