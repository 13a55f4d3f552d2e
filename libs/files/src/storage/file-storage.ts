import type { Readable } from 'node:stream';

/** An upload as taken in: its size, and where the checks and the thumbnailer read it (a path on disk, or the bytes). */
export interface Received {
  readonly size: number;
  readonly source: string | Buffer;
}

/**
 * Where file bytes live: the local disk (DATA_DIR) or an S3-compatible bucket (S3_BUCKET;
 * docs/adr/0010-object-storage.md). Keys are made by the service (`<organisation>/<uuid>…`), never
 * from a client's file name.
 */
export interface FileStorage {
  /** Takes in an upload under `key`: the disk writes it there now; an object store holds it in memory until `keep`. */
  receive(key: string, content: Readable): Promise<Received>;
  /**
   * Stores for good what `receive` took in, once it passed the checks (nothing left to do on disk).
   * `contentType` is the file's mime, as the checks found it; an object store keeps it with the object.
   */
  keep(key: string, received: Received, contentType: string): Promise<void>;
  /** Stores bytes the service made (thumbnails), of `contentType`. */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  read(key: string): Promise<Readable>;
  /** Removes the key if it is there. */
  remove(key: string): Promise<void>;
}

export const FILE_STORAGE = Symbol('FILE_STORAGE');
