import { type FileUploaded, fileStream } from '../files.events.js';

/** An upload as its record decides it: the id drawn, the bytes kept, the content sniffed and checked. */
export interface Upload {
  readonly id: number;
  readonly organisationId: number;
  readonly ownerId: number;
  readonly file: Omit<FileUploaded['data'], 'id' | 'organisationId' | 'ownerId'>;
}

/** A new stream under a drawn id, appended without reading it ('no_stream'): there is no state to fold. */
export function uploadFileWrite({ id, organisationId, ownerId, file }: Upload) {
  const event: FileUploaded = { type: 'files.FileUploaded', data: { id, organisationId, ownerId, ...file } };
  return {
    streamId: fileStream(id),
    evolve: (): null => null,
    decide: () => [event],
    expect: 'no_stream' as const,
  };
}
