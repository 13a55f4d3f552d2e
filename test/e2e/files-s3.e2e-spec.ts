import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import sharp from 'sharp';
import request from 'supertest';
import type { ProvisionResult } from '#app/identity';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logInAll, provision, riversideFile, userFile } from '../support/test-app.js';
import { filesUnder, type S3Server, startS3Server } from '../support/s3-server.js';

const MAX = 300_000;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 130, b: 90 } } })
    .png()
    .toBuffer();
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/**
 * Object storage (issue 25, item 4; docs/adr/0010-object-storage.md): with S3_BUCKET set, every file
 * route behaves as on disk, the bytes are in the bucket, and nothing of an upload is under DATA_DIR.
 */
describe('files in an S3-compatible bucket (S3_BUCKET)', () => {
  let s3: S3Server;
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let org: ProvisionResult;
  let tokens: Record<string, string>;
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  /** Signed URLs are absolute under PUBLIC_URL; the test server is reached by path. */
  const path = (url: string) => url.replace('http://api.test', '');
  const upload = (who: string, content: Buffer, name: string) =>
    http().post('/api/files').set(as(who)).attach('file', content, name);
  const download = (url: string) =>
    http()
      .get(path(url))
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
  /** The bucket's key of a file: `<organisation>/<uuid>`, the one whose size is the file's. */
  const keyOf = async (size: number, before: Record<string, number>) => {
    const added = Object.entries(await s3.objects()).filter(([k]) => !(k in before));
    return added.find(([k, s]) => s === size && !/\.(small|medium|large)$/.test(k))?.[0];
  };
  /** The Content-Type the bucket keeps with an object (what it serves to anyone reading the bucket itself). */
  const contentTypeOf = async (key: string) =>
    (await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }))).ContentType;

  beforeAll(async () => {
    s3 = await startS3Server();
    env = await testEnvironment({ ...s3.env, UPLOAD_MAX_BYTES: String(MAX), AUTH_RATE_LIMIT_PER_ADDRESS: '10000' });
    app = await bootStandalone(env.config);
    org = await provision(
      app,
      riversideFile([
        userFile('a', ['create-expenses'], ['north-shop']),
        userFile('admin', ['manage-organisation', 'edit-expense-settings'], ['south']),
      ]),
    );
    tokens = await logInAll(app, ['a', 'admin']);
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await s3?.close();
  });

  it('puts an image and its thumbnails in the bucket and serves all three through signed URLs', async () => {
    const before = await s3.objects();
    const image = await png(600, 400);
    const { body } = await upload('admin', image, 'banner.png').expect(201);
    expect(body.data).toMatchObject({ file_size: image.length, mime: 'image/png' });
    expect(Object.keys(body.data.thumbnails).sort()).toEqual(['medium', 'small']);
    const key = await keyOf(image.length, before);
    expect(key).toMatch(new RegExp(`^${org.organisation.id}/[0-9a-f-]{36}$`));
    expect(await s3.bytes(key!)).toEqual(image);
    const after = await s3.objects();
    expect(
      Object.keys(after)
        .filter((k) => !(k in before))
        .sort(),
    ).toEqual([key, `${key}.medium`, `${key}.small`]);
    for (const k of [key!, `${key}.medium`, `${key}.small`])
      expect([k, await contentTypeOf(k)]).toEqual([k, 'image/png']);

    const original = await download(body.data.signed_url).expect(200);
    expect(original.body).toEqual(image);
    expect(original.headers['content-length']).toBe(String(image.length));
    const small = await download(body.data.thumbnails.small).expect(200);
    expect(small.headers['content-type']).toBe('image/png');
    expect(small.body).toEqual(await s3.bytes(`${key}.small`));
    const meta = await sharp(small.body as Buffer).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(64);
  });

  it('attaches a PDF in the bucket to an expense and serves it from the attachment’s signed URL', async () => {
    const before = await s3.objects();
    const receipt = (await upload('a', PDF, 'receipt.pdf').expect(201)).body.data.id;
    expect(Object.values(await s3.objects()).length).toBe(Object.values(before).length + 1);
    expect(await contentTypeOf((await keyOf(PDF.length, before))!)).toBe('application/pdf');
    const type = (
      await http().post('/api/expenses/types').set(as('admin')).send({ name: 'Travel', position: 1 }).expect(201)
    ).body.id;
    const expense = (
      await http()
        .post('/api/expenses')
        .set(as('a'))
        .send({ type: { id: type }, date: daysAgo(2), amount: 12 })
        .expect(201)
    ).body.id;
    const attached = await http()
      .put(`/api/users/${org.users.a}/expenses/${expense}/attachments/${receipt}`)
      .set(as('a'))
      .expect(200);
    expect(attached.body).toMatchObject({ id: receipt, original_name: 'receipt.pdf', mime: 'application/pdf' });
    const res = await download(attached.body.signed_url).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.body).toEqual(PDF);
  });

  it('makes an image in the bucket the organisation’s logo, its thumbnail served from the bucket', async () => {
    const logo = (await upload('admin', await png(300, 120), 'logo.png').expect(201)).body.data.id;
    const { body } = await http().put('/api/organisation').set(as('admin')).send({ header_logo: logo }).expect(200);
    expect(body.data.header_logo).toMatchObject({ id: logo, thumbnails: { small: expect.any(String) } });
    const small = await download(body.data.header_logo.thumbnails.small).expect(200);
    expect((await sharp(small.body as Buffer).metadata()).width).toBe(64);
    const medium = await download(body.data.header_logo.thumbnails.medium).expect(200);
    expect((await sharp(medium.body as Buffer).metadata()).width).toBe(256);
  });

  it('refuses what it refuses on disk, leaving nothing in the bucket', async () => {
    const before = await s3.objects();
    await upload('admin', Buffer.from('<html><script>alert(1)</script></html>'), 'cat.png').expect(422);
    const big = await upload('admin', Buffer.concat([await png(10, 10), Buffer.alloc(MAX)]), 'big.png').expect(413);
    expect(big.body).toEqual({ message: expect.stringMatching(/larger than 300000 bytes/), status_code: 413 });
    const truncated = (await png(200, 200)).subarray(0, 300);
    await upload('admin', truncated, 'cut.png').expect(422);
    await upload('admin', Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog'), 'cut.pdf').expect(422);
    await upload('admin', Buffer.alloc(0), 'empty.pdf').expect(422);
    await http().post('/api/files').set(as('admin')).field('other', 'x').expect(422);
    await http().post('/api/files').attach('file', PDF, 'a.pdf').expect(401);
    const { body } = await upload('admin', PDF, 'ok.pdf').expect(201);
    const tampered = new URL(body.data.signed_url);
    tampered.searchParams.set('variant', 'small');
    await http().get(path(tampered.toString())).expect(403);
    expect(Object.keys(await s3.objects()).length).toBe(Object.keys(before).length + 1);
  });

  it('writes nothing of any upload under DATA_DIR', () => {
    expect(filesUnder(env.config.dataDir)).toEqual([]);
  });

  it('reports the bucket on /health: up, then down without making the API unready (only file routes need it)', async () => {
    expect((await http().get('/health').expect(200)).body.details.storage).toEqual({ status: 'up', required: false });
    await s3.close();
    const { body } = await http().get('/health').expect(200);
    expect(body.details.storage).toEqual({ status: 'down', error: expect.any(String), required: false });
  });
});
