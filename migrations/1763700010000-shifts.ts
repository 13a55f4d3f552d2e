import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rotas part 2: the event store's gates (docs/adr/0008-booking-gates.md) and the read tables of
 * shifts and repeating shifts.
 *
 * `rota_shifts` keeps a shift's instants (timestamptz, what overlaps and coverage compare) and its
 * wall clock in the rota zone (what every answer shows), so no read converts zones. Cancelled
 * shifts stay (history, the calendar feed's cancellations) but every index that a booking rule or
 * view reads covers booked shifts only. `rota_repeating_shifts.generated_until < until` is a series
 * with generation pending: the views' `data_ready` reads it per rota through a partial index.
 * No index leads with the organisation alone: on a table without statistics yet (filled by a
 * generation minutes after it was created) the planner took one for the user's shifts and read
 * every shift of the organisation (bench/README.md, Shifts).
 */
export class Shifts1763700010000 implements MigrationInterface {
  name = 'Shifts1763700010000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE stream_gates (id text PRIMARY KEY, version bigint NOT NULL)`);
    for (const seq of ['shift', 'series']) await q.query(`CREATE SEQUENCE rotas_${seq}_ids`);
    await q.query(`
      CREATE TABLE rota_shifts (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, rota_id bigint NOT NULL, team_id bigint NOT NULL,
        user_id bigint NOT NULL, series_id bigint, date date NOT NULL,
        starts_at timestamptz NOT NULL, ends_at timestamptz NOT NULL, start_wall text NOT NULL, end_wall text NOT NULL,
        status text NOT NULL, cancel_reason text, sequence integer NOT NULL,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`);
    await q.query(
      `CREATE INDEX rota_shifts_rota_date ON rota_shifts (rota_id, date, starts_at) WHERE status = 'booked'`,
    );
    await q.query(`CREATE INDEX rota_shifts_user_start ON rota_shifts (user_id, starts_at) WHERE status = 'booked'`);
    await q.query(`CREATE INDEX rota_shifts_series ON rota_shifts (series_id, date) WHERE series_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE rota_repeating_shifts (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, user_id bigint NOT NULL, rota_id bigint NOT NULL,
        team_id bigint NOT NULL, frequency integer NOT NULL, weekdays jsonb NOT NULL,
        start_date date NOT NULL, end_date date, start_time text NOT NULL, end_time text NOT NULL, day_offset integer NOT NULL,
        ignore_on_hold boolean NOT NULL, confirm_role_restriction boolean NOT NULL,
        until date NOT NULL, generated_until date NOT NULL, ended_reason text,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`);
    await q.query(
      `CREATE INDEX rota_repeating_shifts_pending ON rota_repeating_shifts (rota_id) WHERE generated_until < until`,
    );
    await q.query(
      `CREATE INDEX rota_repeating_shifts_open ON rota_repeating_shifts (organisation_id) WHERE end_date IS NULL`,
    );
    await q.query(`
      CREATE TABLE rota_series_skips (
        series_id bigint NOT NULL, date date NOT NULL, organisation_id bigint NOT NULL, reason text NOT NULL,
        PRIMARY KEY (series_id, date))`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['rota_series_skips', 'rota_repeating_shifts', 'rota_shifts', 'stream_gates'])
      await q.query(`DROP TABLE ${t}`);
    for (const seq of ['shift', 'series']) await q.query(`DROP SEQUENCE rotas_${seq}_ids`);
  }
}
