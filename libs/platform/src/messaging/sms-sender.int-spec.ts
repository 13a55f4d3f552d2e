import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../config/load-config.js';
import { SmsSender } from './sms-sender.js';

type Hit = { method?: string; url?: string; headers: IncomingHttpHeaders; body: string };

// A real HTTP gateway on a free port; `status` is what it answers next.
async function startGateway(hits: Hit[], answer: { status: number }): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hits.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describe('SmsSender', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sms-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  describe('with SMS_WEBHOOK_URL', () => {
    const hits: Hit[] = [];
    const answer = { status: 204 };
    let server: Server;
    let sender: SmsSender;

    beforeAll(async () => {
      server = await startGateway(hits, answer);
      const { port } = server.address() as AddressInfo;
      sender = new SmsSender(
        loadConfig({ DATA_DIR: dataDir, SMS_WEBHOOK_URL: `http://127.0.0.1:${port}/texts?key=k1` }),
      );
    });
    beforeEach(() => {
      hits.length = 0;
      answer.status = 204;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('POSTs the text as JSON {to, body}', async () => {
      await sender.send('+15550100', 'Your code is 123456');

      expect(hits).toHaveLength(1);
      expect(hits[0].method).toBe('POST');
      expect(hits[0].url).toBe('/texts?key=k1');
      expect(hits[0].headers['content-type']).toBe('application/json');
      expect(JSON.parse(hits[0].body)).toEqual({ to: '+15550100', body: 'Your code is 123456' });
    });

    it('rejects, naming the status, when the gateway answers 500', async () => {
      answer.status = 500;
      await expect(sender.send('+15550100', 'Your code is 654321')).rejects.toThrow(/\b500\b/);
      expect(hits).toHaveLength(1);
    });

    it('rejects when the gateway cannot be reached', async () => {
      const closed = await startGateway([], answer);
      const { port } = closed.address() as AddressInfo;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const unreachable = new SmsSender(
        loadConfig({ DATA_DIR: dataDir, SMS_WEBHOOK_URL: `http://127.0.0.1:${port}/` }),
      );
      await expect(unreachable.send('+15550100', 'hi')).rejects.toThrow(/SMS webhook unreachable/);
    });
  });

  describe('without SMS_WEBHOOK_URL', () => {
    it('writes {to, body, sent_at} as a JSON file under DATA_DIR/sms', async () => {
      const before = Date.now();
      await new SmsSender(loadConfig({ DATA_DIR: dataDir })).send('+15550100', 'Your code is 123456');

      const smsDir = join(dataDir, 'sms');
      const files = await readdir(smsDir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f]{8}\.json$/);
      const text = JSON.parse(await readFile(join(smsDir, files[0]), 'utf8'));
      expect(text).toEqual({ to: '+15550100', body: 'Your code is 123456', sent_at: expect.any(String) });
      expect(Date.parse(text.sent_at)).toBeGreaterThanOrEqual(before);
    });
  });
});
