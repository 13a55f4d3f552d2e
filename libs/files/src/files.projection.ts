import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { UserAnonymised } from './deletion/user-anonymised.js';
import type { FileUploaded } from './files.events.js';

/**
 * Uploaded files and their thumbnails. An anonymised user's file records go, names included
 * (docs/privacy.md#anonymising-a-user, 3); their bytes are owed to the worker (file_objects).
 * The handler of identity.UserAnonymised came with no version bump: no such event existed before it.
 */
@AsProjection()
@Injectable()
export class FilesProjection extends defineProjection<FileUploaded | UserAnonymised>({
  name: 'files.files',
  version: 1,
  tables: ['files'],
  on: {
    'files.FileUploaded': ({ data: d, recordedAt }) => [
      op.upsert('files', ['id'], {
        id: d.id,
        organisation_id: d.organisationId,
        owner_id: d.ownerId,
        storage_key: d.storageKey,
        original_name: d.originalName,
        file_size: d.size,
        mime: d.mime,
        thumbnails: d.thumbnails,
        created_at: recordedAt,
      }),
    ],
    'identity.UserAnonymised': ({ data: d }) => [
      op.delete('files', { organisation_id: d.organisationId, owner_id: d.userId }),
    ],
  },
}) {}
