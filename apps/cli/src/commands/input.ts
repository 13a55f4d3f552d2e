import { readFile } from 'node:fs/promises';
import { InputError } from '../usage.js';

/**
 * A JSON file, or the one-line reason it cannot be used (exit 2). Read before the application
 * is loaded (the commands' checks) and again by the command: a bad path answers at once, without
 * opening the database, which another process may hold.
 */
export async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      { ENOENT: 'no such file', EACCES: 'permission denied', EPERM: 'permission denied', EISDIR: 'it is a folder' }[
        code ?? ''
      ] ?? (err as Error).message;
    throw new InputError(`cannot read ${path}: ${why}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InputError(`${path} is not JSON: ${(err as Error).message}`);
  }
}
