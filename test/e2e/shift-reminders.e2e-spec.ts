import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { todayIn } from '#app/platform';
import { eventually } from '../support/eventually.js';
import { mailText, startMailCatcher } from '../support/mail-catcher.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, provision, TEST_PASSWORD } from '../support/test-app.js';
import { eventCount } from '../support/nothing-written.js';

/**
 * A zone where it is about noon while the suite runs (fixed offsets: Etc/GMT-3 is UTC+3), so a
 * shift of the next minutes never runs into midnight, where each day's timeslot ends.
 */
const ZONE = ((offset: number) => (offset >= 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`))(
  12 - new Date().getUTCHours(),
);
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** The reminder queues (libs/rotas/src/reminders/reminders.reactor.ts): plan jobs, and the delayed reminders. */
const REMINDER_PLANS = 'rotas-reminder-plans';
const ROTA_REMINDERS = 'rotas-reminders';
/** A shift time's delayed job (reminder-plan.ts reminderJobId): the shift and its start in epoch seconds. */
const reminderJob = (shiftId: number, start: DateTime) => `reminder-${shiftId}-${start.toSeconds()}`;
/** REMINDER_HOUR_MS in this file: an "hour" of shift_reminder_hours lasts a second. */
const HOUR_MS = 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const wall = (t: DateTime) => t.toFormat('yyyy-LL-dd HH:mm');

/** The Subject header, unfolded, its encoded words (RFC 2047, UTF-8, as nodemailer writes a subject that is not ASCII) decoded. */
function subjectOf(raw: string): string {
  const headers = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]/g, ' ');
  const subject =
    headers
      .split('\r\n')
      .find((l) => l.startsWith('Subject: '))
      ?.slice('Subject: '.length) ?? '';
  const bytes = (encoding: string, text: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        );
  // Whitespace between two encoded words is not part of the text.
  return subject.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=(\s+(?==\?))?/gi, (_, encoding: string, text: string) =>
    bytes(encoding, text).toString('utf8'),
  );
}
/** The plain-text body: quoted-printable undone (mailText gives its bytes as characters), as UTF-8, with plain line ends. */
const bodyOf = (raw: string) => Buffer.from(mailText(raw), 'latin1').toString('utf8').replace(/\r\n/g, '\n');
const isReminder = (raw: string) => subjectOf(raw).startsWith('Shift reminder: ');

/**
 * A shift start a whole minute in the zone, at least `aheadMs` from now, and the setting (seconds
 * here) that makes its reminder due `leadMs` (up to a second more) from now: a shift booked a
 * little over the reminder window ahead.
 */
function timing(leadMs: number, aheadMs = 70_000): { start: DateTime; hours: number; due: number } {
  const now = DateTime.now().setZone(ZONE).setLocale('en-GB'); // the mail's weekday names
  const start = now.plus({ milliseconds: aheadMs }).startOf('minute').plus({ minutes: 1 });
  const hours = Math.floor((start.toMillis() - now.toMillis() - leadMs) / HOUR_MS);
  return { start, hours, due: start.toMillis() - hours * HOUR_MS };
}

/**
 * docs/rota-domain.md#reminders, end to end: shift events → reactor → plan jobs → delayed BullMQ
 * reminder jobs → the outbox → a real SMTP server the test starts. The setting is in hours;
 * REMINDER_HOUR_MS=1000 makes it count seconds here, so a shift a minute or two ahead sits a few
 * seconds outside its window. Each case has an organisation of its own, so one case's setting
 * changes reschedule no other's shifts.
 */
describe('shift reminders', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let plans: Queue;
  let reminders: Queue;
  let worlds = 0;
  const today = todayIn(ZONE);
  const http = () => request(app.getHttpServer());
  /**
   * How long before a reminder is due a case may take `steps` planned changes (a setting, a
   * booking, a move) to be planned. Embedded, the margin is the one kept from before PGlite's
   * notifications reached BullMQ's workers (pglite-pipeline.ts), when each step could wait out
   * BullMQ's 5 s drainDelay.
   */
  const lead = (steps: number) => 3_000 + steps * (env.embedded ? 5_500 : 1_000);

  /** The job of a stream's latest event on the plan queue (the runner makes the event id the job id), once done. */
  async function planned(streamId: string): Promise<void> {
    const [last] = (await app.get(EventStore).readStream(streamId)).slice(-1);
    if (!last) return; // a setting never changed (written as its default: nothing recorded)
    await eventually(async () => (await (await plans.getJob(last.eventId))?.getState()) === 'completed', 30_000);
  }
  const reminderState = async (jobId: string) => (await reminders.getJob(jobId))?.getState();
  /** The shift time's reminder waits as a delayed job. */
  const expectWaiting = async (shiftId: number, start: DateTime) =>
    expect(await reminderState(reminderJob(shiftId, start))).toBe('delayed');

  /** An organisation with a manager (manage-rotas), an administrator (manage-organisation), volunteers and a rota open all week around today. */
  async function world(volunteers: string[] = ['vol']) {
    const slug = `reminders-${++worlds}`;
    const address = (key: string) => `${key}@${slug}.example`;
    const user = (key: string, permissions: string[], team: string) => ({
      key,
      email: address(key),
      password: TEST_PASSWORD,
      display_name: `${key[0]!.toUpperCase()}${key.slice(1)}`,
      permissions,
      roles: [{ team, role_profile: 'shop' }],
    });
    const org = await provision(app, {
      organisation: { name: `Reminders ${worlds}`, slug, timezone: ZONE },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'shop', name: 'Shop', parent: 'north' },
      ],
      users: [
        user('boss', ['manage-rotas'], 'north'),
        user('admin', ['manage-organisation'], 'north'),
        ...volunteers.map((v) => user(v, [], 'shop')),
      ],
    });
    const tokens: Record<string, string> = {};
    for (const who of ['boss', 'admin', ...volunteers]) tokens[who] = await logIn(app, address(who));
    const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
    const pattern = WEEKDAYS.map((d) => ({
      weekday_start: d,
      start_time: '00:00',
      weekday_end: d,
      end_time: '23:59',
      min: 1,
      ideal: 1,
      max: 5,
    }));
    const patternId = (
      await http().post('/api/shift-patterns').set(as('boss')).send({ name: 'Week', pattern }).expect(201)
    ).body.data.id;
    const rotaBody = {
      name: 'Café',
      start_date: DateTime.fromISO(today).minus({ days: 7 }).toISODate(),
      pattern_id: patternId,
      team: [{ id: org.teams.shop }],
      self_manage: true,
    };
    const rota = (await http().post('/api/rotas').set(as('boss')).send(rotaBody).expect(201)).body.data[0].id;
    const times = (start: DateTime) => ({
      start_datetime: wall(start),
      end_datetime: wall(start.plus({ minutes: 30 })),
    });
    return {
      org,
      as,
      address,
      /** The reminders a volunteer got (a manager's booking also sends them the notification e-mail). */
      inbox: (key: string) => mail.mails.filter((m) => m.to.includes(address(key)) && isReminder(m.raw)),
      reminder: async (key: string) => {
        await eventually(() => mail.mails.some((m) => m.to.includes(address(key)) && isReminder(m.raw)), 30_000);
        return mail.mails.find((m) => m.to.includes(address(key)) && isReminder(m.raw))!;
      },
      detailed: async (who: string) =>
        (await http().get('/api/organisation/detailed').set(as(who)).expect(200)).body.data,
      async setHours(hours: number | string): Promise<void> {
        await http()
          .put('/api/organisation')
          .set(as('boss'))
          .send({ shift_reminder_hours: String(hours) })
          .expect(200);
        await planned(`organisation.Settings-${org.organisation.id}`);
      },
      /** Books a shift as the manager, once its plan job is done. */
      async book(who: string, start: DateTime): Promise<number> {
        const res = await http()
          .post('/api/rota/shifts')
          .set(as('boss'))
          .send({ rota: { id: rota }, user: { id: org.users[who] }, ...times(start) });
        expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
        await planned(`rotas.Shift-${res.body.data.id}`);
        return res.body.data.id;
      },
      async move(id: number, start: DateTime): Promise<void> {
        await http()
          .put(`/api/rota/shifts/${id}`)
          .set(as('boss'))
          .send({ ...times(start), edit_mode: 'single' })
          .expect(200);
        await planned(`rotas.Shift-${id}`);
      },
      async cancel(id: number): Promise<void> {
        await http().delete(`/api/rota/shifts/${id}`).set(as('boss')).expect(204);
        await planned(`rotas.Shift-${id}`);
      },
    };
  }

  beforeAll(async () => {
    mail = await startMailCatcher();
    env = await testEnvironment({
      SMTP_URL: mail.url,
      REMINDER_HOUR_MS: String(HOUR_MS),
      AUTH_RATE_LIMIT_PER_ADDRESS: '100000',
    });
    app = await bootStandalone(env.config);
    plans = app.get<Queue>(getQueueToken(REMINDER_PLANS), { strict: false });
    reminders = app.get<Queue>(getQueueToken(ROTA_REMINDERS), { strict: false });
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await mail?.stop();
  });

  it(
    'a shift booked a little over the window ahead is reminded when the window reaches it: one mail at ' +
      'the SMTP server, to its volunteer, naming the rota, the local date and the start time',
    async () => {
      const w = await world();
      const { start, hours, due } = timing(lead(2));
      await w.setHours(hours);
      const id = await w.book('vol', start);
      await expectWaiting(id, start);

      await sleep(due - 500 - Date.now());
      expect(w.inbox('vol')).toHaveLength(0);
      const message = await w.reminder('vol');
      expect(subjectOf(message.raw)).toBe(`Shift reminder: Café, ${start.toFormat('cccc yyyy-LL-dd HH:mm')}`);
      expect(message.to).toEqual([w.address('vol')]);
      const [day, from, to] = [
        start.toFormat('cccc yyyy-LL-dd'),
        start.toFormat('HH:mm'),
        start.plus({ minutes: 30 }).toFormat('HH:mm'),
      ];
      expect(bodyOf(message.raw)).toContain(`A reminder of your shift on Café:\n\n${day}, ${from} to ${to}`);
      expect(bodyOf(message.raw)).toContain('Hello Vol,');
      await eventually(async () => (await reminderState(reminderJob(id, start))) === undefined, 10_000);
      expect(w.inbox('vol')).toHaveLength(1);
    },
    90_000,
  );

  it(
    'moving the shift moves its reminder: one mail, for the new time; the old time’s job sends nothing, ' +
      'and moving back to a time already reminded sends nothing',
    async () => {
      const w = await world();
      const { start, hours, due } = timing(lead(3));
      const later = start.plus({ minutes: 1 }); // its reminder a minute after the new time's
      await w.setHours(hours);
      const id = await w.book('vol', later);
      await expectWaiting(id, later);
      await w.move(id, start);
      await expectWaiting(id, start);

      await sleep(due - 500 - Date.now());
      expect(w.inbox('vol')).toHaveLength(0);
      const message = await w.reminder('vol');
      expect(bodyOf(message.raw)).toContain(`${start.toFormat('cccc yyyy-LL-dd')}, ${start.toFormat('HH:mm')} to`);

      // The old time's job, run now rather than in a minute: the shift starts at another time, so nothing.
      await (await reminders.getJob(reminderJob(id, later)))!.promote();
      await eventually(async () => (await reminderState(reminderJob(id, later))) === undefined, 30_000);
      // Away and back to the time reminded (inside the window now, so due at once): the outbox has sent it.
      await w.move(id, later);
      await w.move(id, start);
      await sleep(1_000);
      expect(w.inbox('vol')).toHaveLength(1);
    },
    90_000,
  );

  it('cancelling the shift sends no reminder: its waiting job is dropped, and nothing comes when it would have been due', async () => {
    const w = await world();
    const { start, hours, due } = timing(lead(3));
    await w.setHours(hours);
    const id = await w.book('vol', start);
    await expectWaiting(id, start);
    await w.cancel(id);
    expect(await reminderState(reminderJob(id, start))).toBeUndefined();
    await sleep(due + 2_000 - Date.now());
    expect(w.inbox('vol')).toHaveLength(0);
  }, 90_000);

  it('"0" sends none: a shift booked then is not scheduled, and switching to "0" drops the reminders waiting', async () => {
    const w = await world(['vol', 'off']);
    const { start, hours, due } = timing(lead(3));
    await w.setHours(hours);
    const waiting = await w.book('vol', start);
    await expectWaiting(waiting, start);
    await w.setHours(0);
    expect(await reminderState(reminderJob(waiting, start))).toBeUndefined();
    const booked = await w.book('off', start);
    expect(await reminderState(reminderJob(booked, start))).toBeUndefined();
    await sleep(due + 2_000 - Date.now());
    expect([w.inbox('vol').length, w.inbox('off').length]).toEqual([0, 0]);
  }, 90_000);

  it('switching reminders off and on again re-sends nothing', async () => {
    const w = await world();
    const { start, hours } = timing(3_000);
    await w.setHours(hours);
    const id = await w.book('vol', start);
    await w.reminder('vol');
    await w.setHours(0);
    await w.setHours(hours);
    // On again, the shift is inside the window: its reminder is scheduled at once, runs, and finds it sent.
    await eventually(async () => (await reminderState(reminderJob(id, start))) === undefined, 30_000);
    await sleep(500);
    expect(w.inbox('vol')).toHaveLength(1);
  }, 90_000);

  it('a longer window follows the setting: a reminder scheduled under the old hours comes at the new, earlier time', async () => {
    const w = await world();
    const { start, hours, due } = timing(lead(3), 90_000);
    const shortDue = due + 50 * HOUR_MS;
    await w.setHours(hours - 50);
    const id = await w.book('vol', start);
    await expectWaiting(id, start);
    await w.setHours(hours);

    await sleep(due - 500 - Date.now());
    expect(w.inbox('vol')).toHaveLength(0);
    await w.reminder('vol');
    expect(Date.now()).toBeLessThan(shortDue - 20_000);
    expect(w.inbox('vol')).toHaveLength(1);
  }, 90_000);

  it('shift_reminder_hours: a string holding 0–336 (else 422), "48" by default, seen and set only by holders of manage-rotas', async () => {
    const w = await world();
    const ds = app.get(DataSource);
    const events = () => eventCount(ds);
    expect((await w.detailed('boss')).shift_reminder_hours).toBe('48');
    for (const who of ['admin', 'vol']) expect(await w.detailed(who)).not.toHaveProperty('shift_reminder_hours');
    expect((await http().get('/api/organisation').set(w.as('boss')).expect(200)).body.data).not.toHaveProperty(
      'shift_reminder_hours',
    );

    const before = await events();
    for (const bad of ['337', '-1', '1.5', '4 8', 'x', '', 48, null, true]) {
      const res = await http()
        .put('/api/organisation')
        .set(w.as('boss'))
        .send({ shift_reminder_hours: bad })
        .expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['shift_reminder_hours']);
    }
    const forbidden = await http()
      .put('/api/organisation')
      .set(w.as('admin'))
      .send({ shift_reminder_hours: '24' })
      .expect(403);
    expect(forbidden.body.message).toMatch(/shift_reminder_hours/);
    expect(await events()).toBe(before);

    for (const value of ['0', '336', '24']) {
      const res = await http()
        .put('/api/organisation')
        .set(w.as('boss'))
        .send({ shift_reminder_hours: value })
        .expect(200);
      expect(res.body.data.shift_reminder_hours).toBe(value);
    }
    const byAdmin = await http().put('/api/organisation').set(w.as('admin')).send({ name: 'Renamed' }).expect(200);
    expect(byAdmin.body.data).not.toHaveProperty('shift_reminder_hours');
    expect((await w.detailed('boss')).shift_reminder_hours).toBe('24');
  });
});
