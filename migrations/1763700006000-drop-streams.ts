import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The concurrency gate moves to the events' own unique (stream_id, stream_version) key
 * (docs/adr/0004-events-are-the-gate.md): the `streams` table only repeated, per stream, the
 * highest version of its events, at the cost of one more row write on every append.
 */
export class DropStreams1763700006000 implements MigrationInterface {
  name = 'DropStreams1763700006000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE streams`);
  }

  /** Rebuilt from the log; the stream type was never read, so the stream id's prefix stands in for it. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE streams (
        stream_id   text PRIMARY KEY,
        stream_type text NOT NULL,
        version     integer NOT NULL CHECK (version >= 0),
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      INSERT INTO streams (stream_id, stream_type, version, created_at, updated_at)
      SELECT stream_id, regexp_replace(stream_id, '-[^-]*$', ''), max(stream_version), min(recorded_at), max(recorded_at)
        FROM events GROUP BY stream_id`);
  }
}
