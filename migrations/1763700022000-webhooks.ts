import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 22, webhooks (docs/webhooks.md). `webhook_endpoints` is a projection (read table, replayed
 * from the log). `webhook_deliveries` is not: it is the record of what is owed to each endpoint
 * (one row per endpoint and event, the `msg_…` id its webhook-id), written by the worker and kept
 * across restarts, so a delivery lost from the queue is offered again from here. The body is kept
 * as first built (text), so every attempt sends the same bytes.
 */
export class Webhooks1763700022000 implements MigrationInterface {
  name = 'Webhooks1763700022000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE webhook_endpoint_ids`);
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, url text NOT NULL, events jsonb NOT NULL,
        description text NOT NULL, enabled boolean NOT NULL, secret text NOT NULL, previous_secret text,
        previous_until timestamptz, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX webhook_endpoints_organisation ON webhook_endpoints (organisation_id, id)`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id text PRIMARY KEY, organisation_id bigint NOT NULL, endpoint_id bigint NOT NULL, event_id uuid,
        event_type text NOT NULL, body text NOT NULL, status text NOT NULL, attempts integer NOT NULL DEFAULT 0,
        last_attempt_at timestamptz, next_attempt_at timestamptz, response_status integer, lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now())`);
    // One delivery per endpoint and event: a fan-out run twice adds nothing (pings have no event).
    await q.query(`CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries (endpoint_id, event_id)`);
    await q.query(`CREATE INDEX webhook_deliveries_list ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`);
    await q.query(
      `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, endpoint_id) WHERE status = 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_endpoints`);
    await q.query(`DROP SEQUENCE webhook_endpoint_ids`);
  }
}
