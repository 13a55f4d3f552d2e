import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import sharp from 'sharp';
import request from 'supertest';
import { UrlSigner } from '#app/files';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, organisationFile, provision } from '../support/test-app.js';

const PASSWORD = 'a long enough password';
const MAX = 300_000;
const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .png()
    .toBuffer();
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('files (POST /api/files, signed downloads)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  const tokens: Record<string, string> = {};
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  /** Signed URLs are absolute under PUBLIC_URL; the test server is reached by path. */
  const path = (url: string) => url.replace('http://api.test', '');

  beforeAll(async () => {
    env = await testEnvironment({ UPLOAD_MAX_BYTES: String(MAX), AUTH_RATE_LIMIT_PER_ADDRESS: '10000' });
    app = await bootStandalone(env.config);
    await provision(
      app,
      organisationFile('riverside', [
        { key: 'admin', email: 'admin@riverside.example', permissions: ['manage-organisation'] },
      ]),
    );
    await provision(
      app,
      organisationFile('hillside', [
        { key: 'other', email: 'other@hillside.example', permissions: ['manage-organisation'] },
      ]),
    );
    for (const [who, email] of [
      ['admin', 'admin@riverside.example'],
      ['other', 'other@hillside.example'],
    ]) {
      const pre = await http().post('/auth/api/pre-auth-token').send({ email, password: PASSWORD }).expect(200);
      tokens[who!] = (await http().post('/auth/api/token').send({ token: pre.body.token }).expect(200)).body.token;
    }
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  const upload = (who: string, content: Buffer, name: string) =>
    http().post('/api/files').set(as(who)).attach('file', content, name);

  it('stores an image and serves smaller thumbnails through signed URLs', async () => {
    const { body } = await upload('admin', await png(600, 400), 'banner.png').expect(201);
    expect(body.data).toEqual({
      id: expect.any(Number),
      original_name: 'banner.png',
      file_size: expect.any(Number),
      mime: 'image/png',
      description: '',
      thumbnails: {
        small: expect.stringMatching(/^http:\/\/api\.test\/api\/files\/\d+\/content\?/),
        medium: expect.any(String),
      },
      signed_url: expect.any(String),
    });
    for (const [size, edge] of [
      ['small', 64],
      ['medium', 256],
    ] as const) {
      const res = await http()
        .get(path(body.data.thumbnails[size]))
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        })
        .expect(200);
      expect(res.headers['content-type']).toBe('image/png');
      const meta = await sharp(res.body as Buffer).metadata();
      expect(Math.max(meta.width!, meta.height!)).toBe(edge);
      expect((res.body as Buffer).length).toBeLessThan(body.data.file_size);
    }
    const original = await http().get(path(body.data.signed_url)).expect(200);
    expect(original.headers['content-disposition']).toBe(`inline; filename="banner.png"; filename*=UTF-8''banner.png`);
    expect(Number(original.headers['content-length'])).toBe(body.data.file_size);
  });

  it('takes a PDF, with no thumbnails, and never uses the client’s name as a path', async () => {
    const { body } = await upload('admin', PDF, '../../etc/passwd.pdf').expect(201);
    expect(body.data).toMatchObject({ mime: 'application/pdf', original_name: 'passwd.pdf', thumbnails: {} });
    expect((await http().get(path(body.data.signed_url)).expect(200)).headers['content-type']).toBe('application/pdf');
  });

  it('refuses a forged type, an oversized file, a missing file and a non-multipart body', async () => {
    const forged = await upload('admin', Buffer.from('<html><script>alert(1)</script></html>'), 'cat.png').expect(422);
    expect(forged.body).toEqual({
      message: expect.any(String),
      status_code: 422,
      errors: { file: [expect.stringMatching(/image|PDF/)] },
    });
    const big = await upload('admin', Buffer.concat([await png(10, 10), Buffer.alloc(MAX)]), 'big.png').expect(413);
    expect(big.body).toEqual({ message: expect.stringMatching(/larger than 300000 bytes/), status_code: 413 });
    await http().post('/api/files').set(as('admin')).field('other', 'x').expect(422);
    await http().post('/api/files').set(as('admin')).send({ file: 'x' }).expect(400);
    await http().post('/api/files').attach('file', PDF, 'a.pdf').expect(401);
  });

  it('refuses a tampered or expired signature with 403', async () => {
    const { body } = await upload('admin', await png(100, 100), 'logo.png').expect(201);
    const url = new URL(body.data.signed_url);
    const tampered = new URL(url);
    tampered.searchParams.set('variant', 'small');
    await http().get(path(tampered.toString())).expect(403);
    const otherFile = new URL(url.toString().replace(`/files/${body.data.id}/`, `/files/${body.data.id + 1}/`));
    await http().get(path(otherFile.toString())).expect(403);
    const expired = app.get(UrlSigner).url(body.data.id, 'original', Date.now() - 2 * 3600_000);
    const res = await http().get(path(expired)).expect(403);
    expect(res.body).toEqual({ message: 'This link has expired.', status_code: 403 });
    await http().get(`/api/files/${body.data.id}/content`).expect(403);
  });

  it('makes another organisation’s file a 404 everywhere it can be named', async () => {
    const { body } = await upload('admin', await png(300, 300), 'mine.png').expect(201);
    await http().get(`/api/files/${body.data.id}`).set(as('admin')).expect(200);
    await http().get(`/api/files/${body.data.id}`).set(as('other')).expect(404);
    await http().put('/api/organisation').set(as('other')).send({ header_logo: body.data.id }).expect(404);
    const logo = await http()
      .put('/api/organisation')
      .set(as('admin'))
      .send({ header_logo: body.data.id, logo: { id: body.data.id } })
      .expect(200);
    expect(logo.body.data.header_logo).toEqual({
      id: body.data.id,
      original_name: 'mine.png',
      file_size: body.data.file_size,
      mime: 'image/png',
      description: '',
      thumbnails: { small: expect.any(String), medium: expect.any(String) },
    });
    const pdf = await upload('admin', PDF, 'doc.pdf').expect(201);
    await http().put('/api/organisation').set(as('admin')).send({ logo: pdf.body.data.id }).expect(422);
  });
});
