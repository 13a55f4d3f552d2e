import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Read tables of the expenses context: types, rates, expenses, their attachments, claims. */
export class Expenses1763700004000 implements MigrationInterface {
  name = 'Expenses1763700004000';

  async up(q: QueryRunner): Promise<void> {
    for (const seq of ['type', 'rate', 'expense', 'claim']) await q.query(`CREATE SEQUENCE expenses_${seq}_ids`);
    await q.query(`
      CREATE TABLE expense_types (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, name text NOT NULL, order_id integer NOT NULL,
        deleted boolean NOT NULL DEFAULT false)`);
    await q.query(`CREATE INDEX expense_types_org ON expense_types (organisation_id, order_id)`);
    await q.query(`
      CREATE TABLE expense_rates (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, description text NOT NULL, short_name text NOT NULL,
        start_date date, end_date date, rate numeric(12,4) NOT NULL, passenger_rate numeric(12,4) NOT NULL,
        max_miles integer, order_id integer NOT NULL, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
        deleted boolean NOT NULL DEFAULT false)`);
    await q.query(`CREATE INDEX expense_rates_org ON expense_rates (organisation_id, order_id)`);
    await q.query(`
      CREATE TABLE expenses (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, user_id bigint NOT NULL, type_id bigint NOT NULL,
        rate_id bigint, role_id bigint, amount numeric(12,2) NOT NULL, description text NOT NULL, submitted date,
        date date NOT NULL, miles numeric(10,2), passengers integer, claim_id bigint, claimed boolean NOT NULL,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX expenses_user ON expenses (organisation_id, user_id, date)`);
    await q.query(`CREATE INDEX expenses_claim ON expenses (claim_id)`);
    await q.query(`
      CREATE TABLE expense_attachments (
        expense_id bigint NOT NULL, file_id bigint NOT NULL, organisation_id bigint NOT NULL, attached_at timestamptz NOT NULL,
        PRIMARY KEY (expense_id, file_id))`);
    await q.query(`
      CREATE TABLE claims (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, user_id bigint NOT NULL, assigned_to bigint NOT NULL,
        role_id bigint, amount numeric(12,2) NOT NULL, notes text NOT NULL, approved boolean NOT NULL,
        approved_by bigint, approved_at timestamptz, approval_note text, rejected boolean NOT NULL,
        rejection_note text, submitted boolean NOT NULL, submitted_at timestamptz,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX claims_org_user ON claims (organisation_id, user_id, created_at)`);
    await q.query(`CREATE INDEX claims_org_created ON claims (organisation_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['claims', 'expense_attachments', 'expenses', 'expense_rates', 'expense_types'])
      await q.query(`DROP TABLE ${t}`);
    for (const seq of ['type', 'rate', 'expense', 'claim']) await q.query(`DROP SEQUENCE expenses_${seq}_ids`);
  }
}
