import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The spec's Team object (embedded in rota records): `icon`, `hidden` and `disabled` join
 * `description`, settable per team in the provisioning file. No event before this migration sets
 * them, so the defaults are what a replay of identity.directory writes.
 */
export class TeamFields1763700009100 implements MigrationInterface {
  name = 'TeamFields1763700009100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE teams ADD COLUMN icon text NOT NULL DEFAULT '', ADD COLUMN hidden boolean NOT NULL DEFAULT false, ADD COLUMN disabled boolean NOT NULL DEFAULT false`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE teams DROP COLUMN icon, DROP COLUMN hidden, DROP COLUMN disabled`);
  }
}
