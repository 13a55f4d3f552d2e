import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStorage } from './file-storage.js';

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Files under DATA_DIR/files. */
export class LocalFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  async write(key: string, content: Readable): Promise<number> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    let bytes = 0;
    content.on('data', (chunk: Buffer) => (bytes += chunk.length));
    await pipeline(content, createWriteStream(path, { mode: 0o600, flags: 'wx' }));
    return bytes;
  }

  read(key: string): Readable {
    return createReadStream(this.pathOf(key));
  }

  async localPath(key: string): Promise<string> {
    return this.pathOf(key);
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  // Keys are ours, but a path must never leave the root whatever a key says.
  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    const path = resolve(join(this.root, key));
    if (!path.startsWith(resolve(this.root) + sep)) throw new Error(`storage key leaves the root: ${key}`);
    return path;
  }
}
