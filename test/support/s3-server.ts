import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** A real S3 protocol server for one test file: its own folder, a free port on 127.0.0.1, one bucket. */
export interface S3Server {
  readonly bucket: string;
  /** The variables that point the service at it. */
  readonly env: Record<string, string>;
  readonly client: S3Client;
  /** Every object of the bucket: key → size. */
  objects(): Promise<Record<string, number>>;
  bytes(key: string): Promise<Buffer>;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'uvol-test'): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'uvol-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  let closed = false;
  // s3rver accepts these credentials only.
  const env = {
    S3_BUCKET: bucket,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  };
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    bucket,
    env,
    client,
    async objects() {
      const found: Record<string, number> = {};
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        for (const o of page.Contents ?? []) found[o.Key!] = o.Size!;
        token = page.NextContinuationToken;
      } while (token);
      return found;
    },
    async bytes(key) {
      const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await Body!.transformToByteArray());
    },
    /** Stops the server (a second call does nothing). */
    async close() {
      if (closed) return;
      closed = true;
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Files under `dir` (relative paths), leaving out `except` (the embedded database, the generated signing key). */
export function filesUnder(dir: string, except: RegExp = /^(pglite\/|jwt-secret$)/): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(dir, join(e.parentPath, e.name)))
      .filter((path) => !except.test(path));
  } catch {
    return [];
  }
}
