export interface Thumbnail {
  readonly key: string;
  readonly width: number;
  readonly height: number;
  readonly mime: string;
  readonly size: number;
}

export type FileEvent =
  | FileUploaded
  /**
   * The worker removed the file's objects (bytes and thumbnails) from the storage after its owner's
   * anonymisation (docs/privacy.md#what-is-purged-and-file-deletion): in the log, so a replay of
   * file_objects owes nothing the worker already deleted.
   */
  | { type: 'files.FileObjectsDeleted'; data: { id: number; organisationId: number } };

export type FileUploaded = {
  type: 'files.FileUploaded';
  data: {
    id: number;
    organisationId: number;
    ownerId: number;
    storageKey: string;
    originalName: string;
    size: number;
    /** Sniffed from the content, never taken from the client. */
    mime: string;
    thumbnails: Partial<Record<'small' | 'medium' | 'large', Thumbnail>>;
  };
};

export const fileStream = (id: number) => `files.File-${id}`;
