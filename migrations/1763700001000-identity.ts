import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read tables of the identity context (projections of its events) and the id sequences its
 * commands draw from. Ids are allocated before the events are written, so replay reproduces them.
 */
export class Identity1763700001000 implements MigrationInterface {
  name = 'Identity1763700001000';

  async up(q: QueryRunner): Promise<void> {
    for (const seq of ['organisation', 'team', 'role_profile', 'activity_category', 'user', 'role']) {
      await q.query(`CREATE SEQUENCE identity_${seq}_ids`);
    }
    await q.query(`
      CREATE TABLE organisations (
        id bigint PRIMARY KEY, slug text NOT NULL UNIQUE, name text NOT NULL, timezone text NOT NULL,
        features jsonb NOT NULL DEFAULT '[]', created_at timestamptz NOT NULL)`);
    await q.query(`
      CREATE TABLE teams (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, parent_id bigint, name text NOT NULL,
        description text, created_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX teams_organisation ON teams (organisation_id)`);
    await q.query(`CREATE INDEX teams_parent ON teams (parent_id)`);
    await q.query(`
      CREATE TABLE role_profiles (id bigint PRIMARY KEY, organisation_id bigint NOT NULL, name text NOT NULL)`);
    await q.query(`
      CREATE TABLE activity_categories (id bigint PRIMARY KEY, organisation_id bigint NOT NULL, name text NOT NULL)`);
    await q.query(`
      CREATE TABLE users (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, email text NOT NULL,
        password_hash text NOT NULL, display_name text NOT NULL, title text, phone text,
        status text NOT NULL, two_factor text, totp_secret text, permissions jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL)`);
    // Log-in finds the organisation from the user, so an address belongs to one user service-wide.
    await q.query(`CREATE UNIQUE INDEX users_email ON users (lower(email))`);
    await q.query(`CREATE INDEX users_organisation ON users (organisation_id)`);
    await q.query(`
      CREATE TABLE roles (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, user_id bigint NOT NULL,
        team_id bigint NOT NULL, role_profile_id bigint NOT NULL, position integer NOT NULL)`);
    await q.query(`CREATE INDEX roles_user ON roles (user_id)`);
    await q.query(`CREATE INDEX roles_team ON roles (team_id)`);
    await q.query(`
      CREATE TABLE pre_auth_tokens (
        id uuid PRIMARY KEY, token_hash text NOT NULL UNIQUE, user_id bigint NOT NULL,
        organisation_id bigint NOT NULL, two_factor text, expires_at timestamptz NOT NULL,
        status text NOT NULL, failures integer NOT NULL)`);
    await q.query(`
      CREATE TABLE sessions (
        id uuid PRIMARY KEY, user_id bigint NOT NULL, organisation_id bigint NOT NULL,
        current_jti uuid NOT NULL, issued_at timestamptz NOT NULL, revoked_at timestamptz,
        revoked_reason text)`);
    await q.query(`CREATE INDEX sessions_user ON sessions (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'sessions',
      'pre_auth_tokens',
      'roles',
      'users',
      'activity_categories',
      'role_profiles',
      'teams',
      'organisations',
    ]) {
      await q.query(`DROP TABLE ${t}`);
    }
    for (const seq of ['organisation', 'team', 'role_profile', 'activity_category', 'user', 'role']) {
      await q.query(`DROP SEQUENCE identity_${seq}_ids`);
    }
  }
}
