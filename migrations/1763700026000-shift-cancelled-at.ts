import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a shift was cancelled (the personal-data export's `cancelled_at`, docs/privacy.md#access-and-portability),
 * on its `rota_shifts` row: NULL while booked. Until now nothing changed a cancelled row after its
 * cancellation, so its `updated_at` is the ShiftCancelled event's time: the values a replay writes.
 */
export class ShiftCancelledAt1763700026000 implements MigrationInterface {
  name = 'ShiftCancelledAt1763700026000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rota_shifts ADD COLUMN cancelled_at timestamptz`);
    await q.query(`UPDATE rota_shifts SET cancelled_at = updated_at WHERE status = 'cancelled'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rota_shifts DROP COLUMN cancelled_at`);
  }
}
