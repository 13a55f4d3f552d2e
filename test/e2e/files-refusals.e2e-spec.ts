import { readdirSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import sharp from 'sharp';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, organisationFile, provision } from '../support/test-app.js';
import { eventCount } from '../support/nothing-written.js';

/** Deterministic noise, so a PNG of it does not compress to almost nothing. */
const noise = (bytes: number) =>
  Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 7919 + (i >> 3) * 104729) & 0xff));
const noisyPng = (width: number, height: number) =>
  sharp(noise(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();

/** A valid PNG whose header (CRC mended) claims other dimensions than its pixels. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const buf = Buffer.from(
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c81e5a' } })
      .png()
      .toBuffer(),
  );
  buf.writeUInt32BE(width, 16);
  buf.writeUInt32BE(height, 20);
  buf.writeUInt32BE(crc32(buf.subarray(12, 29)), 29);
  return buf;
}

const JPEG_HEADER_THEN_GARBAGE = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  noise(4000),
]);
const WEBP_HEADER_THEN_GARBAGE = (() => {
  const body = Buffer.concat([Buffer.from('WEBPVP8 '), Buffer.from([0xa0, 0x0f, 0, 0]), noise(4000)]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF'), size, body]);
})();
/** Starts as a GIF for a type sniffer, runs as a script in a browser. */
const GIF_JS_POLYGLOT = Buffer.from(`GIF89a=1;alert(document.cookie);//${'/'.repeat(200)}`);
const TRUNCATED_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const refusal = (status: number, field?: RegExp) => ({
  message: expect.any(String),
  status_code: status,
  ...(field && { errors: { file: [expect.stringMatching(field)] } }),
});

describe('files: uploads refused after the type check and broken multipart (issue 10, item 6)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let token: string;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '10000' });
    app = await bootStandalone(env.config);
    await provision(app, organisationFile('riverside', [{ key: 'vol', email: 'vol@riverside.example' }]));
    token = await logIn(app, 'vol@riverside.example');
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  const stored = () => {
    try {
      return readdirSync(env.config.files.dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
        .length;
    } catch {
      return 0;
    }
  };
  const events = () => eventCount(app.get(DataSource));

  /** Runs `send`, expects `status` and `body`, and that nothing was stored or appended. */
  async function refused(send: () => request.Test, status: number, body: unknown) {
    const [filesBefore, eventsBefore] = [stored(), await events()];
    const res = await send();
    expect({ status: res.status, body: res.body }).toEqual({ status, body });
    expect({ files: stored(), events: await events() }).toEqual({ files: filesBefore, events: eventsBefore });
  }
  const upload = (content: Buffer, name: string) => () =>
    http().post('/api/files').auth(token, { type: 'bearer' }).attach('file', content, name);
  const raw = (contentType: string, body: Buffer | string) => () =>
    http().post('/api/files').auth(token, { type: 'bearer' }).set('content-type', contentType).send(Buffer.from(body));

  it('refuses an image whose header claims 100000×100000 pixels', async () => {
    await refused(upload(await pngClaiming(100_000, 100_000), 'huge.png'), 422, refusal(422, /too large|pixels/));
  });

  it('refuses a truncated PNG', async () => {
    const whole = await noisyPng(200, 200);
    await refused(
      upload(whole.subarray(0, Math.floor(whole.length * 0.6)), 'cut.png'),
      422,
      refusal(422, /cannot be read|damaged|incomplete/),
    );
  });

  it('refuses garbage behind a JPEG or a WebP header, and a GIF/JS polyglot', async () => {
    await refused(upload(JPEG_HEADER_THEN_GARBAGE, 'a.jpg'), 422, refusal(422, /cannot be read|damaged|incomplete/));
    await refused(upload(WEBP_HEADER_THEN_GARBAGE, 'a.webp'), 422, refusal(422, /cannot be read|damaged|incomplete/));
    await refused(upload(GIF_JS_POLYGLOT, 'a.gif'), 422, refusal(422, /cannot be read|damaged|incomplete|too large/));
  });

  it('refuses a PDF without its end-of-file marker', async () => {
    await refused(upload(TRUNCATED_PDF, 'cut.pdf'), 422, refusal(422, /incomplete|%%EOF/));
  });

  it('refuses more than one file part instead of dropping all but one', async () => {
    await refused(
      () =>
        http()
          .post('/api/files')
          .auth(token, { type: 'bearer' })
          .attach('file', PDF, 'a.pdf')
          .attach('file', PDF, 'b.pdf'),
      422,
      refusal(422, /one file/),
    );
    await refused(
      () =>
        http()
          .post('/api/files')
          .auth(token, { type: 'bearer' })
          .attach('file', PDF, 'a.pdf')
          .attach('other', PDF, 'b.pdf'),
      422,
      refusal(422, /one file/),
    );
  });

  it('answers 400 to multipart without a boundary, with an unterminated body, a bad JSON field or an absurd boundary', async () => {
    const part = (boundary: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n${PDF.toString()}\r\n`;
    await refused(raw('multipart/form-data', `${part('XyZ')}--XyZ--\r\n`), 400, refusal(400));
    await refused(raw('multipart/form-data; boundary=XyZ', part('XyZ')), 400, refusal(400));
    await refused(
      raw(
        'multipart/form-data; boundary=XyZ',
        `--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 and then nothing`,
      ),
      400,
      refusal(400),
    );
    const badJsonField = `--XyZ\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{not json\r\n${part('XyZ')}--XyZ--\r\n`;
    await refused(raw('multipart/form-data; boundary=XyZ', badJsonField), 400, refusal(400));
    await refused(
      raw(`multipart/form-data; boundary=${'b'.repeat(300)}`, `${part('b'.repeat(300))}--${'b'.repeat(300)}--\r\n`),
      400,
      refusal(400),
    );
  });

  it('still takes a sound image and PDF, and thumbnails the image', async () => {
    const image = await http()
      .post('/api/files')
      .auth(token, { type: 'bearer' })
      .attach('file', await noisyPng(300, 200), 'ok.png')
      .expect(201);
    expect(image.body.data).toMatchObject({
      mime: 'image/png',
      thumbnails: { small: expect.any(String), medium: expect.any(String) },
    });
    const pdf = await http()
      .post('/api/files')
      .auth(token, { type: 'bearer' })
      .attach('file', PDF, 'ok.pdf')
      .expect(201);
    expect(pdf.body.data).toMatchObject({ mime: 'application/pdf' });
  });
});
