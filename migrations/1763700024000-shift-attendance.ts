import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A shift's attendance (docs/rota-domain.md#attendance) on its `rota_shifts` row: all NULL until
 * recorded and again once cleared. The worked times keep their instants and wall clocks as the
 * shift's own do, and do not move with it.
 */
export class ShiftAttendance1763700024000 implements MigrationInterface {
  name = 'ShiftAttendance1763700024000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE rota_shifts
        ADD COLUMN attendance_status text,
        ADD COLUMN attendance_starts_at timestamptz,
        ADD COLUMN attendance_ends_at timestamptz,
        ADD COLUMN attendance_start_wall text,
        ADD COLUMN attendance_end_wall text,
        ADD COLUMN attendance_minutes integer,
        ADD COLUMN attendance_note text,
        ADD COLUMN attendance_recorded_by bigint,
        ADD COLUMN attendance_recorded_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE rota_shifts
        DROP COLUMN attendance_status, DROP COLUMN attendance_starts_at, DROP COLUMN attendance_ends_at,
        DROP COLUMN attendance_start_wall, DROP COLUMN attendance_end_wall, DROP COLUMN attendance_minutes,
        DROP COLUMN attendance_note, DROP COLUMN attendance_recorded_by, DROP COLUMN attendance_recorded_at`);
  }
}
