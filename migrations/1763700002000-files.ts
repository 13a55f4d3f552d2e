import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Uploaded files (a projection of files.FileUploaded); the bytes live in the file storage. */
export class Files1763700002000 implements MigrationInterface {
  name = 'Files1763700002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE files_ids`);
    await q.query(`
      CREATE TABLE files (
        id bigint PRIMARY KEY, organisation_id bigint NOT NULL, owner_id bigint NOT NULL,
        storage_key text NOT NULL, original_name text NOT NULL, file_size bigint NOT NULL,
        mime text NOT NULL, description text NOT NULL DEFAULT '', thumbnails jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX files_organisation ON files (organisation_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE files`);
    await q.query(`DROP SEQUENCE files_ids`);
  }
}
