import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { FileEvent } from './files.events.js';

/** Uploaded files and their thumbnails. */
@AsProjection()
@Injectable()
export class FilesProjection extends defineProjection<FileEvent>({
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
  },
}) {}
