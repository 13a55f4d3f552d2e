import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EventStore, systemActor } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { eventually } from '../support/eventually.js';
import { startMailCatcher } from '../support/mail-catcher.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import {
  bootStandalone,
  logInAll,
  provision,
  riversideFile,
  subscribeWebhooks,
  TEST_PASSWORD,
  userFile,
} from '../support/test-app.js';

/** The two-factor messages' queue (libs/identity/src/messages). */
const IDENTITY_MESSAGES = 'identity-messages';
const DOMAIN = '@riverside.example';
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/**
 * docs/privacy.md, "Anonymising a user", 5, and "Logs never hold it": records keyed by an e-mail
 * or a network address hold a keyed hash of it; the log of a failed log-in and of a mail sent
 * holds no address; a message still owed to a user anonymised since is not sent; the webhook
 * deliveries whose bodies hold their personal data are purged in the anonymising transaction.
 * identity.UserAnonymised is appended through the event store, as the anonymise command appends it.
 */
describe('personal data in rate limits, logs, owed messages and webhook deliveries', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let org: ProvisionResult;
  let tokens: Record<string, string>;
  let ds: DataSource;
  const log: string[] = [];
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const preAuth = (email: string, password = TEST_PASSWORD) =>
    http().post('/auth/api/pre-auth-token').send({ email, password });
  const anonymise = (who: string) =>
    app.get(EventStore).handle(
      `identity.User-${org.users[who]}`,
      (s) => s,
      () => [
        {
          type: 'identity.UserAnonymised',
          data: {
            userId: org.users[who]!,
            organisationId: org.organisation.id,
            requestedBy: 'operator',
            anonymisedAt: new Date().toISOString(),
          },
        },
      ],
      { expect: 'any', metadata: { organisationId: org.organisation.id, actor: systemActor('test') } },
    );

  beforeAll(async () => {
    mail = await startMailCatcher();
    env = await testEnvironment({ SMTP_URL: mail.url, LOG_LEVEL: 'debug' }, { operatorFeatures: true });
    const destination = { write: (line: string) => void log.push(line) };
    app = await bootStandalone({ ...env.config, log: { ...env.config.log, pretty: false, destination } });
    ds = app.get(DataSource);
    org = await provision(
      app,
      riversideFile([
        userFile('admin', ['manage-integrations', 'edit-expense-settings', 'create-expenses'], ['north']),
        userFile('a', ['create-expenses'], ['north-shop']),
        userFile('b', ['create-expenses'], ['north-shop']),
        userFile('mailer', [], ['north-shop'], { two_factor: 'email' }),
        userFile('burner', [], ['north-shop'], { two_factor: 'email' }),
        userFile('sender', [], ['north-shop'], { two_factor: 'email' }),
      ]),
    );
    tokens = await logInAll(app, ['admin', 'a', 'b']);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await mail?.stop();
  });

  it('a failed log-in: rate_limits holds keyed hashes only, no e-mail or network address', async () => {
    await preAuth(`a${DOMAIN}`, 'not the password').expect(401);
    await preAuth(`nobody${DOMAIN}`, 'not the password').expect(401);
    const keys: string[] = (await ds.query(`SELECT key FROM rate_limits`)).map((r: { key: string }) => r.key);
    // Per address, per account from here, per account from anywhere: for each attempt.
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{64}$/);
    const all = keys.join(' ');
    for (const clear of ['@', 'riverside', 'nobody', '127.0.0.1', '::1']) expect(all).not.toContain(clear);
    // The limits still count: the hash of an account is the same at every attempt.
    const [{ hits }] = await ds.query(`SELECT max(hits)::int AS hits FROM rate_limits`);
    await preAuth(`a${DOMAIN}`, 'not the password').expect(401);
    const [{ hits: after }] = await ds.query(`SELECT max(hits)::int AS hits FROM rate_limits`);
    expect(after).toBe(hits + 1);
  });

  it('the log of failed log-ins and of a mail sent holds no e-mail address', async () => {
    const from = log.length;
    await preAuth(`b${DOMAIN}`, 'not the password').expect(401);
    await preAuth(`nobody${DOMAIN}`, 'not the password').expect(401);
    // A log-in by e-mailed code: the worker sends the mail.
    await preAuth(`mailer${DOMAIN}`).expect(200);
    await mail.waitFor(`mailer${DOMAIN}`);
    const lines = log.slice(from);
    // Lines were written (the requests' own), so a line naming an address would have been seen.
    expect(lines.filter((l) => l.includes('/auth/api/pre-auth-token')).length).toBeGreaterThanOrEqual(3);
    expect(lines.filter((l) => /[^\s"<]+@[^\s">]+\.\w+/.test(l))).toEqual([]);
  });

  it('a two-factor message still owed to a user anonymised since is not sent', async () => {
    const queue = app.get<Queue>(getQueueToken(IDENTITY_MESSAGES), { strict: false });
    await queue.pause();
    await preAuth(`burner${DOMAIN}`).expect(200);
    // The reactor's job is the challenge event's id; held in the paused queue, still owed.
    const [{ event_id: job }] = await ds.query(
      `SELECT event_id::text FROM events WHERE type = 'identity.TwoFactorChallengeIssued' ORDER BY position DESC LIMIT 1`,
    );
    await eventually(async () => (await queue.getJob(job)) !== undefined, 30_000);
    await anonymise('burner');
    await queue.resume();
    await eventually(async () => (await queue.getJobState(job)) === 'completed', 30_000);
    // The mailer's code went (the previous test); the burner's did not.
    expect(mail.mails.filter((m) => m.to.includes(`burner${DOMAIN}`))).toEqual([]);
    expect(mail.mails.filter((m) => m.to.includes(`mailer${DOMAIN}`)).length).toBeGreaterThan(0);
    // The queue keeps the done job, without the address or the code.
    expect((await queue.getJob(job))!.data).toMatchObject({ userId: org.users.burner, destination: '', sealedKey: '' });
  });

  it('a two-factor message sent before the anonymisation: its job, kept by the queue, loses its address', async () => {
    const queue = app.get<Queue>(getQueueToken(IDENTITY_MESSAGES), { strict: false });
    await preAuth(`sender${DOMAIN}`).expect(200);
    await mail.waitFor(`sender${DOMAIN}`);
    const [{ event_id: job }] = await ds.query(
      `SELECT event_id::text FROM events WHERE type = 'identity.TwoFactorChallengeIssued' ORDER BY position DESC LIMIT 1`,
    );
    await eventually(async () => (await queue.getJobState(job)) === 'completed', 30_000);
    expect((await queue.getJob(job))!.data.destination).toBe(`sender${DOMAIN}`);
    await anonymise('sender');
    await eventually(async () => (await queue.getJob(job))!.data.destination === '', 30_000);
    expect((await queue.getJob(job))!.data).toMatchObject({ userId: org.users.sender, sealedKey: '' });
  });

  it('the webhook deliveries whose bodies hold an anonymised user’s data are purged in the same transaction', async () => {
    await subscribeWebhooks(app, tokens.admin!, env.webhookReceiver);
    const type = (
      await http().post('/api/expenses/types').set(as('admin')).send({ name: 'Travel', position: 1 }).expect(201)
    ).body.id;
    const expense = (who: string, description: string) =>
      http()
        .post('/api/expenses')
        .set(as(who))
        .send({ type: { id: type }, date: daysAgo(2), amount: 12, description })
        .expect(201);
    await expense('a', 'a private note of a');
    await expense('b', 'a private note of b');
    const bodiesNaming = async (text: string) =>
      (await ds.query(`SELECT id FROM webhook_deliveries WHERE body LIKE $1`, [`%${text}%`])).length;
    await eventually(async () => (await bodiesNaming('a private note of a')) > 0, 30_000);
    await eventually(async () => (await bodiesNaming('a private note of b')) > 0, 30_000);
    const [{ n: ofA }] = await ds.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE $1 = ANY(user_ids)`, [
      org.users.a,
    ]);
    expect(ofA).toBeGreaterThan(0);

    await anonymise('a');
    // Read right after the append: the purge is in its transaction.
    expect(await bodiesNaming('a private note of a')).toBe(0);
    expect((await ds.query(`SELECT id FROM webhook_deliveries WHERE $1 = ANY(user_ids)`, [org.users.a])).length).toBe(
      0,
    );
    expect(await bodiesNaming('a private note of b')).toBeGreaterThan(0);
  });
});
