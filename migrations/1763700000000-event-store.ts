import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The append-only event log, the per-stream concurrency gate and the checkpoints of projections and reactors. */
export class EventStore1763700000000 implements MigrationInterface {
  name = 'EventStore1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE streams (
        stream_id   text PRIMARY KEY,
        stream_type text NOT NULL,
        version     integer NOT NULL CHECK (version >= 0),
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE events (
        position        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        transaction_id  xid8 NOT NULL DEFAULT pg_current_xact_id(),
        event_id        uuid NOT NULL UNIQUE,
        stream_id       text NOT NULL,
        stream_version  integer NOT NULL CHECK (stream_version > 0),
        type            text NOT NULL,
        schema_version  integer NOT NULL DEFAULT 1,
        data            jsonb NOT NULL,
        metadata        jsonb NOT NULL DEFAULT '{}'::jsonb,
        recorded_at     timestamptz NOT NULL DEFAULT now(),
        UNIQUE (stream_id, stream_version)
      )`);
    // Gap-safe readers walk the log in (transaction_id, position) order.
    await q.query(`CREATE INDEX events_tx_position ON events (transaction_id, position)`);
    await q.query(`CREATE INDEX events_type_tx_position ON events (type, transaction_id, position)`);
    // The log is append-only: updates and deletes are refused by the database itself.
    await q.query(`
      CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the event log is append-only'; END $$`);
    await q.query(`
      CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
      FOR EACH ROW EXECUTE FUNCTION events_append_only()`);
    await q.query(`
      CREATE TABLE checkpoints (
        name            text PRIMARY KEY,
        kind            text NOT NULL CHECK (kind IN ('projection', 'reactor')),
        transaction_id  xid8 NOT NULL DEFAULT '0'::xid8,
        position        bigint NOT NULL DEFAULT 0,
        version         integer NOT NULL DEFAULT 1,
        rebuilt_at      timestamptz,
        updated_at      timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE checkpoints`);
    await q.query(`DROP TABLE events`);
    await q.query(`DROP FUNCTION events_append_only()`);
    await q.query(`DROP TABLE streams`);
  }
}
