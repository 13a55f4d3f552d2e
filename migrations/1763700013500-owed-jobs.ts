import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 23, owed work (docs/adr/0009-postgresql-records-owed-work.md): one row per reactor job handed
 * to the queue and not yet known to be done, written in the transaction that moves the reactor's
 * checkpoint and deleted when its job completes. The worker's reconciler offers again every row
 * whose job the queue no longer has.
 */
export class OwedJobs1763700013500 implements MigrationInterface {
  name = 'OwedJobs1763700013500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE reactor_owed_jobs (
        reactor text NOT NULL, event_id uuid NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (reactor, event_id))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE reactor_owed_jobs`);
  }
}
