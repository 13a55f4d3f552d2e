import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A shift's open stand-in request (docs/rota-domain.md#stand-ins-and-take-overs) on its `rota_shifts`
 * row: all NULL when none. `stand_in_note_by` is whose note it is (its writer: the note is cleared
 * when they are anonymised). The partial index serves `stand_in=true` and coverage's gaps.
 */
export class StandIns1763700030010 implements MigrationInterface {
  name = 'StandIns1763700030010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE rota_shifts
        ADD COLUMN stand_in_requested_at timestamptz,
        ADD COLUMN stand_in_requested_by bigint,
        ADD COLUMN stand_in_note text,
        ADD COLUMN stand_in_note_by bigint`);
    await q.query(
      `CREATE INDEX rota_shifts_stand_in ON rota_shifts (rota_id, date)
         WHERE status = 'booked' AND stand_in_requested_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX rota_shifts_stand_in`);
    await q.query(`
      ALTER TABLE rota_shifts
        DROP COLUMN stand_in_requested_at, DROP COLUMN stand_in_requested_by,
        DROP COLUMN stand_in_note, DROP COLUMN stand_in_note_by`);
  }
}
