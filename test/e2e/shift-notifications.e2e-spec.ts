import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Job, Queue } from 'bullmq';
import { DateTime } from 'luxon';
import request from 'supertest';
import { EventStore } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { eventually } from '../support/eventually.js';
import { mailText, startMailCatcher } from '../support/mail-catcher.js';
import { attachment, calendarOf } from '../support/mail-calendar.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, provision, TEST_PASSWORD } from '../support/test-app.js';

const ZONE = 'Europe/London';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const plusDays = (date: string, n: number) => DateTime.fromISO(date).plus({ days: n }).toISODate()!;
/** The notification worker's queue (libs/rotas/src/notifications/notifications.reactor.ts). */
const ROTA_NOTIFICATIONS = 'rotas-notifications';
const address = (key: string) => `${key}@notify.example`;

/**
 * docs/rota-domain.md#notifications, end to end: shift events → reactor → BullMQ → processor → a
 * real SMTP server the test starts. One e-mail per request to a volunteer whose shifts someone else
 * booked, changed or cancelled, with invite.ics (METHOD:REQUEST) or cancel.ics (METHOD:CANCEL) that
 * node-ical reads back with each shift's stable UID; nothing for one's own bookings; a volunteer's
 * own cancellation told to the rota's contact and its add-user-shifts manager; a job run again
 * sends nothing twice.
 */
