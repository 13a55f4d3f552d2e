import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import { DateTime } from 'luxon';
import request from 'supertest';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { type CaughtMail, startMailCatcher } from '../support/mail-catcher.js';
import { openRota } from '../support/rota-client.js';
import { querySql, runCli } from '../support/run-cli.js';
import { bootStandalone, logIn, provision, userFile } from '../support/test-app.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';

const ZONE = 'Europe/London';
const plusDays = (date: string, n: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days: n }).toISODate()!;
/** docs/privacy.md#retention: the day after the last activity's date plus N months (here N = 1). */
const dueAfterOneMonth = (date: string) =>
  DateTime.fromISO(date, { zone: 'UTC' }).plus({ months: 1 }).plus({ days: 1 }).toISODate()!;

/** Each test runs the CLI (a child process that loads the application) and may boot the app. */
const SLOW = 240_000;

/**
 * The retention sweep (docs/privacy.md#retention) through the compiled CLI, `privacy:due --as-of`
 * and `privacy:sweep --as-of`, in both modes: Riverside anonymises after 1 month, Hillside never
 * ("0"). Everyone registered today (T), so due_on is T + 1 month + 1 day (D0) unless a booked shift
 * ended later: carol's (T+20) and, booked between two sweeps, dave's (T+8); bob's shift (T+60) has
 * not ended by D0, so he is spared; erin's shift was cancelled, so it does not count. The warning
 * goes to the SMTP server of the test, once per due_on.
 */
