import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  readonly to: string[];
  readonly raw: string;
}

/** A real SMTP server on a free port that keeps every message it receives. */
export async function startMailCatcher(
  options: { delayMs?: number; onReceiving?: () => void; refuse?: (to: string) => boolean } = {},
): Promise<{
  url: string;
  mails: CaughtMail[];
  waitFor(to: string, count?: number): Promise<CaughtMail>;
  stop(): Promise<void>;
}> {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // A recipient `refuse` picks gets a temporary failure (450), as a busy mailbox would.
    onRcptTo(address, session, done) {
      if (!options.refuse?.(address.address)) return done();
      done(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 450 }));
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      options.onReceiving?.();
      stream.on('end', () => {
        // A slow server lets a test act while a message is being sent; it counts once accepted.
        setTimeout(() => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          done();
        }, options.delayMs ?? 0);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor: (to, count = 1) =>
      poll(() => mails.filter((m) => m.to.includes(to))[count - 1], `mail number ${count} to ${to}`),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A webhook receiver standing in for an SMS gateway: a real HTTP server keeping each JSON body. */
export async function startSmsGateway(): Promise<{
  url: string;
  texts: { to: string; body: string }[];
  waitFor(to: string): Promise<{ to: string; body: string }>;
  stop(): Promise<void>;
}> {
  const texts: { to: string; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      texts.push(JSON.parse(body));
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/sms`,
    texts,
    waitFor: (to) => poll(() => texts.find((t) => t.to === to), `a text to ${to}`),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function poll<T>(find: () => T | undefined, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The body of a plain-text mail, with quoted-printable soft breaks undone. */
export function mailText(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
