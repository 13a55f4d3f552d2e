import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shift swaps (docs/rota-domain.md#swaps): one row per swap, each side as proposed. `status` is the
 * swap's own (its stream's, or `expired` when a volunteer was put on hold); the other expiries are
 * judged on read against `rota_shifts` and `rotas` (rota/swap queries).
 */
export class ShiftSwaps1763700030020 implements MigrationInterface {
  name = 'ShiftSwaps1763700030020';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE rotas_swap_ids`);
    await q.query(`
      CREATE TABLE rota_shift_swaps (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, status text NOT NULL,
        shift_id bigint NOT NULL, shift_rota_id bigint NOT NULL, shift_team_id bigint NOT NULL,
        shift_user_id bigint NOT NULL, shift_starts_at timestamptz NOT NULL, shift_ends_at timestamptz NOT NULL,
        with_id bigint NOT NULL, with_rota_id bigint NOT NULL, with_team_id bigint NOT NULL,
        with_user_id bigint NOT NULL, with_starts_at timestamptz NOT NULL, with_ends_at timestamptz NOT NULL,
        proposed_by bigint NOT NULL, created_at timestamptz NOT NULL, decided_at timestamptz)`);
    await q.query(
      `CREATE INDEX rota_shift_swaps_created ON rota_shift_swaps (organisation_id, created_at DESC, id DESC)`,
    );
    await q.query(`CREATE INDEX rota_shift_swaps_shift_user ON rota_shift_swaps (shift_user_id)`);
    await q.query(`CREATE INDEX rota_shift_swaps_with_user ON rota_shift_swaps (with_user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rota_shift_swaps`);
    await q.query(`DROP SEQUENCE rotas_swap_ids`);
  }
}
