import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { eventually } from '../support/eventually.js';
import { type CaughtMail, mailText, startMailCatcher } from '../support/mail-catcher.js';
import { calendarOf } from '../support/mail-calendar.js';
import { expectRefused } from '../support/nothing-written.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, provision, TEST_PASSWORD } from '../support/test-app.js';

const ZONE = 'Europe/London';
/** A zone where it is about noon while the suite runs (cover-alerts.e2e-spec.ts): tomorrow's 10:00 starts within 24 hours. */
const NOON_ZONE = ((offset: number) => (offset >= 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`))(
  12 - new Date().getUTCHours(),
);
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const NEXT = Object.fromEntries(WEEKDAYS.map((d, i) => [d, WEEKDAYS[(i + 1) % 7]!]));
const plusDays = (date: string, n: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days: n }).toISODate()!;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const ROTA_NOTIFICATIONS = 'rotas-notifications';
/** The shift events the notifications reactor makes jobs of. */
const MAILED = [
  'rotas.ShiftBooked',
  'rotas.ShiftMoved',
  'rotas.ShiftCancelled',
  'rotas.ShiftStandInRequested',
  'rotas.ShiftHandedOver',
];
const COVER_ALERTS = 'rotas-cover-alerts';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const subjectOf = (raw: string) =>
  raw
    .slice(0, raw.indexOf('\r\n\r\n'))
    .replace(/\r\n[ \t]/g, ' ')
    .split('\r\n')
    .find((l) => l.startsWith('Subject: '))
    ?.slice('Subject: '.length) ?? '';

type UserRef = { id: number };
type Shift = {
  id: number;
  user: UserRef;
  date: string;
  start_datetime: string;
  end_datetime: string;
  recurrence_pattern: { id: number } | null;
  stand_in: { requested_at: string; requested_by: UserRef & { display_name: string }; note: string | null } | null;
};

/**
 * Stand-ins and take-overs over HTTP (docs/rota-domain.md#stand-ins-and-take-overs): asking,
 * replacing the note and withdrawing; the Shift's stand_in and the list's stand_in filter; the
 * take-over with its refusals in order (404, 403, 409, 422s) and nothing written by any; a second
 * hand-over; a series occurrence taken over while the series goes on (and never books that date
 * again, also after a split); the e-mails with their calendar parts, none about a cancelled shift;
 * coverage in the day and period views and the cover alert a request brings (not to its own
 * volunteer); two takers at once, twenty times, one winner each.
 */
describe('stand-ins and take-overs', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let org: ProvisionResult;
  const rotas: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  const today = todayIn(ZONE);
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const address = (key: string) => `${key}@standin.example`;
  const inbox = (key: string, subject: string) =>
    mail.mails.filter((m) => m.to.includes(address(key)) && subjectOf(m.raw).startsWith(subject));
  /** The `count`-th mail to `key` whose subject starts with `subject`, once it came. */
  async function waitSubject(key: string, subject: string, count = 1): Promise<CaughtMail> {
    await eventually(() => inbox(key, subject).length >= count, 30_000);
    return inbox(key, subject)[count - 1]!;
  }
  const refused = (send: () => request.Test, status: number) => expectRefused(ds, send, status, ['rota_shifts']);
  const uid = (shiftId: number) => `shift-${org.organisation.id}-${shiftId}@api.test`;

  const ask = (who: string, id: number | string, body: object = {}) =>
    http().put(`/api/rota/shifts/${id}/stand-in`).set(as(who)).send(body);
  const withdraw = (who: string, id: number | string) => http().delete(`/api/rota/shifts/${id}/stand-in`).set(as(who));
  const takeOver = (who: string, id: number | string, body: object = {}) =>
    http().post(`/api/rota/shifts/${id}/take-over`).set(as(who)).send(body);
  const getShift = async (id: number): Promise<Shift> =>
    (await http().get(`/api/rota/shifts/${id}`).set(as('boss')).expect(200)).body.data;
  const list = (who: string, query: string) => http().get(`/api/rota/shifts?${query}`).set(as(who));

  async function book(by: string, rota: string, who: string, date: string, from = '10:00', to = '12:00') {
    const res = await http()
      .post('/api/rota/shifts')
      .set(as(by))
      .send({
        rota: { id: rotas[rota] },
        user: { id: org.users[who] },
        start_datetime: `${date} ${from}`,
        end_datetime: `${date} ${to}`,
      });
    expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
    return res.body.data as Shift;
  }
  /** Booked, and a stand-in asked for by its volunteer. */
  async function asked(who: string, date: string, rota = 'cafe'): Promise<Shift> {
    const shift = await book('boss', rota, who, date);
    await ask(who === 'held' ? 'boss' : who, shift.id).expect(200);
    return shift;
  }
  /** The notification job of a shift's latest mailed event (notification-plan.ts MAILED_TYPES) is done. */
  async function mailed(shiftId: number): Promise<void> {
    const queue = app.get<Queue>(getQueueToken(ROTA_NOTIFICATIONS), { strict: false });
    const events = await app.get(EventStore).readStream(`rotas.Shift-${shiftId}`);
    const [last] = events.filter((e) => MAILED.includes(e.type)).slice(-1);
    await eventually(async () => (await (await queue.getJob(last!.eventId))?.getState()) === 'completed', 30_000);
  }

  beforeAll(async () => {
    mail = await startMailCatcher();
    env = await testEnvironment({ SMTP_URL: mail.url, AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    ds = app.get(DataSource);
    const user = (key: string, permissions: string[], team: string, more: object = {}) => ({
      key,
      email: address(key),
      password: TEST_PASSWORD,
      display_name: `${key[0]!.toUpperCase()}${key.slice(1)}`,
      permissions,
      roles: [team, ...(team === 'shop' ? ['depot'] : [])].map((t) => ({ team: t, role_profile: 'shop' })),
      ...more,
    });
    const volunteers = ['ann', 'bea', 'cat', 'dan', 'eve', 'fay', 'gus', 'hal'];
    org = await provision(app, {
      organisation: { name: 'Stand-ins', slug: 'standin', timezone: ZONE },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'shop', name: 'Shop', parent: 'north' },
        { key: 'depot', name: 'Depot', parent: 'north' },
      ],
      users: [
        user('boss', ['manage-rotas'], 'north'),
        user('contact', [], 'shop'),
        user('held', [], 'shop', { status: 'on_hold' }),
        ...volunteers.map((v) => user(v, [], 'shop')),
      ],
    });
    for (const who of ['boss', 'held', ...volunteers]) tokens[who] = await logIn(app, address(who));
    // Midnight to midnight every day, max 1: any shift within a day fits, and a take-over of a full timeslot still passes (rule 7 not applied).
    const pattern = WEEKDAYS.map((d) => ({
      weekday_start: d,
      start_time: '00:00',
      weekday_end: NEXT[d],
      end_time: '00:00',
      min: 1,
      ideal: 1,
      max: 1,
    }));
    const patternId = (
      await http().post('/api/shift-patterns').set(as('boss')).send({ name: 'Days', pattern }).expect(201)
    ).body.data.id;
    const rota = async (name: string, team: number, selfManage: boolean) =>
      (
        await http()
          .post('/api/rotas')
          .set(as('boss'))
          .send({
            name,
            start_date: plusDays(today, -7),
            pattern_id: patternId,
            team: [{ id: team }],
            self_manage: selfManage,
            contacts: [org.users.contact],
          })
          .expect(201)
      ).body.data[0].id as number;
    rotas.cafe = await rota('Cafe', org.teams.shop!, true);
    rotas.depot = await rota('Depot', org.teams.depot!, false);
    // Eleven password hashes and log-ins: slow on a busy machine, embedded above all.
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await mail?.stop();
  });

  it('asks, replaces the note, withdraws: stand_in on the record and the list filter; the contacts told once, of the first request', async () => {
    const date = plusDays(today, 3);
    const shift = await book('ann', 'cafe', 'ann', date);
    expect(shift.stand_in).toBeNull();

    const first = (await ask('ann', shift.id, { note: 'Ill' }).expect(200)).body.data as Shift;
    expect(first.user.id).toBe(org.users.ann);
    expect(first.stand_in).toEqual({
      requested_at: expect.stringMatching(ISO),
      requested_by: expect.objectContaining({ id: org.users.ann, display_name: 'Ann' }),
      note: 'Ill',
    });
    expect((await getShift(shift.id)).stand_in).toEqual(first.stand_in);
    const ids = async (query: string, who = 'bea') =>
      (
        (await list(who, `rotas=${rotas.cafe}&start_date=${date}&end_date=${date}&${query}`).expect(200)).body
          .data as Shift[]
      ).map((s) => s.id);
    // Any volunteer's, for anyone who sees the rota.
    expect(await ids('stand_in=true')).toEqual([shift.id]);
    expect(await ids('stand_in=false')).toEqual([]);
    expect(await ids('stand_in=1&users=' + org.users.bea)).toEqual([]);
    await list('bea', 'stand_in=maybe').expect(422);

    const again = (await ask('ann', shift.id, { note: 'Still ill' }).expect(200)).body.data as Shift;
    expect(again.stand_in).toEqual({ ...first.stand_in, note: 'Still ill' });
    await ask('ann', shift.id, { note: 'Still ill' }).expect(200); // the same note: nothing recorded

    const wanted = await waitSubject('contact', 'Stand-in wanted:');
    expect(subjectOf(wanted.raw)).toBe(
      `Stand-in wanted: Cafe, ${DateTime.fromISO(date).toFormat('cccc')} ${date} 10:00`,
    );
    expect(mailText(wanted.raw)).toContain('Ann is looking for someone to take over their shift:');
    await mailed(shift.id);
    await sleep(300);
    expect(inbox('contact', 'Stand-in wanted:')).toHaveLength(1);
    expect(inbox('ann', 'Stand-in')).toHaveLength(0);

    await withdraw('ann', shift.id).expect(204);
    expect((await getShift(shift.id)).stand_in).toBeNull();
    expect(await ids('stand_in=true')).toEqual([]);
    await refused(() => withdraw('ann', shift.id), 409);

    const history = (await http().get(`/api/rota/shifts/${shift.id}/history`).set(as('ann')).expect(200)).body.data;
    expect(history.map((e: { action: string }) => e.action)).toEqual([
      'ShiftBooked',
      'ShiftStandInRequested',
      'ShiftStandInNoteChanged',
      'ShiftStandInWithdrawn',
    ]);
    expect(history[1]).toEqual(
      expect.objectContaining({
        actor: expect.objectContaining({ id: org.users.ann }),
        changes: { stand_in: { requested_by: expect.objectContaining({ id: org.users.ann }), note: 'Ill' } },
      }),
    );
  });

  it('asking and withdrawing refuse in order, writing nothing: 404, 403, 409, 422', async () => {
    const date = plusDays(today, 4);
    const shift = await book('boss', 'cafe', 'bea', date);
    const depot = await book('boss', 'depot', 'bea', plusDays(date, 1));
    await refused(() => ask('bea', 999_999), 404);
    await refused(() => ask('cat', shift.id), 403); // someone else's
    await refused(() => ask('bea', depot.id), 403); // a rota that is not self-managed
    await refused(() => withdraw('cat', shift.id), 403);
    await refused(() => withdraw('bea', shift.id), 409); // nothing asked
    const long = await refused(() => ask('bea', shift.id, { note: 'x'.repeat(501) }), 422);
    expect(Object.keys(long.errors!)).toEqual(['note']);
    // Started (a manager booked it yesterday): 422 for everyone.
    const past = await book('boss', 'cafe', 'bea', plusDays(today, -1));
    expect(Object.keys((await refused(() => ask('boss', past.id), 422)).errors!)).toEqual(['start_datetime']);
    // A manager asks for anyone, on any rota they manage.
    const managed = (await ask('boss', depot.id, { note: null }).expect(200)).body.data as Shift;
    expect(managed.stand_in).toEqual(
      expect.objectContaining({ requested_by: expect.objectContaining({ id: org.users.boss }), note: null }),
    );
    // A cancelled shift: 404.
    await http().delete(`/api/rota/shifts/${shift.id}`).set(as('boss')).expect(204);
    await refused(() => ask('bea', shift.id), 404);
  });

  it('takes over: the shift (same id, times, rota) becomes the taker’s, its request closed; the previous volunteer gets Stand-in found with a CANCEL part', async () => {
    const date = plusDays(today, 5);
    const shift = await asked('cat', date);
    const taken = (await takeOver('dan', shift.id).expect(200)).body.data as Shift;
    expect(taken).toEqual(
      expect.objectContaining({
        id: shift.id,
        user: expect.objectContaining({ id: org.users.dan }),
        start_datetime: shift.start_datetime,
        end_datetime: shift.end_datetime,
        stand_in: null,
        recurrence_pattern: null,
      }),
    );
    const found = await waitSubject('cat', 'Stand-in found:');
    expect(subjectOf(found.raw)).toMatch(/^Stand-in found: Cafe, \w+ \S+ 10:00$/);
    expect(mailText(found.raw)).toContain('Dan has taken over your shift:');
    const cancel = calendarOf(found, 'cancel.ics');
    expect(cancel.method).toBe('CANCEL');
    expect(cancel.events.map((e) => [e.uid, Number(e.sequence)])).toEqual([[uid(shift.id), 1]]);
    await mailed(shift.id);
    await sleep(300);
    expect(mail.mails.filter((m) => m.to.includes(address('dan')))).toHaveLength(0); // took it themself: no mail

    // The shift is dan's now: cat can no longer act on it, dan can, and a second hand-over works.
    await refused(() => ask('cat', shift.id), 403);
    await ask('dan', shift.id).expect(200);
    const second = (await takeOver('eve', shift.id).expect(200)).body.data as Shift;
    expect(second.user.id).toBe(org.users.eve);
    const found2 = await waitSubject('dan', 'Stand-in found:');
    expect(calendarOf(found2, 'cancel.ics').events.map((e) => Number(e.sequence))).toEqual([2]);
    const history = (await http().get(`/api/rota/shifts/${shift.id}/history`).set(as('boss')).expect(200)).body.data;
    expect(history.map((e: { action: string }) => e.action)).toEqual([
      'ShiftBooked',
      'ShiftStandInRequested',
      'ShiftHandedOver',
      'ShiftStandInRequested',
      'ShiftHandedOver',
    ]);
    expect(history[2]).toEqual(
      expect.objectContaining({
        actor: expect.objectContaining({ id: org.users.dan }),
        changes: expect.objectContaining({
          user: expect.objectContaining({ id: org.users.dan }),
          previous_user: expect.objectContaining({ id: org.users.cat }),
          handed_over_by: 'take_over',
        }),
      }),
    );
  });

  it('a manager hands it to someone (the taker gets the usual booking mail with a REQUEST part), also one on hold with ignore_on_hold', async () => {
    const shift = await asked('fay', plusDays(today, 6));
    await refused(() => takeOver('boss', shift.id, { user: { id: org.users.held } }), 422); // rule 4
    const taken = (await takeOver('boss', shift.id, { user: { id: org.users.held }, ignore_on_hold: true }).expect(200))
      .body.data as Shift;
    expect(taken.user.id).toBe(org.users.held);
    const booked = await waitSubject('held', 'Shift booked:');
    expect(subjectOf(booked.raw)).toMatch(/^Shift booked: Cafe/);
    const invite = calendarOf(booked, 'invite.ics');
    expect([invite.method, invite.events.map((e) => e.uid)]).toEqual(['REQUEST', [uid(shift.id)]]);
    expect(subjectOf((await waitSubject('fay', 'Stand-in found:')).raw)).toMatch(/^Stand-in found: Cafe/);
  });

  it('take-over refusals in order, writing nothing: 404, 403, 409, 422 (user, the rules)', async () => {
    const date = plusDays(today, 8);
    const shift = await asked('gus', date);
    const depot = await book('boss', 'depot', 'gus', plusDays(date, 1));
    await ask('boss', depot.id).expect(200);
    const open = await book('boss', 'cafe', 'gus', plusDays(date, 2));
    await refused(() => takeOver('hal', 999_999), 404);
    await refused(() => takeOver('hal', shift.id, { user: { id: org.users.bea } }), 403); // someone else, not a manager
    await refused(() => takeOver('hal', shift.id, { ignore_on_hold: true }), 403); // an override, not a manager
    await refused(() => takeOver('hal', depot.id), 403); // not self-managed
    await refused(() => takeOver('hal', open.id), 409); // not looking for a stand-in
    const fields = async (send: () => request.Test) => Object.keys((await refused(send, 422)).errors!);
    expect(await fields(() => takeOver('boss', shift.id, { user: { id: org.users.gus } }))).toEqual(['user']);
    expect(await fields(() => takeOver('held', shift.id))).toEqual(['user']); // on hold (rule 4)
    await book('boss', 'depot', 'hal', date, '11:00', '13:00');
    expect(await fields(() => takeOver('hal', shift.id))).toEqual(['start_datetime']); // overlap (rule 6)
    // The same shift's 409 once taken: never asked again.
    await takeOver('bea', shift.id).expect(200);
    await refused(() => takeOver('cat', shift.id), 409);
  });

  it('a series occurrence taken over leaves the series, which goes on, never books that date again (a split neither), and whose cancel leaves it', async () => {
    const first = plusDays(today, 14);
    const last = plusDays(first, 35);
    const res = await http()
      .post('/api/rota/shifts')
      .set(as('boss'))
      .send({
        rota: { id: rotas.cafe },
        user: { id: org.users.ann },
        start_datetime: `${first} 08:00`,
        end_datetime: `${first} 09:00`,
        recurrence_pattern: { recurrence_period: 'week', recurrence_frequency: 1, end_date: last },
      })
      .expect(201);
    const seriesId = res.body.data.recurrence_pattern.id as number;
    const series = () => http().get(`/api/rota/repeating-shifts/${seriesId}`).set(as('boss')).expect(200);
    await eventually(async () => (await series()).body.data.generated_until === last, 30_000);
    const ofDate = async (date: string) =>
      (await list('boss', `rotas=${rotas.cafe}&start_date=${date}&end_date=${date}`).expect(200)).body.data.filter(
        (s: Shift) => s.start_datetime.endsWith('08:00'),
      ) as Shift[];
    const third = plusDays(first, 14);
    const [occurrence] = await ofDate(third);
    expect(occurrence!.recurrence_pattern).toEqual(expect.objectContaining({ id: seriesId }));
    await ask('ann', occurrence!.id).expect(200);
    const taken = (await takeOver('bea', occurrence!.id).expect(200)).body.data as Shift;
    expect([taken.user.id, taken.recurrence_pattern]).toEqual([org.users.bea, null]);
    // The series goes on around it.
    expect((await ofDate(plusDays(first, 21))).map((s) => [s.user.id, s.recurrence_pattern?.id])).toEqual([
      [org.users.ann, seriesId],
    ]);
    // A split from the second occurrence: the new series skips the date taken over.
    const [second] = await ofDate(plusDays(first, 7));
    const split = await http()
      .put(`/api/rota/shifts/${second!.id}`)
      .set(as('boss'))
      .send({
        start_datetime: `${second!.date} 08:00`,
        end_datetime: `${second!.date} 09:00`,
        edit_mode: 'recurring',
        recurrence_pattern: { recurrence_period: 'week', recurrence_frequency: 1, end_date: plusDays(last, 7) },
      })
      .expect(200);
    const newSeries = split.body.data.recurrence_pattern.id as number;
    await eventually(
      async () =>
        (await http().get(`/api/rota/repeating-shifts/${newSeries}`).set(as('boss')).expect(200)).body.data
          .generated_until === plusDays(last, 7),
      30_000,
    );
    expect((await ofDate(third)).map((s) => [s.id, s.user.id])).toEqual([[occurrence!.id, org.users.bea]]);
    expect(
      (await http().get(`/api/rota/repeating-shifts/${newSeries}`).set(as('boss')).expect(200)).body.data.skipped,
    ).toEqual([{ date: third, reason: 'series_exception' }]);
    // Cancelling the (new) series leaves the one-off cover alone: never a permanent assignment of it.
    await http().delete(`/api/rota/repeating-shifts/${newSeries}`).set(as('boss')).expect(204);
    expect((await getShift(occurrence!.id)).user.id).toBe(org.users.bea);
    expect(await ofDate(plusDays(first, 21))).toEqual([]);
  }, 180_000);

  it('no mail about a shift cancelled before its mail went (tapir#828, helfertool#45)', async () => {
    const queue = app.get<Queue>(getQueueToken(ROTA_NOTIFICATIONS), { strict: false });
    const shift = await book('boss', 'cafe', 'hal', plusDays(today, 9));
    await mailed(shift.id);
    const before = inbox('contact', 'Stand-in wanted:').length;
    await queue.pause();
    try {
      await ask('hal', shift.id).expect(200);
      await http().delete(`/api/rota/shifts/${shift.id}`).set(as('hal')).expect(204);
    } finally {
      await queue.resume();
    }
    await mailed(shift.id);
    const events = await app.get(EventStore).readStream(`rotas.Shift-${shift.id}`);
    const requestJob = await queue.getJob(events.find((e) => e.type === 'rotas.ShiftStandInRequested')!.eventId);
    await eventually(async () => (await requestJob?.getState()) === 'completed', 30_000);
    await sleep(300);
    expect(inbox('contact', 'Stand-in wanted:')).toHaveLength(before);
  });

  it('two takers at once, twenty times: exactly one 200 and one 409 each time, one hand-over, never two owners', async () => {
    const dates = Array.from({ length: 20 }, (_, i) => plusDays(today, 60 + i));
    const booked = (
      await http()
        .post('/api/rota/shifts')
        .set(as('boss'))
        .send({
          shifts: dates.map((d) => ({
            rota: { id: rotas.cafe },
            user: { id: org.users.ann },
            start_datetime: `${d} 14:00`,
            end_datetime: `${d} 16:00`,
          })),
        })
        .expect(201)
    ).body.data as Shift[];
    for (const shift of booked) await ask('ann', shift.id).expect(200);
    for (const shift of booked) {
      const answers = await Promise.all([takeOver('bea', shift.id), takeOver('cat', shift.id)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = answers.find((r) => r.status === 200)!.body.data as Shift;
      expect((await getShift(shift.id)).user.id).toBe(winner.user.id);
      const events = await app.get(EventStore).readStream(`rotas.Shift-${shift.id}`);
      expect(events.filter((e) => e.type === 'rotas.ShiftHandedOver')).toHaveLength(1);
    }
  }, 180_000);

  describe('coverage and the cover alert (a world at noon)', () => {
    it(
      'a request leaves the shift out of coverage (day and period views, below_minimum) while it stays its volunteer’s; ' +
        'it brings a cover alert to the contact and eligible volunteers, never to its own volunteer',
      async () => {
        const tomorrow = plusDays(todayIn(NOON_ZONE), 1);
        const addr = (key: string) => `${key}@noon.example`;
        const user = (key: string, team: string, permissions: string[] = []) => ({
          key,
          email: addr(key),
          password: TEST_PASSWORD,
          display_name: `${key[0]!.toUpperCase()}${key.slice(1)}`,
          permissions,
          roles: [{ team, role_profile: 'helper' }],
        });
        const noon = await provision(app, {
          organisation: { name: 'Noon', slug: 'noon', timezone: NOON_ZONE },
          role_profiles: [{ key: 'helper', name: 'Helper' }],
          teams: [
            { key: 'north', name: 'North' },
            { key: 'shop', name: 'Shop', parent: 'north' },
          ],
          users: [
            user('boss', 'north', ['manage-rotas']),
            user('con', 'shop'),
            user('ann', 'shop'),
            user('bea', 'shop'),
          ],
        });
        const auth = async (key: string) => ({ authorization: `Bearer ${await logIn(app, addr(key))}` });
        const [boss, ann] = [await auth('boss'), await auth('ann')];
        const pattern = WEEKDAYS.map((d) => ({
          weekday_start: d,
          start_time: '10:00',
          weekday_end: d,
          end_time: '12:00',
          min: 1,
          ideal: 1,
          max: 5,
        }));
        const patternId = (
          await http().post('/api/shift-patterns').set(boss).send({ name: 'Shop', pattern }).expect(201)
        ).body.data.id;
        const rota = (
          await http()
            .post('/api/rotas')
            .set(boss)
            .send({
              name: 'Shop',
              start_date: plusDays(tomorrow, -2),
              pattern_id: patternId,
              team: [{ id: noon.teams.shop }],
              self_manage: true,
              contacts: [noon.users.con],
            })
            .expect(201)
        ).body.data[0].id as number;
        const shift = (
          await http()
            .post('/api/rota/shifts')
            .set(ann)
            .send({
              rota: { id: rota },
              user: { id: noon.users.ann },
              start_datetime: `${tomorrow} 10:00`,
              end_datetime: `${tomorrow} 12:00`,
            })
            .expect(201)
        ).body.data as Shift;
        await http().put('/api/organisation').set(boss).send({ cover_alert_days: '1' }).expect(200);
        const coverQueue = app.get<Queue>(getQueueToken(COVER_ALERTS), { strict: false });
        const quiet = () =>
          eventually(async () => {
            const counts = await coverQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
            return Object.values(counts).every((n) => n === 0);
          }, 30_000);
        await sleep(500);
        await quiet();
        const alerts = (key: string) =>
          mail.mails.filter((m) => m.to.includes(addr(key)) && subjectOf(m.raw).startsWith('Cover needed:'));
        expect(['con', 'ann', 'bea'].map((k) => alerts(k).length)).toEqual([0, 0, 0]); // covered

        const day = async () =>
          (
            await http()
              .get(`/api/rota/day/${tomorrow}`)
              .query({ rotas: String(rota), user_flags: 'true' })
              .set(ann)
              .expect(200)
          ).body.rotas[0];
        const period = async () =>
          (
            await http()
              .get('/api/rota/period')
              .query({ start_date: tomorrow, end_date: tomorrow, rotas: String(rota), list: 'detailed' })
              .set(boss)
              .expect(200)
          ).body.dates[0];
        const before = await day();
        expect([before.below_minimum, before.hours.map((h: { shift_count: number }) => h.shift_count)]).toEqual([
          false,
          [1, 1],
        ]);
        expect((await period()).below_minimum).toBe(false);

        await http().put(`/api/rota/shifts/${shift.id}/stand-in`).set(ann).send({ note: 'Away' }).expect(200);
        const after = await day();
        expect([
          after.below_minimum,
          after.status,
          after.hours.map((h: { shift_count: number }) => h.shift_count),
        ]).toEqual([true, -2, [0, 0]]);
        // Still the volunteer's: listed, own_shift(s), total_users, with its stand_in.
        expect([after.own_shift, after.total_users, after.own_shifts.map((s: Shift) => s.id)]).toEqual([
          true,
          1,
          [shift.id],
        ]);
        expect(after.shifts[0].stand_in).toEqual(
          expect.objectContaining({ note: 'Away', requested_by: expect.objectContaining({ id: noon.users.ann }) }),
        );
        const date = await period();
        expect([date.below_minimum, date.status]).toEqual([true, -2]);
        expect(date.rotas[0].shifts.map((s: Shift) => s.stand_in?.note)).toEqual(['Away']);

        await eventually(() => alerts('con').length === 1 && alerts('bea').length === 1, 30_000);
        await quiet();
        await sleep(300);
        expect(alerts('ann')).toHaveLength(0);
        expect(subjectOf(alerts('bea')[0]!.raw)).toBe(`Cover needed: Shop, ${tomorrow} 10:00-12:00`);
        const wanted = () =>
          mail.mails.filter((m) => m.to.includes(addr('con')) && subjectOf(m.raw).startsWith('Stand-in wanted:'));
        // Its own queue: it may come after the alerts.
        await eventually(() => wanted().length === 1, 30_000);

        // Withdrawn: counted again.
        await http().delete(`/api/rota/shifts/${shift.id}/stand-in`).set(ann).expect(204);
        expect((await day()).below_minimum).toBe(false);
      },
      180_000,
    );
  });
});
