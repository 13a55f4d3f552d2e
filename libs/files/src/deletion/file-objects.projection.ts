import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { FileEvent } from '../files.events.js';
import type { UserAnonymised } from './user-anonymised.js';

/** Every storage key of a file: its bytes, then its thumbnails'. */
export const storageKeysOf = (d: Extract<FileEvent, { type: 'files.FileUploaded' }>['data']): string[] => [
  d.storageKey,
  ...Object.keys(d.thumbnails)
    .sort()
    .map((size) => d.thumbnails[size as keyof typeof d.thumbnails]!.key),
];

/**
 * The stored objects of each file, by storage key (no name, no description), and the deletions
 * owed (docs/privacy.md#what-is-purged-and-file-deletion): identity.UserAnonymised marks that
 * user's rows in the anonymising transaction, so the owed work is in PostgreSQL the moment the
 * request answers. The worker (file-deletion.processor.ts) deletes the objects, then records
 * files.FileObjectsDeleted, which removes the row: a replay gives the same table.
 */
@AsProjection()
@Injectable()
export class FileObjectsProjection extends defineProjection<FileEvent | UserAnonymised>({
  name: 'files.objects',
  version: 2,
  tables: ['file_objects'],
  on: {
    'files.FileUploaded': ({ data: d }) => [
      op.upsert('file_objects', ['file_id'], {
        file_id: d.id,
        organisation_id: d.organisationId,
        owner_id: d.ownerId,
        storage_keys: storageKeysOf(d),
        deletion_owed_since: null,
      }),
    ],
    'identity.UserAnonymised': ({ data: d, recordedAt }) => [
      op.update(
        'file_objects',
        { organisation_id: d.organisationId, owner_id: d.userId },
        { deletion_owed_since: recordedAt },
      ),
    ],
    'files.FileObjectsDeleted': ({ data: d }) => [op.delete('file_objects', { file_id: d.id })],
  },
}) {}
