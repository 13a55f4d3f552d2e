import { Injectable } from '@nestjs/common';
import { AsProjection, op, type Projection, type ProjectionOp, type StoredEvent } from '#app/event-store';
import type { FileEvent } from './files.events.js';

@AsProjection()
@Injectable()
export class FilesProjection implements Projection {
  readonly name = 'files.files';
  readonly version = 1;
  readonly tables = ['files'];
  readonly handles = ['files.FileUploaded'];

  project(stored: StoredEvent): ProjectionOp[] {
    const { data: d } = stored as unknown as FileEvent;
    return [
      op.upsert('files', ['id'], {
        id: d.id, organisation_id: d.organisationId, owner_id: d.ownerId, storage_key: d.storageKey, original_name: d.originalName,
        file_size: d.size, mime: d.mime, thumbnails: d.thumbnails, created_at: stored.recordedAt,
      }),
    ];
  }
}
