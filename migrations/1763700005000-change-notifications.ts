import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The read tables that processes cache, with the column their caches are keyed by. */
const WATCHED: Record<string, string> = {
  sessions: 'id',
  users: 'id',
  organisation_settings: 'organisation_id',
  expense_types: 'id',
  expense_rates: 'id',
};

/**
 * Change notifications for cached read tables: every row change sends `<table>:<key>` on the
 * `uvol_changes` channel when its transaction commits, and each process's ChangeFeed evicts what
 * it cached (libs/platform/src/database/change-feed.ts). Projection replay carries the triggers
 * over to the rebuilt table.
 */
export class ChangeNotifications1763700005000 implements MigrationInterface {
  name = 'ChangeNotifications1763700005000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION uvol_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        changed record;
      BEGIN
        IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
        PERFORM pg_notify('uvol_changes', TG_TABLE_NAME || ':' || coalesce(to_jsonb(changed) ->> TG_ARGV[0], '*'));
        RETURN NULL;
      END $$`);
    // TRUNCATE fires no row triggers: it says every row changed.
    await q.query(`
      CREATE FUNCTION uvol_notify_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('uvol_changes', TG_TABLE_NAME || ':*');
        RETURN NULL;
      END $$`);
    for (const [table, key] of Object.entries(WATCHED)) {
      await q.query(
        `CREATE TRIGGER ${table}_changes AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION uvol_notify_change('${key}')`,
      );
      await q.query(
        `CREATE TRIGGER ${table}_truncated AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION uvol_notify_truncate()`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of Object.keys(WATCHED)) {
      await q.query(`DROP TRIGGER ${table}_changes ON ${table}`);
      await q.query(`DROP TRIGGER ${table}_truncated ON ${table}`);
    }
    await q.query(`DROP FUNCTION uvol_notify_change()`);
    await q.query(`DROP FUNCTION uvol_notify_truncate()`);
  }
}
