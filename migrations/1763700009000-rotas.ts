import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read tables of the rota context (part 1): shift patterns, rotas and their contacts. A rota's
 * timeslot versions and closed dates are kept with it as JSON (`timeline`, `closed_dates`): views
 * compute a date's timeslots from them with the pure calendar functions (domain/rota-calendar.ts),
 * and every change that touches them writes the whole value, as its event carries it.
 */
export class Rotas1763700009000 implements MigrationInterface {
  name = 'Rotas1763700009000';

  async up(q: QueryRunner): Promise<void> {
    for (const seq of ['pattern', 'rota', 'contact', 'timeslot']) await q.query(`CREATE SEQUENCE rotas_${seq}_ids`);
    await q.query(`
      CREATE TABLE shift_patterns (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, name text NOT NULL,
        min integer NOT NULL, ideal integer NOT NULL, max integer NOT NULL, category_id bigint,
        timeslots jsonb NOT NULL, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
        deleted_at timestamptz)`);
    await q.query(`CREATE INDEX shift_patterns_org ON shift_patterns (organisation_id, created_at)`);
    await q.query(`
      CREATE TABLE rotas (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, team_id bigint NOT NULL, pattern_id bigint NOT NULL,
        name text NOT NULL, colour text NOT NULL, start_date date NOT NULL, end_date date,
        self_manage boolean NOT NULL, allow_same_day_add boolean NOT NULL, allow_same_day_cancel boolean NOT NULL,
        allow_same_day_edit boolean NOT NULL, restricted_by_role boolean NOT NULL, role_profile_ids jsonb NOT NULL,
        require_full_timeslot boolean NOT NULL, archived boolean NOT NULL,
        timeline jsonb NOT NULL, closed_dates jsonb NOT NULL,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX rotas_org_team ON rotas (organisation_id, team_id)`);
    await q.query(`CREATE INDEX rotas_pattern ON rotas (pattern_id)`);
    await q.query(`
      CREATE TABLE rota_contacts (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, rota_id bigint NOT NULL, user_id bigint NOT NULL,
        created_at timestamptz NOT NULL)`);
    await q.query(`CREATE UNIQUE INDEX rota_contacts_rota_user ON rota_contacts (rota_id, user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['rota_contacts', 'rotas', 'shift_patterns']) await q.query(`DROP TABLE ${t}`);
    for (const seq of ['pattern', 'rota', 'contact', 'timeslot']) await q.query(`DROP SEQUENCE rotas_${seq}_ids`);
  }
}
