import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `users:hold` / `users:release` (identity.UserHeld / identity.UserReleased): since when an
 * administrator has held the account; null when it is not held. A held user cannot log in and
 * their tokens are refused. No event before this migration holds anyone, so every row is null, as
 * a replay of identity.directory would write it.
 */
export class UserHold1763700008500 implements MigrationInterface {
  name = 'UserHold1763700008500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN held_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN held_at`);
  }
}
