import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import sharp from 'sharp';
import request from 'supertest';
import type { AppConfig } from '#app/platform';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, provision, riversideFile, userFile } from '../support/test-app.js';
import { runCli } from '../support/run-cli.js';
import { filesUnder, type S3Server, startS3Server } from '../support/s3-server.js';

const SLOW = 120_000;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** `files:to-s3` (issue 25, item 4): an installation whose files are on disk moves them into the bucket. */
describe('npm run cli -- files:to-s3', () => {
  let s3: S3Server;
  let env: TestEnvironment;
  let app: NestFastifyApplication | undefined;
  const uploaded: { id: number; bytes: Buffer; signed_url: string; small: string }[] = [];
  const cli = (args: string[], extra: Record<string, string> = s3.env) => runCli(env, args, extra);
  /** The same installation (database, DATA_DIR), its files now served from the bucket. */
  const withBucket = (): AppConfig => ({
    ...env.config,
    files: {
      ...env.config.files,
      s3: {
        bucket: s3.bucket,
        endpoint: s3.env.S3_ENDPOINT,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: s3.env.AWS_ACCESS_KEY_ID!, secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY! },
      },
    },
  });

  beforeAll(async () => {
    s3 = await startS3Server();
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '10000' });
    // Files uploaded while the installation kept them on disk.
    app = await bootStandalone(env.config);
    await provision(app, riversideFile([userFile('admin', ['manage-organisation'], ['north'])]));
    const token = await logIn(app, 'admin@riverside.example');
    const image = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#5a1ec8' } })
      .png()
      .toBuffer();
    for (const [bytes, name] of [
      [image, 'banner.png'],
      [PDF, 'receipt.pdf'],
    ] as const) {
      const { body } = await request(app.getHttpServer())
        .post('/api/files')
        .auth(token, { type: 'bearer' })
        .attach('file', bytes, name)
        .expect(201);
      uploaded.push({ id: body.data.id, bytes, signed_url: body.data.signed_url, small: body.data.thumbnails.small });
    }
    // The command opens the database itself (in embedded mode, DATA_DIR's): the service is stopped.
    await app.close();
    app = undefined;
  }, SLOW);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await s3?.close();
  });

  it(
    'answers --help, and refuses without S3_BUCKET, without a files folder, or with a bucket it cannot reach',
    async () => {
      const help = await cli(['files:to-s3', '--help'], {});
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toMatch(/^Usage: npm run cli -- files:to-s3 \[data-dir\]/);
      expect(help.stdout).toContain('Exit codes:');

      expect(await cli(['files:to-s3'], {})).toEqual({
        code: 2,
        stdout: '',
        stderr: 'files:to-s3: S3_BUCKET is not set: name the bucket to copy into (docs/operations.md#object-storage)\n',
      });
      const nowhere = await cli(['files:to-s3', `${env.config.dataDir}/nope`]);
      expect(nowhere).toMatchObject({ code: 2, stdout: '' });
      expect(nowhere.stderr).toMatch(/^files:to-s3: no files folder at .*\/nope\/files: is .*\/nope a DATA_DIR\?\n$/);
      const closed = await cli(['files:to-s3'], { ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${await closedPort()}` });
      expect(closed).toMatchObject({ code: 1, stdout: '' });
      expect(closed.stderr).toMatch(
        /^files:to-s3: cannot use the bucket "uvol-test" at http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED.*\n$/,
      );
      const noBucket = await cli(['files:to-s3'], { ...s3.env, S3_BUCKET: 'no-such-bucket' });
      expect(noBucket).toMatchObject({ code: 1, stderr: expect.stringContaining('no such bucket') });
      expect(await s3.objects()).toEqual({});
    },
    SLOW,
  );

  it(
    'copies every file under its key, skips what is there with the same size, and the service then serves them',
    async () => {
      const onDisk = filesUnder(env.config.files.dir, /^$/).sort();
      // The PNG, its small and medium thumbnails, the PDF.
      expect(onDisk).toHaveLength(4);
      const first = await cli(['files:to-s3']);
      expect(first.code).toBe(0);
      const report = JSON.parse(first.stdout);
      expect(report).toEqual({ copied: 4, skipped: 0, bytes: expect.any(Number) });
      expect(first.stderr).toContain('4 files copied');
      const objects = await s3.objects();
      expect(Object.keys(objects).sort()).toEqual(onDisk);
      expect(Object.values(objects).reduce((a, b) => a + b, 0)).toBe(report.bytes);
      // Each object with its content type, as an upload's (the PNG and its thumbnails, the PDF).
      const types = await Promise.all(
        onDisk.map(
          async (key) => (await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }))).ContentType,
        ),
      );
      expect(types.sort()).toEqual(['application/pdf', 'image/png', 'image/png', 'image/png']);

      // Again: nothing to copy. An object of another size (a copy cut short) is put again.
      expect(JSON.parse((await cli(['files:to-s3', env.config.dataDir])).stdout)).toEqual({
        copied: 0,
        skipped: 4,
        bytes: 0,
      });
      await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: onDisk[0], Body: Buffer.from('cut') }));
      expect(JSON.parse((await cli(['files:to-s3'])).stdout)).toMatchObject({ copied: 1, skipped: 3 });

      app = await bootStandalone(withBucket());
      const path = (url: string) => url.replace('http://api.test', '');
      for (const file of uploaded) {
        const res = await request(app.getHttpServer())
          .get(path(file.signed_url))
          .buffer(true)
          .parse((r, cb) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () => cb(null, Buffer.concat(chunks)));
          })
          .expect(200);
        expect(res.body).toEqual(file.bytes);
      }
      await request(app.getHttpServer()).get(path(uploaded[0]!.small)).expect(200).expect('content-type', 'image/png');
    },
    SLOW,
  );
});
