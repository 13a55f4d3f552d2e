import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Privacy (docs/privacy.md#what-is-purged-and-file-deletion): each webhook delivery records the
 * users its body names (`user_ids`: every object of the payload with an `id` and a
 * `display_name`, the UserBase shape, and every `user_id`), so an anonymisation can purge, in its own transaction, the
 * deliveries whose bodies hold that user's personal data. Existing rows are filled from their
 * bodies the same way.
 */
export class WebhookDeliveryUsers1763700026200 implements MigrationInterface {
  name = 'WebhookDeliveryUsers1763700026200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN user_ids bigint[] NOT NULL DEFAULT '{}'`);
    await q.query(`
      UPDATE webhook_deliveries SET user_ids = ARRAY(
        SELECT DISTINCT (u #>> '{}')::bigint FROM (
          SELECT jsonb_path_query(body::jsonb, 'strict $.** ? (exists(@.display_name) && @.id.type() == "number").id')
          UNION ALL
          SELECT jsonb_path_query(body::jsonb, 'strict $.**.user_id ? (@.type() == "number")')) AS named(u))
       WHERE body LIKE '%"display_name"%' OR body LIKE '%"user_id"%'`);
    await q.query(`CREATE INDEX webhook_deliveries_users ON webhook_deliveries USING gin (user_ids)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN user_ids`);
  }
}
