import { describe, expect, it } from '@jest/globals';
import { fileStream } from '../files.events.js';
import { uploadFileWrite } from './upload-file.write.js';

const file = { storageKey: '1/k', originalName: 'a.png', size: 3, mime: 'image/png', thumbnails: {} };

describe('uploadFileWrite', () => {
  it('given a file kept under a drawn id, then one FileUploaded on a new stream, owned by the caller, nothing read', () => {
    const write = uploadFileWrite({ id: 12, organisationId: 1, ownerId: 7, file });
    expect(write.streamId).toBe(fileStream(12));
    expect(write.expect).toBe('no_stream');
    expect(write.evolve()).toBeNull();
    expect(write.decide()).toEqual([
      { type: 'files.FileUploaded', data: { id: 12, organisationId: 1, ownerId: 7, ...file } },
    ]);
  });
});
