import type { Readable } from 'node:stream';
import { DomainError, ValidationError } from '#app/platform';
import type { FileStorage, Received } from '../storage/file-storage.js';

/** A part of a multipart body, as @fastify/multipart's `req.parts()` yields them. */
export type UploadPart =
  | {
      readonly type: 'file';
      readonly fieldname: string;
      readonly filename?: string;
      readonly file: Readable & { truncated?: boolean };
    }
  | { readonly type: 'field'; readonly fieldname: string };

export const onlyOneFile = () => new ValidationError({ file: ['Only one file per upload.'] });

/**
 * What a failure of the multipart parser means for the client: a second file part (the plugin's
 * files limit is 1) is a 422, an oversized file a 413, too many parts or fields the plugin's own
 * 413; anything else it throws (busboy's plain errors: no boundary, a body that ends before its
 * closing boundary, a boundary too long to search for; the plugin's premature close and bad JSON
 * field, a 406 otherwise) is a malformed request, a 400.
 */
export function parserRefusal(err: unknown, tooLarge: () => Error): Error {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'FST_FILES_LIMIT') return onlyOneFile();
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return err as Error;
  return new DomainError(
    'bad_request',
    'The multipart body is malformed: send multipart/form-data with a boundary, ending with the closing boundary.',
  );
}

/**
 * Reads every part of the body, writing the one `file` part with `write`. Iterating to the end
 * matters: a second file, or a body broken after the file, only shows there.
 * Errors of the parser (the iterator's, or the file stream's) become refusals; errors of `write`
 * itself (the disk) stay what they are.
 */
export async function receiveFile<Written>(
  parts: AsyncIterable<UploadPart>,
  write: (file: Readable & { truncated?: boolean }) => Promise<Written>,
  tooLarge: () => Error,
): Promise<{ received: Written; clientName: string | undefined } | null> {
  const iterator = parts[Symbol.asyncIterator]();
  const next = () => iterator.next().catch((err: unknown) => Promise.reject(parserRefusal(err, tooLarge)));
  let received: { received: Written; clientName: string | undefined } | null = null;
  let files = 0;
  try {
    for (let step = await next(); !step.done; step = await next()) {
      const part = step.value;
      if (part.type !== 'file') continue;
      files += 1;
      if (files > 1) {
        part.file.resume();
        throw onlyOneFile();
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      // The parser reports a body cut short by emitting an error on the file stream, without
      // destroying it (a pipeline destroys it, reading it into memory does not): noted here.
      let streamError: unknown;
      part.file.once('error', (err) => (streamError = err));
      try {
        received = { received: await write(part.file), clientName: part.filename };
      } catch (err) {
        // The file stream's own error is the body's fault, not the storage's.
        throw err === streamError || part.file.errored === err ? parserRefusal(err, tooLarge) : err;
      }
    }
  } finally {
    await iterator.return?.();
  }
  return received;
}

/**
 * The body's one file part streamed into the storage under `key`: over `maxBytes` is a 413, no file
 * part or an empty one a 422.
 */
export async function receiveUpload(
  storage: Pick<FileStorage, 'receive'>,
  key: string,
  parts: AsyncIterable<UploadPart>,
  maxBytes: number,
): Promise<{ received: Received; clientName: string | undefined }> {
  const tooLarge = () => new DomainError('payload_too_large', `The file is larger than ${maxBytes} bytes.`);
  const write = async (content: Readable & { truncated?: boolean }) => {
    let received: Received;
    try {
      received = await storage.receive(key, content);
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      throw err;
    }
    if (content.truncated) throw tooLarge();
    return received;
  };
  const file = await receiveFile(parts, write, tooLarge);
  if (!file) throw new ValidationError({ file: ['The file field is required.'] });
  if (file.received.size === 0) throw new ValidationError({ file: ['The file is empty.'] });
  return file;
}
