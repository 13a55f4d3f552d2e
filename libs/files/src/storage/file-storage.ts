import type { Readable } from 'node:stream';

/**
 * Where file bytes live. Keys are made by the service (`<organisation>/<uuid>…`), never from a
 * client's file name. Local disk now; an object store can implement the same four calls.
 */
export interface FileStorage {
  /** Writes the stream; resolves with the bytes written. */
  write(key: string, content: Readable): Promise<number>;
  read(key: string): Readable;
  /** A local path for tools that need one (type sniffing, thumbnails); object stores download first. */
  localPath(key: string): Promise<string>;
  remove(key: string): Promise<void>;
}

export const FILE_STORAGE = Symbol('FILE_STORAGE');
