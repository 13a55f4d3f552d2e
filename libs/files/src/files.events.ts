export interface Thumbnail {
  readonly key: string;
  readonly width: number;
  readonly height: number;
  readonly mime: string;
  readonly size: number;
}

export type FileEvent = {
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
