import sharp from 'sharp';
import type { Thumbnail } from '../files.events.js';
import type { FileStorage } from '../storage/file-storage.js';
import { IMAGE_INPUT } from './content-check.js';

/** Longest side of each thumbnail size, in pixels. */
export const THUMBNAIL_SIZES = { small: 64, medium: 256, large: 1024 } as const;
export type ThumbnailSize = keyof typeof THUMBNAIL_SIZES;

/**
 * Scaled-down copies of an image, for the sizes smaller than the image itself (a thumbnail is
 * never larger than its original). JPEG stays JPEG; anything else becomes PNG (keeps transparency).
 */
export async function makeThumbnails(
  storage: FileStorage,
  key: string,
  source: string | Buffer,
  mime: string,
): Promise<Partial<Record<ThumbnailSize, Thumbnail>>> {
  const { width = 0, height = 0 } = await sharp(source, IMAGE_INPUT).metadata();
  const longest = Math.max(width, height);
  const jpeg = mime === 'image/jpeg';
  const out: Partial<Record<ThumbnailSize, Thumbnail>> = {};
  for (const [size, edge] of Object.entries(THUMBNAIL_SIZES) as [ThumbnailSize, number][]) {
    if (edge >= longest) continue;
    const image = sharp(source, { ...IMAGE_INPUT, animated: false })
      .rotate()
      .resize(edge, edge, { fit: 'inside' });
    const { data, info } = await (jpeg ? image.jpeg({ quality: 82 }) : image.png()).toBuffer({
      resolveWithObject: true,
    });
    const thumbKey = `${key}.${size}`;
    const thumbMime = jpeg ? 'image/jpeg' : 'image/png';
    await storage.put(thumbKey, data, thumbMime);
    out[size] = { key: thumbKey, width: info.width, height: info.height, mime: thumbMime, size: data.length };
  }
  return out;
}
