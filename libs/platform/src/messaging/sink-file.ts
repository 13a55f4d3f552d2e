import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes one outgoing message into a local sink folder, for runs without a mail server or SMS
 * gateway. Names start with the time so a listing reads in sending order; the random tail keeps
 * two messages of the same millisecond apart. Colons are left out of the timestamp because some
 * file systems refuse them. The messages carry sign-in codes, so only the owner may read them.
 */
export async function writeSinkFile(
  dir: string,
  extension: string,
  content: string | Buffer,
  at = new Date(),
): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stamp = at.toISOString().replaceAll(':', '-');
  const file = join(dir, `${stamp}-${randomBytes(4).toString('hex')}.${extension}`);
  await writeFile(file, content, { mode: 0o600, flag: 'wx' });
  return file;
}
