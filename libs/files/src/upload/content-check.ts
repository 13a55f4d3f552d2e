import { open } from 'node:fs/promises';
import sharp, { type SharpOptions } from 'sharp';
import { ValidationError } from '#app/platform';

/**
 * The most pixels an uploaded image may have (100 megapixels: more than any phone camera's
 * ordinary output). Decoding is what costs memory and time, so a larger image is refused before
 * it is decoded, whatever its byte size.
 */
export const MAX_IMAGE_PIXELS = 100_000_000;

/**
 * How every uploaded image is opened, for the check and for thumbnails alike: damaged or
 * truncated pixel data is an error (`failOn: 'error'` also stops at truncation; 'warning' would
 * also refuse images that are merely unusual), and no more than MAX_IMAGE_PIXELS are decoded.
 */
export const IMAGE_INPUT = { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS } as const satisfies SharpOptions;

const unreadable = () => new ValidationError({ file: ['The image cannot be read: it is damaged or incomplete.'] });

/**
 * Decodes the whole image once, before anything is recorded: a file whose magic bytes say
 * "image" but whose content is not one (a truncated PNG, garbage after a JPEG header, a GIF/JS
 * polyglot) is refused here as a 422 rather than failing later in the thumbnailer.
 */
export async function checkImage(source: string | Buffer): Promise<void> {
  let width = 0;
  let height = 0;
  try {
    // The header only, without the pixel limit: a too large image is told so, not called damaged.
    ({ width = 0, height = 0 } = await sharp(source, { ...IMAGE_INPUT, limitInputPixels: false }).metadata());
  } catch {
    throw unreadable();
  }
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new ValidationError({
      file: [`The image is too large: ${width}×${height} pixels, at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`],
    });
  }
  if (width === 0 || height === 0) throw unreadable();
  try {
    // stats() reads every pixel (of the first frame, the one thumbnails are made of) without
    // keeping them: the cheapest full decode sharp offers.
    await sharp(source, IMAGE_INPUT).stats();
  } catch {
    throw unreadable();
  }
}

/** Where a PDF's end-of-file marker must be: within its last 1024 bytes, as PDF readers look for it. */
const PDF_TAIL = 1024;

/** A PDF must end with its `%%EOF` marker: without it the file was cut short. */
export async function checkPdf(source: string | Buffer, size: number): Promise<void> {
  if (!(await tail(source, size)).includes('%%EOF')) {
    throw new ValidationError({ file: ['The PDF is incomplete: it has no %%EOF marker at its end.'] });
  }
}

async function tail(source: string | Buffer, size: number): Promise<Buffer> {
  const length = Math.min(size, PDF_TAIL);
  if (typeof source !== 'string') return source.subarray(size - length);
  const handle = await open(source, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, size - length);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
