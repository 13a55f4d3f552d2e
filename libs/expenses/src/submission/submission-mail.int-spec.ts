import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Job, Queue } from 'bullmq';
import request from 'supertest';
import { actorUserId, derivedEventId, EventStore, type StoredEvent, systemActor } from '#app/event-store';
import { eventually } from '../../../../test/support/eventually.js';
import { mailText, startMailCatcher } from '../../../../test/support/mail-catcher.js';
import { bootStandalone, logIn, provision } from '../../../../test/support/test-app.js';
import { testEnvironment, type TestEnvironment } from '../../../../test/support/test-config.js';
import { streams } from '../expenses.events.js';
import { SubmissionMailProcessor } from './submission-mail.processor.js';
import { EXPENSES_MAIL, type SubmissionJob } from './submission-mail.reactor.js';

const PASSWORD = 'a long enough password';
const FINANCE = 'finance@m.example';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/**
 * The finance mail, end to end through the worker: ClaimSubmitted → reactor → BullMQ → processor
 * → mail, then RecordSubmissionMailed through the command bus → ClaimSubmissionMailed, caused by
 * the ClaimSubmitted. A repeated job sends nothing and records nothing.
 */
describe('the finance mail records itself, once', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    mail = await startMailCatcher();
    env = await testEnvironment({ SMTP_URL: mail.url, AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await mail?.stop();
  });

  it('mails once and appends one ClaimSubmissionMailed as the system, caused by the ClaimSubmitted; a retried or doubled job adds nothing', async () => {
    const org = await provision(app, {
      organisation: {
        name: 'M',
        slug: 'm',
        timezone: 'Europe/London',
        settings: { expenses_submission_email: FINANCE, expenses_require_authorisation: '0' },
      },
      role_profiles: [{ key: 'p', name: 'P' }],
      teams: [{ key: 't', name: 'T' }],
      users: [
        {
          key: 'u',
          email: 'u@m.example',
          password: PASSWORD,
          display_name: 'Una',
          permissions: ['create-expenses', 'approve-claims', 'edit-expense-settings'],
          roles: [{ team: 't', role_profile: 'p' }],
        },
      ],
    });
    const auth = { authorization: `Bearer ${await logIn(app, 'u@m.example', PASSWORD)}` };
    const type = (await http().post('/api/expenses/types').set(auth).send({ name: 'Travel', position: 1 }).expect(201))
      .body;
    const e = (
      await http()
        .post('/api/expenses')
        .set(auth)
        .send({ type: { id: type.id }, date: new Date().toISOString().slice(0, 10), amount: 7.5, description: 'train' })
        .expect(201)
    ).body;
    const file = (await http().post('/api/files').set(auth).attach('file', PDF, 'fare.pdf').expect(201)).body.data;
    await http().put(`/api/users/${org.users.u}/expenses/${e.id}/attachments/${file.id}`).set(auth).expect(200);
    const c = (
      await http()
        .post('/api/claims')
        .set(auth)
        .send({ assignedTo: { id: org.users.u }, expenses: [{ id: e.id }] })
        .expect(201)
    ).body;
    await http().put(`/api/users/${org.users.u}/claims/${c.id}`).set(auth).send({ submitted: true }).expect(200);

    const message = await mail.waitFor(FINANCE);
    const body = mailText(message.raw);
    expect(body).toContain(`Claim ${c.id} has been submitted.`);
    expect(body).toContain('Claimant: Una');
    expect(body).toMatch(new RegExp(`Expense ${e.id}, fare\\.pdf: http://api\\.test/api/files/${file.id}/content\\?`));

    const store = app.get(EventStore);
    const ofType = (events: StoredEvent[], type: string) => events.filter((x) => x.type === type);
    await eventually(
      async () => ofType(await store.readStream(streams.claim(c.id)), 'expenses.ClaimSubmissionMailed').length > 0,
      30_000,
    );
    const history = await store.readStream(streams.claim(c.id));
    const [submitted] = ofType(history, 'expenses.ClaimSubmitted');
    const mailed = ofType(history, 'expenses.ClaimSubmissionMailed');
    expect(mailed).toHaveLength(1);
    expect(mailed[0]).toMatchObject({
      eventId: derivedEventId(submitted!.eventId, 'expenses.ClaimSubmissionMailed/0'),
      data: {
        claimId: c.id,
        organisationId: org.organisation.id,
        to: FINANCE,
        mailedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
      metadata: {
        organisationId: org.organisation.id,
        actor: systemActor('finance mail'),
        causationId: submitted!.eventId,
        correlationId: submitted!.metadata.correlationId ?? submitted!.eventId,
      },
    });
    expect(actorUserId(mailed[0]!.metadata)).toBeNull();

    // The job as BullMQ holds it (the event id is its id) carries the cause.
    const queue = app.get<Queue>(getQueueToken(EXPENSES_MAIL), { strict: false });
    const job = (await queue.getJob(submitted!.eventId)) as Job<SubmissionJob>;
    expect(job.data.cause).toEqual({ eventId: submitted!.eventId, metadata: submitted!.metadata });

    // A retry, two workers at once, and the job added again under another id: nothing new.
    const processor = app.get(SubmissionMailProcessor, { strict: false });
    await processor.process(job);
    await Promise.all([processor.process(job), processor.process(job)]);
    const again = await queue.add(job.name, job.data, { jobId: `${submitted!.eventId}-again` });
    await eventually(async () => ['completed', 'failed'].includes(await again.getState()), 30_000);
    expect(await again.getState()).toBe('completed');

    expect(await store.readStream(streams.claim(c.id))).toEqual(history);
    await new Promise((r) => setTimeout(r, 300));
    expect(mail.mails.filter((m) => m.to.includes(FINANCE))).toHaveLength(1);
  });

  it('reads a job enqueued before jobs carried a cause by its event id', () => {
    const processor = app.get(SubmissionMailProcessor, { strict: false }) as unknown as {
      causeOf(data: object): unknown;
    };
    expect(
      processor.causeOf({
        id: 3,
        organisationId: 1,
        financeEmail: FINANCE,
        eventId: 'b3a1c9d2-0e4f-4a5b-8c6d-7e8f9a0b1c2d',
      }),
    ).toEqual({
      eventId: 'b3a1c9d2-0e4f-4a5b-8c6d-7e8f9a0b1c2d',
      metadata: { organisationId: 1 },
    });
  });
});
