import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { todayIn } from '#app/platform';
import { deleteRedisKeys } from '../support/global-teardown.js';
import { eventually } from '../support/eventually.js';
import { type CaughtMail, startMailCatcher } from '../support/mail-catcher.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, provision, TEST_PASSWORD } from '../support/test-app.js';

/** A zone where it is about noon while the suite runs, so the shifts of the next minutes stay on one local day. */
const ZONE = ((offset: number) => (offset >= 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`))(
  12 - new Date().getUTCHours(),
);
/** REMINDER_HOUR_MS here: an "hour" of shift_reminder_hours lasts a second. */
const HOUR_MS = 1_000;
/** The queues and scheduler (libs/rotas/src: reminders.reactor.ts, booking/series-extension.ts). */
const ROTA_REMINDERS = 'rotas-reminders';
const SERIES_EXTENSION = 'rotas-series-extension';
const EXTENSION_SCHEDULER = 'rotas-series-extension';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const EVERY_DAY = { mon: 1, tue: 1, wed: 1, thu: 1, fri: 1, sat: 1, sun: 1 };
const VOLUNTEERS = 12;
const wall = (t: DateTime) => t.toFormat('yyyy-LL-dd HH:mm');
const subject = (m: CaughtMail) => /^Subject: (.*)$/m.exec(m.raw)?.[1] ?? '';
const isReminder = (m: CaughtMail) => subject(m).startsWith('Shift reminder: ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * docs/adr/0009-postgresql-records-owed-work.md, end to end in the servers mode: the queue's Redis
 * data is emptied (every key under the run's prefix deleted, which is FLUSHDB as this deployment
 * sees it; the test's Redis database is shared with the other test files running beside it) while
 * booking e-mails wait behind a slow SMTP server, a series is being generated and a reminder waits
 * as a delayed job. PostgreSQL says what is still owed, and the worker's reconciler offers it again:
 * every effect happens, once.
 */
const servers = Boolean(process.env.TEST_REDIS_URL && process.env.TEST_PG_ADMIN_URL);
(servers ? describe : describe.skip)('a queue that loses its data loses no work', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    // 250 ms per message: a dozen booking e-mails are still owed for seconds after their requests answered.
    mail = await startMailCatcher({ delayMs: 250 });
    env = await testEnvironment({
      SMTP_URL: mail.url,
      REMINDER_HOUR_MS: String(HOUR_MS),
      RECONCILE_MS: '500',
      AUTH_RATE_LIMIT_PER_ADDRESS: '100000',
    });
    app = await bootStandalone(env.config);
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await mail?.stop();
  });

  it(
    'emptied under running work (booking e-mails owed, a series being generated, a reminder planned): ' +
      'each booking mailed once, the series booked on every date once, the reminder sent once, the scheduler back',
    async () => {
      const slug = 'queue-loss';
      const address = (key: string) => `${key}@${slug}.example`;
      const volunteers = Array.from({ length: VOLUNTEERS }, (_, i) => `vol${i + 1}`);
      const user = (key: string, permissions: string[], team: string) => ({
        key,
        email: address(key),
        password: TEST_PASSWORD,
        display_name: key,
        permissions,
        roles: [{ team, role_profile: 'shop' }],
      });
      const org = await provision(app, {
        organisation: { name: 'Queue loss', slug, timezone: ZONE },
        role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
        teams: [
          { key: 'north', name: 'North' },
          { key: 'shop', name: 'Shop', parent: 'north' },
        ],
        users: [
          user('boss', ['manage-rotas', 'manage-organisation'], 'north'),
          ...['rem', 'ser', ...volunteers].map((v) => user(v, [], 'shop')),
        ],
      });
      const boss = { authorization: `Bearer ${await logIn(app, address('boss'))}` };
      const pattern = WEEKDAYS.map((d) => ({
        weekday_start: d,
        start_time: '00:00',
        weekday_end: d,
        end_time: '23:59',
        min: 1,
        ideal: 1,
        max: 50,
      }));
      const patternId = (await http().post('/api/shift-patterns').set(boss).send({ name: 'Week', pattern }).expect(201))
        .body.data.id;
      const today = todayIn(ZONE);
      const rota = (
        await http()
          .post('/api/rotas')
          .set(boss)
          .send({
            name: 'Kiosk',
            start_date: DateTime.fromISO(today).minus({ days: 7 }).toISODate(),
            pattern_id: patternId,
            team: [{ id: org.teams.shop }],
          })
          .expect(201)
      ).body.data[0].id;
      const book = async (who: string, start: DateTime, extra: object = {}) => {
        const res = await http()
          .post('/api/rota/shifts')
          .set(boss)
          .send({
            rota: { id: rota },
            user: { id: org.users[who] },
            start_datetime: wall(start),
            end_datetime: wall(start.plus({ minutes: 30 })),
            ...extra,
          });
        expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
        return res.body.data;
      };
      const ds = app.get(DataSource);
      const reminders = app.get<Queue>(getQueueToken(ROTA_REMINDERS), { strict: false });
      const extension = app.get<Queue>(getQueueToken(SERIES_EXTENSION), { strict: false });

      // A reminder due about 20 s from now, waiting as a delayed job.
      const now = DateTime.now().setZone(ZONE);
      const start = now.plus({ seconds: 90 }).startOf('minute').plus({ minutes: 1 });
      const hours = Math.floor((start.toMillis() - now.toMillis() - 20_000) / HOUR_MS);
      await http()
        .put('/api/organisation')
        .set(boss)
        .send({ shift_reminder_hours: String(hours) })
        .expect(200);
      const due = start.toMillis() - hours * HOUR_MS;
      const remShift = (await book('rem', start)).id as number;
      const reminderJob = `reminder-${remShift}-${start.toSeconds()}`;
      await eventually(async () => (await reminders.getJobState(reminderJob)) === 'delayed', 30_000);
      expect(await extension.getJobScheduler(EXTENSION_SCHEDULER)).toBeDefined();

      // A series of every day for six months (about 180 occurrences, in chunks of 50), and a booking per volunteer.
      const tomorrow = DateTime.fromISO(today, { zone: ZONE }).plus({ days: 1 });
      const series = (
        await book('ser', tomorrow.set({ hour: 20 }), {
          recurrence_pattern: { recurrence_period: 'week', recurrence_frequency: 1, end_date: null, ...EVERY_DAY },
        })
      ).recurrence_pattern.id as number;
      for (const [i, v] of volunteers.entries()) await book(v, tomorrow.plus({ days: i + 1 }).set({ hour: 10 }));

      // The queue forgets everything, while the work is still owed.
      const [{ owed }] = await ds.query(`SELECT count(*)::int AS owed FROM reactor_owed_jobs`);
      const mailedBefore = mail.mails.filter((m) => !isReminder(m)).length;
      // A worker whose job's keys vanish gets BullMQ's 'Missing key for job' errors: the dependency
      // monitor listens to every worker and queue, so none reaches the console outside pino.
      const consoleError = jest.spyOn(console, 'error');
      const deleted = await deleteRedisKeys(env.config.queue.redisUrl!, `${env.config.queue.prefix}:*`);
      expect(deleted).toBeGreaterThan(0);
      expect(owed).toBeGreaterThan(0);
      expect(mailedBefore).toBeLessThan(VOLUNTEERS + 1);
      expect(await reminders.getJobState(reminderJob)).toBe('unknown');

      // Each booking e-mail once (the reminder's volunteer got one too), whatever was lost.
      await eventually(
        () => [...volunteers, 'rem'].every((v) => mail.mails.some((m) => m.to.includes(address(v)))),
        60_000,
      );
      // The series booked to its horizon, every date once.
      await eventually(
        async () =>
          (
            await ds.query(`SELECT generated_until >= until AS done FROM rota_repeating_shifts WHERE id = $1`, [series])
          )[0].done === true,
        60_000,
      );
      const [dates] = await ds.query(
        `SELECT count(*)::int AS n, count(DISTINCT date)::int AS distinct_dates
           FROM rota_shifts WHERE series_id = $1 AND status = 'booked'`,
        [series],
      );
      expect(dates.n).toBe(dates.distinct_dates);
      expect(dates.n).toBeGreaterThan(150);
      // The daily extension's scheduler is back without a restart.
      await eventually(async () => (await extension.getJobScheduler(EXTENSION_SCHEDULER)) !== undefined, 10_000);
      // The reminder comes at its time, re-planned from the shifts.
      await sleep(due - 1_000 - Date.now());
      expect(mail.mails.filter(isReminder)).toHaveLength(0);
      await eventually(() => mail.mails.some(isReminder), 30_000);
      // Nothing stays owed; a job whose keys vanished while it ran is freed by BullMQ's stalled check (30 s).
      await eventually(
        async () => (await ds.query(`SELECT count(*)::int AS n FROM reactor_owed_jobs`))[0].n === 0,
        75_000,
      );

      await sleep(2_000); // room for a duplicate to show up, if any
      const inbox = (v: string) => mail.mails.filter((m) => m.to.includes(address(v)));
      expect(volunteers.map((v) => inbox(v).length)).toEqual(volunteers.map(() => 1));
      expect(
        inbox('rem')
          .map((m) => (isReminder(m) ? 'reminder' : 'booking'))
          .sort(),
      ).toEqual(['booking', 'reminder']);
      expect(inbox('ser').length).toBeLessThanOrEqual(1); // the series' own request at most; occurrences are not mailed
      expect(consoleError.mock.calls.map((args) => args.map(String).join(' '))).toEqual([]);
      consoleError.mockRestore();
    },
    180_000,
  );
});
