import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where each file is referenced (the files context's projection `files.references`, fed by the
 * expenses' attachment events and the organisation's settings events): who may read a file
 * depends on it. Filled here from the read tables those events already built, which is what a
 * replay of the projection writes, so an upgraded site needs no replay.
 */
export class FileReferences1763700007200 implements MigrationInterface {
  name = 'FileReferences1763700007200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE file_references (
        organisation_id bigint NOT NULL,
        referrer text NOT NULL,
        referrer_id text NOT NULL,
        file_id bigint NOT NULL,
        PRIMARY KEY (organisation_id, referrer, referrer_id, file_id))`);
    await q.query(`CREATE INDEX file_references_file ON file_references (file_id)`);
    await q.query(`
      INSERT INTO file_references (organisation_id, referrer, referrer_id, file_id)
      SELECT organisation_id, 'expense', expense_id::text, file_id FROM expense_attachments`);
    await q.query(`
      INSERT INTO file_references (organisation_id, referrer, referrer_id, file_id)
      SELECT organisation_id, 'organisation', name, (value #>> '{}')::bigint FROM organisation_settings
       WHERE name IN ('header_logo', 'logo') AND jsonb_typeof(value) = 'number'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE file_references`);
  }
}
