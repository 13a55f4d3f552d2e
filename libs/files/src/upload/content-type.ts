import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';

/** What may be uploaded, judged by the content's magic bytes, never by the name or the client's header. */
export const ACCEPTED = new Map([
  ['image/png', 'image'],
  ['image/jpeg', 'image'],
  ['image/gif', 'image'],
  ['image/webp', 'image'],
  ['application/pdf', 'document'],
] as const);

/** `source`: a path on disk, or the bytes (object storage holds an upload in memory). */
export async function sniff(source: string | Buffer): Promise<{ mime: string; image: boolean } | null> {
  const found = typeof source === 'string' ? await fileTypeFromFile(source) : await fileTypeFromBuffer(source);
  const kind = found ? ACCEPTED.get(found.mime as never) : undefined;
  return found && kind ? { mime: found.mime, image: kind === 'image' } : null;
}

/** A display name from the client's file name: no folders, no control characters, bounded length. */
export function displayName(clientName: string | undefined): string {
  const base = (clientName ?? '').split(/[/\\]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'file').slice(0, 255);
}
