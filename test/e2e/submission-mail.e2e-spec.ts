import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { OutboxMailer } from '#app/platform';
import { mailText, startMailCatcher } from '../support/mail-catcher.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, provision } from '../support/test-app.js';

const PASSWORD = 'a long enough password';

/** The finance mail of a submitted claim arrives once, even when the worker restarts while sending it. */
describe('claim submission mail', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication | undefined;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let receiving!: () => void;
  const startedReceiving = new Promise<void>((resolve) => (receiving = resolve));
  const http = () => request(app!.getHttpServer());

  beforeAll(async () => {
    mail = await startMailCatcher({ delayMs: 1_500, onReceiving: () => receiving() });
    env = await testEnvironment({ SMTP_URL: mail.url, AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await mail?.stop();
  });

  it('arrives once, with the CSV, though the worker restarts mid-send', async () => {
    const org = await provision(app!, {
      organisation: {
        name: 'R',
        slug: 'r',
        timezone: 'Europe/London',
        settings: { expenses_submission_email: 'finance@r.example', expenses_require_authorisation: '0' },
      },
      role_profiles: [{ key: 'p', name: 'P' }],
      teams: [{ key: 't', name: 'T' }],
      users: [
        {
          key: 'u',
          email: 'u@r.example',
          password: PASSWORD,
          display_name: 'U',
          permissions: ['create-expenses', 'approve-claims', 'edit-expense-settings'],
          roles: [{ team: 't', role_profile: 'p' }],
        },
      ],
    });
    const auth = { authorization: `Bearer ${await logIn(app!, 'u@r.example')}` };
    const type = (await http().post('/api/expenses/types').set(auth).send({ name: 'Travel', position: 1 }).expect(201))
      .body;
    const e = (
      await http()
        .post('/api/expenses')
        .set(auth)
        .send({ type: { id: type.id }, date: new Date().toISOString().slice(0, 10), amount: 12.3, description: 'bus' })
        .expect(201)
    ).body;
    const c = (
      await http()
        .post('/api/claims')
        .set(auth)
        .send({ assignedTo: { id: org.users.u }, expenses: [{ id: e.id }] })
        .expect(201)
    ).body;
    await http().put(`/api/users/${org.users.u}/claims/${c.id}`).set(auth).send({ submitted: true }).expect(200);

    await startedReceiving;
    await app!.close(); // the worker stops while the mail server is still taking the message
    app = await bootStandalone(env.config);

    const message = await mail.waitFor('finance@r.example');
    expect(mailText(message.raw)).toContain(`Claim ${c.id} has been submitted.`);
    expect(message.raw).toMatch(/claim-\d+\.csv/);
    expect(
      Buffer.from(
        message.raw
          .split(/filename="?claim-\d+\.csv"?/)[1]!
          .split('\r\n\r\n')[1]!
          .split('\r\n--')[0]!
          .replace(/\s/g, ''),
        'base64',
      ).toString(),
    ).toContain('bus');
    await new Promise((r) => setTimeout(r, 4_000));
    expect(mail.mails.filter((m) => m.to.includes('finance@r.example'))).toHaveLength(1);
  });

  it('sends an outbox message once per key, however often the job runs', async () => {
    const outbox = app!.get(OutboxMailer);
    expect(await outbox.sendOnce('test-once', { to: 'once@r.example', subject: 's', text: 't' })).toBe('sent');
    expect(await outbox.sendOnce('test-once', { to: 'once@r.example', subject: 's', text: 't' })).toBe('already sent');
    await mail.waitFor('once@r.example');
    expect(mail.mails.filter((m) => m.to.includes('once@r.example'))).toHaveLength(1);
  });
});
