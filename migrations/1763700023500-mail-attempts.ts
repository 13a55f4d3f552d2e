import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 23, item 6 (docs/adr/0009-postgresql-records-owed-work.md#what-remains): the outbox records
 * an attempt before it sends and the send after it, so a retry after a crash between the two is
 * known as a possible duplicate. `attempted_at` is the last attempt; `attempts` counts those that may
 * have reached the mail server (one the server refused is taken back); `sent_at` stays NULL until
 * the send is recorded. Rows from before were sent, once.
 */
export class MailAttempts1763700023500 implements MigrationInterface {
  name = 'MailAttempts1763700023500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE mail_deliveries
        ADD COLUMN attempted_at timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN attempts integer NOT NULL DEFAULT 1`);
    await q.query(`UPDATE mail_deliveries SET attempted_at = sent_at`);
    await q.query(`ALTER TABLE mail_deliveries ALTER COLUMN sent_at DROP NOT NULL, ALTER COLUMN sent_at DROP DEFAULT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM mail_deliveries WHERE sent_at IS NULL`);
    await q.query(
      `ALTER TABLE mail_deliveries ALTER COLUMN sent_at SET DEFAULT now(), ALTER COLUMN sent_at SET NOT NULL`,
    );
    await q.query(`ALTER TABLE mail_deliveries DROP COLUMN attempted_at, DROP COLUMN attempts`);
  }
}
