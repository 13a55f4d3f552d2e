import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Which outbox messages were handed to the mail server, so a retried job does not send twice. */
export class MailDeliveries1763700004100 implements MigrationInterface {
  name = 'MailDeliveries1763700004100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE mail_deliveries (key text PRIMARY KEY, sent_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE mail_deliveries`);
  }
}