describe('shift notification e-mails', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let org: ProvisionResult;
  let rota: number;
  let queue: Queue;
  const tokens: Record<string, string> = {};
  const today = todayIn(ZONE);
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const inbox = (key: string) => mail.mails.filter((m) => m.to.includes(address(key)));
  const uid = (shiftId: number) => `shift-${org.organisation.id}-${shiftId}@api.test`;
  const body = (who: string, date: string, from: string, to: string) => ({
    rota: { id: rota },
    user: { id: org.users[who] },
    start_datetime: `${date} ${from}`,
    end_datetime: `${date} ${to}`,
  });
  const book = async (by: string, who: string, date: string, from = '10:00', to = '12:00'): Promise<number> =>
    (
      await http()
        .post('/api/rota/shifts')
        .set(as(by))
        .send(body(who, date, from, to))
        .expect(201)
    ).body.data.id;
  /** The notification job of a shift's latest event, once the worker is done with it. */
  async function settledJob(shiftId: number): Promise<Job> {
    const [last] = (await app.get(EventStore).readStream(`rotas.Shift-${shiftId}`)).slice(-1);
    let job: Job | undefined;
    await eventually(async () => {
      job = await queue.getJob(last!.eventId);
      return job !== undefined && ['completed', 'failed'].includes(await job.getState());
    }, 30_000);
    expect(await job!.getState()).toBe('completed');
    return job!;
  }
  /** The job added again under another id (a retry after a restart): it completes and sends nothing. */
  async function runAgain(job: Job): Promise<void> {
    const again = await queue.add(job.name, job.data, { jobId: `${job.id}-again` });
    await eventually(async () => ['completed', 'failed'].includes(await again.getState()), 30_000);
    expect(await again.getState()).toBe('completed');
  }

  beforeAll(async () => {
    mail = await startMailCatcher();
    env = await testEnvironment({ SMTP_URL: mail.url, AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    queue = app.get<Queue>(getQueueToken(ROTA_NOTIFICATIONS), { strict: false });
    const user = (key: string, permissions: string[], team: string) => ({
      key,
      email: address(key),
      password: TEST_PASSWORD,
      display_name: `${key[0]!.toUpperCase()}${key.slice(1)}`,
      permissions,
      roles: [{ team, role_profile: 'shop' }],
    });
    const volunteers = ['ann', 'bea', 'cat', 'dan', 'eve'];
    org = await provision(app, {
      organisation: { name: 'Notify', slug: 'notify', timezone: ZONE },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'shop', name: 'Shop', parent: 'north' },
      ],
      users: [
        user('boss', ['manage-rotas'], 'north'),
        user('shifter', ['add-user-shifts'], 'north'),
        user('contact', [], 'shop'),
        ...volunteers.map((v) => user(v, [], 'shop')),
      ],
    });
    for (const who of ['boss', ...volunteers]) tokens[who] = await logIn(app, address(who));
    const pattern = WEEKDAYS.map((d) => ({
      weekday_start: d,
      start_time: '09:00',
      weekday_end: d,
      end_time: '17:00',
      min: 1,
      ideal: 1,
      max: 5,
    }));
    const patternId = (
      await http().post('/api/shift-patterns').set(as('boss')).send({ name: 'Days', pattern }).expect(201)
    ).body.data.id;
    const created = {
      name: 'Café',
      start_date: plusDays(today, -7),
      pattern_id: patternId,
      team: [{ id: org.teams.shop }],
      self_manage: true,
      contacts: [org.users.contact],
    };
    rota = (await http().post('/api/rotas').set(as('boss')).send(created).expect(201)).body.data[0].id;
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await mail?.stop();
  });

  it(
    'a manager books a volunteer’s shift: one mail whose invite.ics (METHOD:REQUEST) node-ical reads ' +
      'back with the shift’s UID; the job run again sends nothing',
    async () => {
      const date = plusDays(today, 3);
      const shift = await book('boss', 'ann', date);
      const message = await mail.waitFor(address('ann'));
      expect(mailText(message.raw)).toContain('Boss has changed your shifts:');
      const invite = calendarOf(message, 'invite.ics');
      expect(invite.method).toBe('REQUEST');
      expect(invite.events.map((e) => [e.uid, e.sequence, e.summary])).toEqual([[uid(shift), 0, 'Café']]);
      expect(attachment(message.raw, 'cancel.ics')).toBeNull();

      await runAgain(await settledJob(shift));
      await new Promise((r) => setTimeout(r, 300));
      expect(inbox('ann')).toHaveLength(1);
    },
  );

  it('a bulk booking of three shifts for one volunteer: one mail listing the three', async () => {
    const dates = [3, 4, 5].map((n) => plusDays(today, n));
    const res = await http()
      .post('/api/rota/shifts')
      .set(as('boss'))
      .send({ shifts: dates.map((d) => body('bea', d, '10:00', '12:00')) })
      .expect(201);
    const ids: number[] = res.body.data.map((s: { id: number }) => s.id);
    const message = await mail.waitFor(address('bea'));
    expect(
      calendarOf(message, 'invite.ics')
        .events.map((e) => e.uid)
        .sort(),
    ).toEqual(ids.map(uid).sort());
    expect(message.raw).toMatch(/Subject: Your shifts: 3 booked/);
    // One job for the request, its first event's (the reactor's perTransaction); none for the others.
    const booked = await Promise.all(
      ids.map(async (id) => (await app.get(EventStore).readStream(`rotas.Shift-${id}`))[0]!),
    );
    const first = booked.reduce((a, b) => (b.position < a.position ? b : a));
    await settledJob(Number((first.data as { id: number }).id));
    for (const event of booked.filter((e) => e !== first)) expect(await queue.getJob(event.eventId)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 300));
    expect(inbox('bea')).toHaveLength(1);
  });

  it('a manager cancels a volunteer’s shift: a mail whose cancel.ics (METHOD:CANCEL) carries the shift’s UID with a raised SEQUENCE', async () => {
    const shift = await book('boss', 'cat', plusDays(today, 4));
    await mail.waitFor(address('cat'));
    await http().delete(`/api/rota/shifts/${shift}`).set(as('boss')).expect(204);
    const message = await mail.waitFor(address('cat'), 2);
    const cancel = calendarOf(message, 'cancel.ics');
    expect(cancel.method).toBe('CANCEL');
    expect(cancel.events.map((e) => [e.uid, e.sequence, e.status])).toEqual([[uid(shift), 1, 'CANCELLED']]);
    expect(attachment(message.raw, 'invite.ics')).toBeNull();
  });

  it(
    'a volunteer booking their own shift gets nothing; cancelling it mails the rota’s contact and its ' +
      'add-user-shifts manager once each, and not the volunteer',
    async () => {
      const shift = await book('dan', 'dan', plusDays(today, 5));
      await settledJob(shift);
      await http().delete(`/api/rota/shifts/${shift}`).set(as('dan')).expect(204);
      const [toContact, toManager] = [await mail.waitFor(address('contact')), await mail.waitFor(address('shifter'))];
      expect(mailText(toContact.raw)).toContain('Dan has cancelled their shift:');
      expect(mailText(toManager.raw)).toContain('Dan has cancelled their shift:');

      const job = await settledJob(shift);
      await runAgain(job);
      await new Promise((r) => setTimeout(r, 300));
      expect([inbox('contact').length, inbox('shifter').length, inbox('dan').length, inbox('boss').length]).toEqual([
        1, 1, 0, 0,
      ]);
    },
  );

  it('a rota change that cancels a volunteer’s shift mails them, as the rota’s doing, with the reason and a cancel.ics', async () => {
    const date = plusDays(today, 6);
    const shift = await book('boss', 'eve', date);
    await mail.waitFor(address('eve'));
    await http()
      .post('/api/rotas/bulk')
      .set(as('boss'))
      .send({ action: 'close', rota_ids: [rota], data: { dates: [date] } })
      .expect(204);
    const message = await mail.waitFor(address('eve'), 2);
    expect(mailText(message.raw)).toContain('A change to the rota has changed your shifts:');
    expect(mailText(message.raw)).toContain('(the rota is closed that day)');
    expect(calendarOf(message, 'cancel.ics').events.map((e) => e.uid)).toEqual([uid(shift)]);
  });
});
