import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Privacy (docs/privacy.md#what-is-purged-and-file-deletion): the stored objects of each file (its
 * bytes and its thumbnails, by storage key), with no name or description. A projection of the
 * files context (`files.objects`): files.FileUploaded adds a row; identity.UserAnonymised marks
 * the rows of that user's files `deletion_owed_since`, in the anonymising transaction, while the
 * file records themselves go. That mark is owed work: the worker deletes the objects, then the row,
 * and its periodic sweep of this table finds whatever a queue lost. Filled here from `files`, which
 * is what a replay of the projection writes, so an upgraded site needs no replay.
 */
export class FileObjects1763700025500 implements MigrationInterface {
  name = 'FileObjects1763700025500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE file_objects (
        file_id bigint PRIMARY KEY, organisation_id bigint NOT NULL, owner_id bigint NOT NULL,
        storage_keys jsonb NOT NULL, deletion_owed_since timestamptz)`);
    await q.query(`CREATE INDEX file_objects_owner ON file_objects (organisation_id, owner_id)`);
    await q.query(
      `CREATE INDEX file_objects_owed ON file_objects (deletion_owed_since) WHERE deletion_owed_since IS NOT NULL`,
    );
    await q.query(`
      INSERT INTO file_objects (file_id, organisation_id, owner_id, storage_keys)
      SELECT f.id, f.organisation_id, f.owner_id,
             to_jsonb(ARRAY[f.storage_key] || coalesce((SELECT array_agg(t.value ->> 'key' ORDER BY t.key)
                                                           FROM jsonb_each(f.thumbnails) t), '{}'))
        FROM files f`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE file_objects`);
  }
}