describe('retention: privacy:due and privacy:sweep', () => {
  let env: TestEnvironment;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let org: ProvisionResult;
  let hill: ProvisionResult;
  let rota: number | undefined;
  const T = todayIn(ZONE);
  const D0 = dueAfterOneMonth(T);
  const W1 = plusDays(D0, -3);
  const cli = (...args: string[]) => runCli(env, args, { SMTP_URL: mail.url });
  const id = (key: string) => org.users[key]!;
  const subjects = (to: string) =>
    mail.mails
      .filter((m: CaughtMail) => m.to.includes(to))
      .map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1]?.trim())
      .filter((s) => s?.startsWith('Your account will be anonymised'));

  /** Boots the service, does `work` over HTTP as the manager, and stops it (the CLI then has the database). */
  async function withApp(
    work: (
      book: (user: string, date: string) => Promise<number>,
      cancel: (shift: number) => Promise<void>,
    ) => Promise<void>,
  ) {
    const app: NestFastifyApplication = await bootStandalone(env.config);
    try {
      const http = () => request(app.getHttpServer());
      const auth = { authorization: `Bearer ${await logIn(app, 'boss@riverside.example')}` };
      rota ??= await openRota(http, auth, { name: 'North', teamId: org.teams.north!, startDate: T });
      const book = async (user: string, date: string) => {
        const body = {
          rota: { id: rota },
          user: { id: id(user) },
          start_datetime: `${date} 10:00`,
          end_datetime: `${date} 12:00`,
        };
        const res = await http().post('/api/rota/shifts').set(auth).send(body);
        expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.anything() });
        return res.body.data.id as number;
      };
      const cancel = async (shift: number) => {
        await http().delete(`/api/rota/shifts/${shift}`).set(auth).expect(204);
      };
      await work(book, cancel);
    } finally {
      await app.close();
    }
  }

  beforeAll(async () => {
    mail = await startMailCatcher();
    env = await testEnvironment({ SMTP_URL: mail.url });
    const app = await bootStandalone(env.config);
    try {
      org = await provision(app, {
        organisation: {
          name: 'Riverside',
          slug: 'riverside',
          timezone: ZONE,
          settings: { anonymise_users_after: '1' },
        },
        role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
        teams: [{ key: 'north', name: 'North' }],
        users: [
          userFile('boss', ['manage-rotas', 'add-user-shifts'], ['north']),
          ...['alice', 'bob', 'carol', 'dave', 'erin'].map((k) => userFile(k, [], ['north'])),
        ],
      });
      hill = await provision(app, {
        organisation: { name: 'Hillside', slug: 'hillside', timezone: ZONE, settings: { anonymise_users_after: '0' } },
        role_profiles: [{ key: 'shop', name: 'P' }],
        teams: [{ key: 't', name: 'T' }],
        users: [userFile('hill', [], ['t'], { domain: 'hillside' })],
      });
    } finally {
      await app.close();
    }
    await withApp(async (book, cancel) => {
      await book('bob', plusDays(T, 60));
      await book('carol', plusDays(T, 20));
      await cancel(await book('erin', plusDays(T, 30)));
    });
  }, SLOW);
  afterAll(async () => {
    await env?.cleanup();
    await mail?.stop();
  });

  it(
    'a sweep within 14 days of due_on warns those due then, once per due_on; nobody is due yet',
    async () => {
      expect(JSON.parse((await cli('privacy:due', '--as-of', W1)).stdout)).toEqual([]);
      const first = await cli('privacy:sweep', '--as-of', W1);
      expect(first.code).toBe(0);
      // Not bob (a shift that has not ended), not carol (due 14+ days later), nobody of Hillside.
      expect(JSON.parse(first.stdout)).toEqual({
        warned: [id('boss'), id('alice'), id('dave'), id('erin')].sort((a, b) => a - b),
        anonymised: [],
      });
      expect(subjects('dave@riverside.example')).toEqual([`Your account will be anonymised on ${D0}`]);
      expect(subjects('bob@riverside.example')).toEqual([]);
      expect(subjects('carol@riverside.example')).toEqual([]);
      expect(subjects('hill@hillside.example')).toEqual([]);
      // Again the same day, or the next: no second warning for the same due_on.
      expect(JSON.parse((await cli('privacy:sweep', '--as-of', plusDays(W1, 1))).stdout)).toEqual({
        warned: [],
        anonymised: [],
      });
      expect(subjects('dave@riverside.example')).toHaveLength(1);
      expect(subjects('alice@riverside.example')).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'privacy:due on due_on lists who is due, soonest first, ties by id, and writes nothing',
    async () => {
      const events = `SELECT count(*)::int AS n FROM events`;
      const before = await querySql<{ n: number }>(env, events);
      const due = await cli('privacy:due', '--as-of', D0);
      expect(due.code).toBe(0);
      const row = (key: string) => ({
        organisation: 'riverside',
        user_id: id(key),
        email: `${key}@riverside.example`,
        last_activity: T,
        due_on: D0,
      });
      expect(JSON.parse(due.stdout)).toEqual(
        ['boss', 'alice', 'dave', 'erin'].map(row).sort((a, b) => a.user_id - b.user_id),
      );
      expect(await querySql(env, events)).toEqual(before);
      // A day before due_on: nobody.
      expect(JSON.parse((await cli('privacy:due', '--as-of', plusDays(D0, -1))).stdout)).toEqual([]);
    },
    SLOW,
  );

  it(
    'activity moves the date: a shift booked for dave moves his due_on, and the new date gets its own warning; the due are anonymised',
    async () => {
      const daveDay = plusDays(T, 8);
      await withApp(async (book) => {
        await book('dave', daveDay);
      });
      const daveDue = dueAfterOneMonth(daveDay);
      const sweep = await cli('privacy:sweep', '--as-of', D0);
      expect(sweep.code).toBe(0);
      expect(JSON.parse(sweep.stdout)).toEqual({
        warned: [id('dave')],
        anonymised: [id('boss'), id('alice'), id('erin')].sort((a, b) => a - b),
      });
      expect(subjects('dave@riverside.example')).toEqual([
        `Your account will be anonymised on ${D0}`,
        `Your account will be anonymised on ${daveDue}`,
      ]);
      const rows = await querySql<{ id: string; anonymised: boolean }>(
        env,
        `SELECT id, anonymised_at IS NOT NULL AS anonymised FROM users WHERE id = ANY($1) ORDER BY id`,
        [Object.values(org.users)],
      );
      expect(Object.fromEntries(rows.map((r) => [Number(r.id), r.anonymised]))).toEqual({
        [id('boss')]: true,
        [id('alice')]: true,
        [id('erin')]: true,
        [id('bob')]: false,
        [id('carol')]: false,
        [id('dave')]: false,
      });
      const anonymisedEvents = await querySql<{ n: number }>(
        env,
        `SELECT count(*)::int AS n FROM events WHERE type = 'identity.UserAnonymised'`,
      );
      expect(anonymisedEvents).toEqual([{ n: 3 }]);
      // Anonymised users are not due again; a second sweep does nothing.
      expect(JSON.parse((await cli('privacy:due', '--as-of', D0)).stdout)).toEqual([]);
      expect(JSON.parse((await cli('privacy:sweep', '--as-of', D0)).stdout)).toEqual({ warned: [], anonymised: [] });
    },
    SLOW,
  );

  it(
    'bob is spared while his shift has not ended, and due a month after it; carol a month after hers',
    async () => {
      const bobDay = plusDays(T, 60);
      // Dave's due_on (T+8) comes before carol's (T+20): soonest first.
      const onBobDay = JSON.parse((await cli('privacy:due', '--as-of', bobDay)).stdout);
      expect(onBobDay.map((d: { user_id: number }) => d.user_id)).toEqual([id('dave'), id('carol')]);
      const bobDue = dueAfterOneMonth(bobDay);
      const due = JSON.parse((await cli('privacy:due', '--as-of', bobDue, '--org', 'riverside')).stdout);
      expect(
        due.map((d: { user_id: number; last_activity: string; due_on: string }) => [
          d.user_id,
          d.last_activity,
          d.due_on,
        ]),
      ).toEqual([
        [id('dave'), plusDays(T, 8), dueAfterOneMonth(plusDays(T, 8))],
        [id('carol'), plusDays(T, 20), dueAfterOneMonth(plusDays(T, 20))],
        [id('bob'), bobDay, bobDue],
      ]);
    },
    SLOW,
  );

  it(
    'the setting "0" means nobody; --org keeps to one organisation; a bad date or slug is exit 2',
    async () => {
      const far = plusDays(T, 3650);
      expect(JSON.parse((await cli('privacy:due', '--as-of', far, '--org', 'hillside')).stdout)).toEqual([]);
      expect(JSON.parse((await cli('privacy:sweep', '--as-of', far, '--org', 'hillside')).stdout)).toEqual({
        warned: [],
        anonymised: [],
      });
      expect(hill.users.hill).toEqual(expect.any(Number));
      const bad = await cli('privacy:due', '--as-of', '2027-02-30');
      expect([bad.code, bad.stdout]).toEqual([2, '']);
      expect((await cli('privacy:sweep', '--org', 'nowhere')).code).toBe(2);
    },
    SLOW,
  );

  it(
    'the read model is a projection: a replay from the log rebuilds the same rows',
    async () => {
      const checksum = `SELECT (SELECT md5(coalesce(string_agg(a::text, '|' ORDER BY user_id), '')) FROM retention_activity a) AS activity,
                              (SELECT md5(coalesce(string_agg(s::text, '|' ORDER BY shift_id), '')) FROM retention_shifts s) AS shifts,
                              (SELECT count(*)::int FROM retention_shifts) AS n`;
      const before = await querySql<{ n: number }>(env, checksum);
      expect(before[0]!.n).toBe(3); // bob's, carol's and dave's; erin's was cancelled
      const replay = await cli('projections:replay', 'privacy.last-activity');
      expect(replay.code).toBe(0);
      expect(await querySql(env, checksum)).toEqual(before);
    },
    SLOW,
  );

  it(
    'the worker keeps an hourly job scheduler for the sweep in its queue',
    async () => {
      const app = await bootStandalone(env.config);
      try {
        const queue = app.get<Queue>(getQueueToken('privacy-retention'));
        expect(await queue.getJobScheduler('privacy-retention-sweep')).toEqual(
          expect.objectContaining({ key: 'privacy-retention-sweep', every: 3_600_000 }),
        );
      } finally {
        await app.close();
      }
    },
    SLOW,
  );
});
