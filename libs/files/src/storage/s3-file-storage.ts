import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { type AppConfig, StorageDependency } from '#app/platform';
import type { FileStorage, Received } from './file-storage.js';

export type S3Config = NonNullable<AppConfig['files']['s3']>;

/**
 * A client for the configured bucket. With an endpoint (MinIO and other non-AWS stores), checksums
 * are sent only where S3 requires them: the SDK's newer default trailers are not understood everywhere.
 */
export function s3Client(config: S3Config): S3Client {
  const other = config.endpoint !== undefined;
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    ...(other && { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }),
  });
}

/**
 * Files in an S3-compatible bucket, under the same keys as on disk. An upload is held in memory
 * (at most UPLOAD_MAX_BYTES: the multipart limit ends it there) while it is checked and its
 * thumbnails are made, then put: nothing of it touches DATA_DIR.
 */
export class S3FileStorage extends StorageDependency implements FileStorage {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {
    super();
  }

  async receive(_key: string, content: Readable): Promise<Received> {
    const bytes = await buffer(content);
    return { size: bytes.length, source: bytes };
  }

  async keep(key: string, received: Received, contentType: string): Promise<void> {
    if (typeof received.source === 'string') throw new Error('S3FileStorage.keep: expected the bytes, got a path');
    await this.put(key, received.source, contentType);
  }

  /** With its content type: without one, S3 stores application/octet-stream, and so serves it to whoever reads the bucket. */
  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: data,
        ContentLength: data.length,
        ContentType: contentType,
      }),
    );
  }

  async read(key: string): Promise<Readable> {
    const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (!(Body instanceof Readable)) throw new Error(`no body for object ${key}`);
    return Body;
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** Throws unless the bucket answers (/health, through the dependency monitor). */
  async probe(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  /** Nest calls it on shutdown: the client's kept-alive sockets would hold the process open. */
  onModuleDestroy(): void {
    this.client.destroy();
  }
}
