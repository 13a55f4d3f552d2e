import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStorage, Received } from './file-storage.js';

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Files under DATA_DIR/files. */
export class LocalFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  async receive(key: string, content: Readable): Promise<Received> {
    const path = await this.parentMade(key);
    let size = 0;
    content.on('data', (chunk: Buffer) => (size += chunk.length));
    await pipeline(content, createWriteStream(path, { mode: 0o600, flags: 'wx' }));
    return { size, source: path };
  }

  async keep(): Promise<void> {
    // receive wrote the file where it belongs.
  }

  // The content type is in the file's record; a file on disk has nowhere to keep it.
  async put(key: string, data: Buffer): Promise<void> {
    await writeFile(await this.parentMade(key), data, { mode: 0o600, flag: 'wx' });
  }

  async read(key: string): Promise<Readable> {
    return createReadStream(this.pathOf(key));
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private async parentMade(key: string): Promise<string> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    return path;
  }

  // Keys are ours, but a path must never leave the root whatever a key says.
  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    const path = resolve(join(this.root, key));
    if (!path.startsWith(resolve(this.root) + sep)) throw new Error(`storage key leaves the root: ${key}`);
    return path;
  }
}
