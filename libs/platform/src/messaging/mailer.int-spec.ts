import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { SMTPServer } from 'smtp-server';
import { ConfigModule } from '../config/config.module.js';
import { loadConfig } from '../config/load-config.js';
import { Mailer } from './mailer.js';
import type { MailMessage } from './mail-message.js';
import { MessagingModule } from './messaging.module.js';

type Received = { from: string | false; to: string[]; raw: string };

const CSV = 'id,amount\n1,12.50\n2,7.00\n';
const MESSAGE: MailMessage = {
  to: 'owner@test.example',
  subject: 'Your monthly statement',
  text: 'Hello, the statement for March is attached.',
  attachments: [{ filename: 'statement-2026-03.csv', content: CSV, contentType: 'text/csv' }],
  messageId: 'outbox-42',
};

// A real SMTP server on a free port that keeps each message it accepts, raw.
async function startSmtpServer(received: Received[]): Promise<SMTPServer> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const { mailFrom, rcptTo } = session.envelope;
        received.push({
          from: mailFrom && mailFrom.address,
          to: rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** The decoded body of the MIME part carrying `filename`, enough for a single-part attachment. */
function attachmentBody(raw: string, filename: string): string {
  const part = raw.split(/\n--/).find((p) => p.includes(filename));
  if (!part) throw new Error(`no part named ${filename}`);
  const [head, ...body] = part.split(/\r?\n\r?\n/);
  const content = body.join('\n\n');
  return /content-transfer-encoding:\s*base64/i.test(head) ? Buffer.from(content, 'base64').toString('utf8') : content;
}

describe('Mailer', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mailer-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  describe('with SMTP_URL', () => {
    const received: Received[] = [];
    let server: SMTPServer;
    let port: number;

    beforeAll(async () => {
      server = await startSmtpServer(received);
      port = (server.server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(resolve));
    });

    it('delivers the message with its attachment to the SMTP server', async () => {
      const config = loadConfig({
        DATA_DIR: dataDir,
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_FROM: 'noreply@test.example',
      });
      const mailer = new Mailer(config);
      try {
        await mailer.send(MESSAGE);
      } finally {
        mailer.onModuleDestroy();
      }

      expect(received).toHaveLength(1);
      const [mail] = received;
      expect(mail.from).toBe('noreply@test.example');
      expect(mail.to).toEqual(['owner@test.example']);
      expect(mail.raw).toMatch(/^From: noreply@test\.example$/m);
      expect(mail.raw).toMatch(/^Subject: Your monthly statement$/m);
      expect(mail.raw).toMatch(/^Message-ID: <outbox-42@uvol>$/m);
      expect(mail.raw).toContain('Hello, the statement for March is attached.');
      expect(mail.raw).toMatch(/filename="?statement-2026-03\.csv"?/);
      expect(attachmentBody(mail.raw, 'statement-2026-03.csv').replace(/\r\n/g, '\n').trim()).toBe(CSV.trim());
      await expect(readdir(dataDir)).resolves.not.toContain('mail');
    });
  });

  describe('without SMTP_URL', () => {
    it('writes the rendered message as an .eml file under DATA_DIR/mail', async () => {
      const config = loadConfig({ DATA_DIR: dataDir });
      const app = await Test.createTestingModule({
        imports: [ConfigModule.forRoot(config), MessagingModule],
      }).compile();
      try {
        await app.get(Mailer).send(MESSAGE);
      } finally {
        await app.close();
      }

      const mailDir = join(dataDir, 'mail');
      const files = await readdir(mailDir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f]{8}\.eml$/);
      const eml = await readFile(join(mailDir, files[0]), 'utf8');
      expect(eml).toMatch(/^Subject: Your monthly statement$/m);
      expect(eml).toMatch(/^From: no-reply@localhost$/m);
      expect(eml).toMatch(/^To: owner@test\.example$/m);
      expect(eml).toContain('Hello, the statement for March is attached.');
      expect(eml).not.toContain('\r\n');
      if (process.platform !== 'win32') expect((await stat(mailDir)).mode & 0o777).toBe(0o700);
    });
  });
});
