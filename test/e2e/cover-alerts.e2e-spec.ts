import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { OutboxMailer, todayIn } from '#app/platform';
import { eventually } from '../support/eventually.js';
import { mailText, startMailCatcher } from '../support/mail-catcher.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, provision, TEST_PASSWORD } from '../support/test-app.js';

/**
 * A zone where it is about noon while the suite runs (fixed offsets: Etc/GMT-3 is UTC+3): today's
 * 10:00 timeslot has started, tomorrow's starts within 24 hours, the day after's does not.
 */
const ZONE = ((offset: number) => (offset >= 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`))(
  12 - new Date().getUTCHours(),
);
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** The cover alerts' queue (libs/rotas/src/cover-alerts/cover-alerts.reactor.ts): plan jobs and alert jobs. */
const COVER_ALERTS = 'rotas-cover-alerts';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const subjectOf = (raw: string) =>
  raw
    .slice(0, raw.indexOf('\r\n\r\n'))
    .replace(/\r\n[ \t]/g, ' ')
    .split('\r\n')
    .find((l) => l.startsWith('Subject: '))
    ?.slice('Subject: '.length) ?? '';
const bodyOf = (raw: string) => Buffer.from(mailText(raw), 'latin1').toString('utf8').replace(/\r\n/g, '\n');

/**
 * docs/rota-domain.md#cover-alerts, end to end: shift and rota events and the setting → reactor →
 * plan jobs → alert jobs → the outbox → a real SMTP server the test starts. Each case has an
 * organisation of its own.
 */
describe('cover alerts', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let worlds = 0;
  const http = () => request(app.getHttpServer());
  const queue = () => app.get<Queue>(getQueueToken(COVER_ALERTS), { strict: false });
  const today = todayIn(ZONE);
  const tomorrow = DateTime.fromISO(today).plus({ days: 1 }).toISODate()!;
  const dayAfter = DateTime.fromISO(today).plus({ days: 2 }).toISODate()!;

  /**
   * The plan job of a stream's latest event (the runner makes the event id the job id) is done, and
   * every alert job it added; `planned` false for an event the reactor makes no job of (a booking).
   */
  async function settled(streamId: string, planned = true): Promise<void> {
    const [last] = (await app.get(EventStore).readStream(streamId)).slice(-1);
    if (!last) return;
    if (planned)
      await eventually(async () => (await (await queue().getJob(last.eventId))?.getState()) === 'completed', 30_000);
    await eventually(async () => {
      const counts = await queue().getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return Object.values(counts).every((n) => n === 0);
    }, 30_000);
    await sleep(300);
  }

  /**
   * An organisation: teams north > shop and north > depot; a self-managed rota on shop (min 2) and one not
   * self-managed on depot (min 1), each 10:00–12:00 every day; boss (manage-rotas, north) is a
   * contact of both, `both` (shop) a contact of the shop rota.
   */
  async function world() {
    const slug = `cover-${++worlds}`;
    const address = (key: string) => `${key}@${slug}.example`;
    const user = (key: string, team: string, more: Record<string, unknown> = {}) => ({
      key,
      email: address(key),
      password: TEST_PASSWORD,
      display_name: `${key[0]!.toUpperCase()}${key.slice(1)}`,
      roles: [{ team, role_profile: 'helper' }],
      ...more,
    });
    const org = await provision(app, {
      organisation: { name: `Cover ${worlds}`, slug, timezone: ZONE },
      role_profiles: [{ key: 'helper', name: 'Helper' }],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'shop', name: 'Shop', parent: 'north' },
        { key: 'depot', name: 'Depot', parent: 'north' },
      ],
      users: [
        user('boss', 'north', { permissions: ['manage-rotas'] }),
        user('lead', 'north'),
        user('vol', 'shop'),
        user('both', 'shop'),
        user('held', 'shop', { status: 'on_hold' }),
        user('busy', 'shop'),
        user('porter', 'depot'),
      ],
    });
    const token = await logIn(app, address('boss'));
    const as = { authorization: `Bearer ${token}` };
    const rotaOn = async (team: number, name: string, min: number, selfManage: boolean) => {
      const pattern = WEEKDAYS.map((d) => ({
        weekday_start: d,
        start_time: '10:00',
        weekday_end: d,
        end_time: '12:00',
        min,
        ideal: min,
        max: 5,
      }));
      const patternId = (await http().post('/api/shift-patterns').set(as).send({ name, pattern }).expect(201)).body.data
        .id;
      const body = {
        name,
        start_date: DateTime.fromISO(today).minus({ days: 1 }).toISODate(),
        pattern_id: patternId,
        team: [{ id: team }],
        self_manage: selfManage,
      };
      return (await http().post('/api/rotas').set(as).send(body).expect(201)).body.data[0].id as number;
    };
    const shop = await rotaOn(org.teams.shop!, 'Shop', 2, true);
    const depot = await rotaOn(org.teams.depot!, 'Depot', 1, false);
    const contact = async (rota: number, who: string) => {
      await http().post(`/api/rotas/${rota}/contacts`).set(as).send({ user_id: org.users[who] }).expect(201);
      await settled(`rotas.Rota-${rota}`);
    };
    await contact(shop, 'boss');
    await contact(shop, 'both');
    await contact(depot, 'boss');
    return {
      org,
      shop,
      depot,
      address,
      as,
      /** The cover alerts someone got, as "rota date" from their subjects. */
      alerts: (key: string) =>
        mail.mails
          .filter((m) => m.to.includes(address(key)) && subjectOf(m.raw).startsWith('Cover needed:'))
          .map((m) => subjectOf(m.raw).replace(/^Cover needed: (\w+), (\S+) .*$/, '$1 $2'))
          .sort(), // dates sort as text
      raw: (key: string) =>
        mail.mails.find((m) => m.to.includes(address(key)) && subjectOf(m.raw).startsWith('Cover needed:'))!.raw,
      async setDays(days: number): Promise<void> {
        await http()
          .put('/api/organisation')
          .set(as)
          .send({ cover_alert_days: String(days) })
          .expect(200);
        await settled(`organisation.Settings-${org.organisation.id}`);
      },
      async book(rota: number, who: string, date: string): Promise<number> {
        const res = await http()
          .post('/api/rota/shifts')
          .set(as)
          .send({
            rota: { id: rota },
            user: { id: org.users[who] },
            start_datetime: `${date} 10:00`,
            end_datetime: `${date} 12:00`,
          });
        expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
        await settled(`rotas.Shift-${res.body.data.id}`, false);
        return res.body.data.id;
      },
      async cancel(id: number): Promise<void> {
        await http().delete(`/api/rota/shifts/${id}`).set(as).expect(204);
        await settled(`rotas.Shift-${id}`);
      },
    };
  }

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

  it(
    'alerts each eligible volunteer and each contact once per short occurrence inside the window; a cancellation ' +
      'alerts who is free now; a restarted worker sends nothing again',
    async () => {
      const w = await world();
      const busy = await w.book(w.shop, 'busy', tomorrow); // 1 of 2: still below minimum
      for (const who of ['boss', 'both', 'vol']) expect(w.alerts(who)).toEqual([]); // "0" by default

      await w.setDays(1);
      await eventually(() => w.alerts('vol').length === 1 && w.alerts('boss').length === 2, 30_000);
      await settled(`organisation.Settings-${w.org.organisation.id}`);
      // Tomorrow's occurrences only: today's has started, the day after's starts later than 24 h from now.
      expect(w.alerts('boss')).toEqual([`Depot ${tomorrow}`, `Shop ${tomorrow}`]);
      expect(w.alerts('both')).toEqual([`Shop ${tomorrow}`]); // a contact and a volunteer: one mail
      expect(w.alerts('vol')).toEqual([`Shop ${tomorrow}`]);
      // On hold, booked then, only in a team above, of another team (and on a rota not self-managed): none.
      for (const nobody of ['held', 'busy', 'lead', 'porter']) expect([nobody, w.alerts(nobody)]).toEqual([nobody, []]);
      const message = w.raw('vol');
      expect(subjectOf(message)).toBe(`Cover needed: Shop, ${tomorrow} 10:00-12:00`);
      expect(bodyOf(message)).toContain(`Shop needs 1 more volunteer on ${tomorrow}, 10:00 to 12:00.`);

      // The cancellation leaves it needing 2, and busy is free then: alerted; nobody else again.
      await w.cancel(busy);
      await eventually(() => w.alerts('busy').length === 1, 30_000);
      await settled(`rotas.Shift-${busy}`);
      expect([w.alerts('vol').length, w.alerts('both').length, w.alerts('boss').length]).toEqual([1, 1, 2]);

      // A restarted worker, and everything planned again (a new setting, the window now reaching the
      // day after): tomorrow's alerts are not sent again; the day after's are new.
      await app.close();
      app = await bootStandalone(env.config);
      await w.setDays(2);
      await eventually(() => w.alerts('vol').length === 2, 30_000);
      await settled(`organisation.Settings-${w.org.organisation.id}`);
      expect(w.alerts('vol')).toEqual([`Shop ${tomorrow}`, `Shop ${dayAfter}`]);
      expect(w.alerts('busy')).toEqual([`Shop ${tomorrow}`, `Shop ${dayAfter}`]);
      expect(w.alerts('both')).toEqual([`Shop ${tomorrow}`, `Shop ${dayAfter}`]);
      expect(w.alerts('boss')).toEqual([
        `Depot ${tomorrow}`,
        `Depot ${dayAfter}`,
        `Shop ${tomorrow}`,
        `Shop ${dayAfter}`,
      ]);
      for (const nobody of ['held', 'lead', 'porter']) expect([nobody, w.alerts(nobody)]).toEqual([nobody, []]);

      // Filled and dropped again: nobody hears of the same occurrence twice.
      const a = await w.book(w.shop, 'vol', tomorrow);
      const b = await w.book(w.shop, 'both', tomorrow);
      await w.cancel(a);
      await w.cancel(b);
      await settled(`rotas.Shift-${b}`);
      expect([w.alerts('vol').length, w.alerts('busy').length, w.alerts('both').length]).toEqual([2, 2, 2]);
    },
    180_000,
  );

  it('a cancellation while the occurrence’s alert job runs (its trigger dropped: the job id is taken) still alerts who is free now', async () => {
    const w = await world();
    const busy = await w.book(w.shop, 'busy', tomorrow);
    const start = DateTime.fromISO(`${tomorrow}T10:00`, { zone: ZONE }).toMillis();
    const data = { organisationId: w.org.organisation.id, rotaId: w.shop, date: tomorrow, start };
    const jobId = `cover-${w.org.organisation.id}-${w.shop}-${tomorrow}-${Math.floor(start / 1000)}`;
    const mailer = app.get(OutboxMailer, { strict: false });
    const sendOnce = mailer.sendOnce;
    let dropped: string | undefined;
    // At the job's first mail, as with a second worker: busy's shift is cancelled and its plan, run
    // elsewhere, adds the occurrence's alert job while this one is active; BullMQ ignores the add.
    mailer.sendOnce = async function (key, message) {
      if (dropped === undefined && key.startsWith(`cover-alert-${w.org.organisation.id}-${w.shop}-`)) {
        dropped = 'pending';
        await http().delete(`/api/rota/shifts/${busy}`).set(w.as).expect(204);
        const [cancelled] = (await app.get(EventStore).readStream(`rotas.Shift-${busy}`)).slice(-1);
        await eventually(async () => (await queue().getJob(cancelled!.eventId)) !== undefined, 10_000);
        // It ran in the other worker: gone from the queue and from what the reactor owes.
        await (await queue().getJob(cancelled!.eventId))!.remove();
        await app.get(DataSource).query(`DELETE FROM reactor_owed_jobs WHERE event_id = $1`, [cancelled!.eventId]);
        await queue().add('alert-cover', data, { jobId });
        dropped = await (await queue().getJob(jobId))!.getState();
      }
      return sendOnce.call(this, key, message);
    };
    try {
      await w.setDays(1);
      await eventually(() => dropped !== undefined && dropped !== 'pending', 30_000);
      expect(dropped).toBe('active');
      await eventually(() => w.alerts('vol').length === 1, 30_000);
      await eventually(() => w.alerts('busy').length === 1, 10_000);
      expect([w.alerts('vol'), w.alerts('both'), w.alerts('busy')]).toEqual([
        [`Shop ${tomorrow}`],
        [`Shop ${tomorrow}`],
        [`Shop ${tomorrow}`],
      ]);
    } finally {
      mailer.sendOnce = sendOnce;
    }
  }, 120_000);

  it('"0" alerts nobody; an occurrence covered by the time its alert job runs is not mailed', async () => {
    const w = await world();
    const shifts = [await w.book(w.shop, 'vol', tomorrow), await w.book(w.shop, 'busy', tomorrow)];
    await w.book(w.depot, 'porter', tomorrow);
    await w.cancel(shifts[0]!); // coverage drops, but the setting is "0"
    await sleep(1_000);
    for (const who of ['boss', 'both', 'vol', 'busy']) expect(w.alerts(who)).toEqual([]);

    await w.book(w.shop, 'vol', tomorrow); // covered again (2 of 2)
    await w.setDays(1);
    await sleep(1_000);
    for (const who of ['boss', 'both', 'vol', 'busy']) expect(w.alerts(who)).toEqual([]);
    // An alert job for the covered occurrence (as a plan made before it filled would have added): it judges it again and sends nothing.
    const start = DateTime.fromISO(`${tomorrow}T10:00`, { zone: ZONE }).toMillis();
    await queue().add(
      'alert-cover',
      { organisationId: w.org.organisation.id, rotaId: w.shop, date: tomorrow, start },
      { jobId: `test-covered-${worlds}` },
    );
    await eventually(
      async () => (await (await queue().getJob(`test-covered-${worlds}`))?.getState()) === 'completed',
      30_000,
    );
    await sleep(500);
    for (const who of ['boss', 'both', 'vol', 'busy']) expect(w.alerts(who)).toEqual([]);
    // The same job for the uncovered day after (outside the 1-day window): nothing either.
    const later = DateTime.fromISO(`${dayAfter}T10:00`, { zone: ZONE }).toMillis();
    await queue().add(
      'alert-cover',
      { organisationId: w.org.organisation.id, rotaId: w.shop, date: dayAfter, start: later },
      { jobId: `test-outside-${worlds}` },
    );
    await eventually(
      async () => (await (await queue().getJob(`test-outside-${worlds}`))?.getState()) === 'completed',
      30_000,
    );
    await sleep(500);
    for (const who of ['boss', 'both', 'vol', 'busy']) expect(w.alerts(who)).toEqual([]);
  }, 120_000);
});
