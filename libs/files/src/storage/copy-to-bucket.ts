import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { HeadBucketCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { sniff } from '../upload/content-type.js';

export interface CopyReport {
  /** Objects put. */
  readonly copied: number;
  /** Files the bucket held already, with the same size. */
  readonly skipped: number;
  /** Bytes put. */
  readonly bytes: number;
}

/** Why the bucket cannot be used, in a few words, or undefined when it answers. */
export async function bucketProblem(client: S3Client, bucket: string): Promise<string | undefined> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    return undefined;
  } catch (err) {
    return describeS3Error(err);
  }
}

/** An S3 or network error as one short phrase (the SDK's messages are often empty for HEAD requests). */
export function describeS3Error(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  if (status === 404) return 'no such bucket';
  if (status === 403) return 'access denied (check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)';
  if (status === 301 || status === 400) return `refused with HTTP ${status} (check S3_REGION and S3_FORCE_PATH_STYLE)`;
  const code = e.code ?? (e as { cause?: { code?: string } }).cause?.code;
  return (
    [code, e.message && e.message !== code ? e.message : undefined, status && `HTTP ${status}`]
      .filter(Boolean)
      .join(': ') ||
    e.name ||
    String(err)
  );
}

/**
 * Copies every file under `dir` (a DATA_DIR's `files` folder) into the bucket under the key the
 * disk storage gave it (its path below `dir`), so the records find them. A file whose object is
 * there already with the same size is skipped: running it again after a failure finishes the job.
 * Each object gets its content type from its bytes, as an upload's does (docs/adr/0010-object-storage.md).
 */
export async function copyFilesToBucket(
  client: S3Client,
  bucket: string,
  dir: string,
  onFile: (key: string, copied: boolean) => void = () => undefined,
): Promise<CopyReport> {
  let [copied, skipped, bytes] = [0, 0, 0];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const path of files) {
    const key = relative(dir, path).split(sep).join('/');
    const { size } = await stat(path);
    if ((await sizeInBucket(client, bucket, key)) === size) {
      skipped += 1;
      onFile(key, false);
      continue;
    }
    // Files are at most UPLOAD_MAX_BYTES: read whole, put with their length.
    const data = await readFile(path);
    const type = (await sniff(data))?.mime;
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: data, ContentLength: data.length, ContentType: type }),
    );
    copied += 1;
    bytes += data.length;
    onFile(key, true);
  }
  return { copied, skipped, bytes };
}

async function sizeInBucket(client: S3Client, bucket: string, key: string): Promise<number | undefined> {
  try {
    return (await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).ContentLength;
  } catch (err) {
    if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
    throw err;
  }
}
