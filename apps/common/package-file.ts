import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the processes read from package.json: the version (`--version`) and the Node versions it runs on. */
export interface PackageFile {
  readonly version: string;
  readonly engines?: { readonly node?: string };
}

/**
 * package.json, found by walking up from this file: it is two folders up in the sources and three
 * in dist (the Docker image copies it beside dist as well). Node built-ins only: the entry points
 * read it before anything else is loaded (supported-node.ts).
 */
export function packageFile(): PackageFile {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as PackageFile;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
  }
}
