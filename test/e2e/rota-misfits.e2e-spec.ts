import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import { DateTime } from 'luxon';
import ical, { type VEvent } from 'node-ical';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EventStore, type StoredEvent, userActor } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { eventually } from '../support/eventually.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, provision, TEST_PASSWORD } from '../support/test-app.js';

const ZONE = 'Europe/London';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const plusDays = (date: string, n: number) => DateTime.fromISO(date).plus({ days: n }).toISODate()!;
const SERIES_WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
/** The series generator's queue (libs/rotas/src/booking/generation.reactor.ts). */
const GENERATION_QUEUE = 'rotas-series-generation';

/**
 * docs/rota-domain.md#shifts-that-no-longer-fit: a rota change (PUT timeslots, replace, bulk close,
 * end date and archive, a new team rota ending the running one) cancels the booked shifts it leaves
 * outside the rota in its own write, with the manager's metadata: when its answer arrives, each of
 * them is a 404 and no list, view or calendar feed shows it, and an archived rota's series books
 * nothing later. The shifts that still fit and the past ones stay. (The e-mails still come from the
 * worker: shift-notifications.e2e-spec.ts.)
 */
describe('rota changes cancel the booked shifts they leave outside the rota, in the same write', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let store: EventStore;
  let org: ProvisionResult;
  let feedUrl: string;
  const tokens: Record<string, string> = {};
  const today = todayIn(ZONE);
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });

  /** 09:00–17:00 every day. */
  const nineToFive = WEEKDAYS.map((d) => ({
    weekday_start: d,
    start_time: '09:00',
    weekday_end: d,
    end_time: '17:00',
    min: 1,
    ideal: 1,
    max: 5,
  }));
  const pattern = async (name: string, slots: object[]): Promise<number> =>
    (await http().post('/api/shift-patterns').set(as('boss')).send({ name, pattern: slots }).expect(201)).body.data.id;

  async function seedRota(team: string): Promise<number> {
    const body = {
      name: `Rota ${team}`,
      start_date: plusDays(today, -7),
      pattern_id: await pattern(`P ${team}`, nineToFive),
      team: [{ id: org.teams[team] }],
    };
    return (await http().post('/api/rotas').set(as('boss')).send(body).expect(201)).body.data[0].id;
  }
  /** A shift the manager books for the volunteer: its id. */
  const book = async (rotaId: number, date: string, from: string, to: string, extra: object = {}): Promise<number> =>
    (
      await http()
        .post('/api/rota/shifts')
        .set(as('boss'))
        .send({
          rota: { id: rotaId },
          user: { id: org.users.vol },
          start_datetime: `${date} ${from}`,
          end_datetime: `${date} ${to}`,
          ...extra,
        })
        .expect(201)
    ).body.data.id;
  const status = async (id: number): Promise<{ status: string; cancel_reason: string | null; sequence: number }> =>
    (await ds.query(`SELECT status, cancel_reason, sequence FROM rota_shifts WHERE id = $1`, [id]))[0];
  const listed = async (rotaId: number): Promise<number[]> =>
    (
      await http()
        .get(`/api/rota/shifts?rotas=${rotaId}&start_date=${plusDays(today, -3)}&end_date=${plusDays(today, 30)}`)
        .set(as('boss'))
        .expect(200)
    ).body.data
      .map((s: { id: number }) => s.id)
      .sort((a: number, b: number) => a - b);
  /** The shifts the day view and the detailed period view show of a rota on a date. */
  const inViews = async (rotaId: number, date: string): Promise<{ day: number[]; period: number[] }> => {
    const ids = (rotas: { shifts: { id: number }[] }[]) => rotas.flatMap((r) => r.shifts.map((s) => s.id)).sort();
    const day = (await http().get(`/api/rota/day/${date}`).set(as('boss')).query({ rotas: rotaId }).expect(200)).body;
    const period = (
      await http()
        .get('/api/rota/period')
        .set(as('boss'))
        .query({ start_date: date, end_date: date, rotas: rotaId, list: 'detailed' })
        .expect(200)
    ).body;
    return { day: ids(day.rotas), period: ids(period.dates.flatMap((d: { rotas: [] }) => d.rotas)) };
  };
  /** The shift ids in the volunteer's calendar feed. */
  const inFeed = async (): Promise<number[]> => {
    const res = await app.inject({ method: 'GET', url: new URL(feedUrl).pathname });
    expect(res.statusCode).toBe(200);
    return Object.values(ical.sync.parseICS(res.body))
      .filter((c): c is VEvent => c?.type === 'VEVENT')
      .map((e) => Number(/^shift-\d+-(\d+)@/.exec(e.uid)![1]));
  };
  const lastRotaEvent = async (rotaId: number, type: string): Promise<StoredEvent> =>
    (await store.readStream(`rotas.Rota-${rotaId}`)).filter((e) => e.type === type).at(-1)!;
  const cancellations = async (shiftId: number) =>
    (await store.readStream(`rotas.Shift-${shiftId}`)).filter((e) => e.type === 'rotas.ShiftCancelled');
  /** Gone at once: a 404, out of the list; the other shifts still there. */
  async function goneAtOnce(rotaId: number, gone: number[], kept: number[]): Promise<void> {
    for (const id of gone) await http().get(`/api/rota/shifts/${id}`).set(as('boss')).expect(404);
    for (const id of kept) await http().get(`/api/rota/shifts/${id}`).set(as('boss')).expect(200);
    const list = await listed(rotaId);
    expect(gone.filter((id) => list.includes(id))).toEqual([]);
    expect(kept.filter((id) => !list.includes(id))).toEqual([]);
  }

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    ds = app.get(DataSource);
    store = app.get(EventStore);
    const user = (key: string, permissions: string[]) => ({
      key,
      email: `${key}@misfit.example`,
      password: TEST_PASSWORD,
      display_name: key,
      permissions,
      roles: [{ team: 'north', role_profile: 'shop' }],
    });
    org = await provision(app, {
      organisation: { name: 'Misfit', slug: 'misfit', timezone: ZONE },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [
        { key: 'north', name: 'North' },
        ...['close', 'slots', 'replace', 'archive', 'end', 'superseded', 'race'].map((key) => ({
          key,
          name: key,
          parent: 'north',
        })),
      ],
      users: [user('boss', ['manage-rotas', 'add-user-shifts']), user('vol', [])],
    });
    for (const who of ['boss', 'vol']) tokens[who] = await logIn(app, `${who}@misfit.example`);
    feedUrl = (await http().post('/api/users/me/calendar-feed').set(as('vol')).expect(201)).body.data.url;
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it(
    'bulk close: when the 204 arrives, the shift on the closed date is cancelled (rota_closed) in the ' +
      'RotaClosed’s own transaction, with the manager as actor; a 404, out of the list, the views and the feed; the other stays',
    async () => {
      const rota = await seedRota('close');
      const [closedDay, openDay] = [plusDays(today, 3), plusDays(today, 4)];
      const onClosed = await book(rota, closedDay, '10:00', '12:00');
      const onOpen = await book(rota, openDay, '10:00', '12:00');
      expect(await inFeed()).toEqual(expect.arrayContaining([onClosed, onOpen]));
      await http()
        .post('/api/rotas/bulk')
        .set(as('boss'))
        .send({ action: 'close', rota_ids: [rota], data: { dates: [closedDay] } })
        .expect(204);

      await goneAtOnce(rota, [onClosed], [onOpen]);
      expect(await inViews(rota, closedDay)).toEqual({ day: [], period: [] });
      expect(await inViews(rota, openDay)).toEqual({ day: [onOpen], period: [onOpen] });
      const feed = await inFeed();
      expect([feed.includes(onClosed), feed.includes(onOpen)]).toEqual([false, true]);
      expect(await status(onClosed)).toEqual({ status: 'cancelled', cancel_reason: 'rota_closed', sequence: 1 });
      expect(await status(onOpen)).toMatchObject({ status: 'booked' });

      const closed = await lastRotaEvent(rota, 'rotas.RotaClosed');
      const [cancel] = await cancellations(onClosed);
      expect(cancel).toMatchObject({
        transactionId: closed.transactionId,
        data: {
          id: onClosed,
          rotaId: rota,
          userId: org.users.vol,
          date: closedDay,
          reason: 'rota_closed',
          sequence: 1,
        },
        metadata: {
          organisationId: org.organisation.id,
          actor: userActor(org.users.boss!),
          correlationId: closed.metadata.correlationId,
        },
      });
      expect(await cancellations(onOpen)).toEqual([]);
    },
  );

  it('a booking racing a close of its day: either it is refused (422) or it is booked and the close cancels it; never a booked shift on a closed day', async () => {
    const rota = await seedRota('race');
    const days = [20, 21, 22, 23, 24].map((n) => plusDays(today, n));
    const answers = await Promise.all(
      days.flatMap((day) => [
        http()
          .post('/api/rota/shifts')
          .set(as('boss'))
          .send({
            rota: { id: rota },
            user: { id: org.users.vol },
            start_datetime: `${day} 10:00`,
            end_datetime: `${day} 12:00`,
          }),
        http()
          .post('/api/rotas/bulk')
          .set(as('boss'))
          .send({ action: 'close', rota_ids: [rota], data: { dates: [day] } }),
      ]),
    );
    for (let i = 0; i < answers.length; i += 2) {
      expect([201, 422]).toContain(answers[i]!.status);
      expect(answers[i + 1]!.status).toBe(204);
    }
    expect(
      await ds.query(`SELECT id FROM rota_shifts WHERE rota_id = $1 AND status = 'booked' AND date = ANY($2::date[])`, [
        rota,
        days,
      ]),
    ).toEqual([]);
  });

  it('PUT timeslots: a shift outside the new timeslots is cancelled at once (outside_timeslot); one inside them, and one before `from`, stay', async () => {
    const rota = await seedRota('slots');
    const [earlier, from] = [plusDays(today, 2), plusDays(today, 5)];
    const outside = await book(rota, from, '10:00', '12:00');
    const inside = await book(rota, from, '13:00', '15:00');
    const before = await book(rota, earlier, '10:00', '12:00');
    const afternoons = Object.fromEntries(
      WEEKDAYS.map((d) => [d, [{ start_time: '13:00', end_time: '17:00', min: 1, ideal: 1, max: 5 }]]),
    );
    await http().put(`/api/rotas/${rota}/timeslots`).set(as('boss')).send({ from, weekdays: afternoons }).expect(204);

    await goneAtOnce(rota, [outside], [inside, before]);
    expect(await inViews(rota, from)).toEqual({ day: [inside], period: [inside] });
    expect(await status(outside)).toEqual({ status: 'cancelled', cancel_reason: 'outside_timeslot', sequence: 1 });
    expect(await status(before)).toMatchObject({ status: 'booked' });
  });

  it('replace: a shift outside the pattern’s timeslots from start_date on is cancelled at once; the one that fits stays', async () => {
    const rota = await seedRota('replace');
    const from = plusDays(today, 9);
    const morning = await book(rota, from, '10:00', '12:00');
    const afternoon = await book(rota, plusDays(from, 1), '13:00', '15:00');
    const afternoons = await pattern(
      'Afternoons',
      nineToFive.map((s) => ({ ...s, start_time: '13:00' })),
    );
    await http()
      .post('/api/rotas/replace')
      .set(as('boss'))
      .send({ start_date: from, pattern_id: afternoons, replace_rotas: [rota] })
      .expect(204);

    await goneAtOnce(rota, [morning], [afternoon]);
    expect(await status(morning)).toMatchObject({ status: 'cancelled', cancel_reason: 'outside_timeslot' });
  });

  it(
    'archive: every future shift is cancelled at once (rota_archived), a past one stays, and the rota’s ' +
      'repeating shift ends on the archive date: its generation, run after, books nothing',
    async () => {
      const rota = await seedRota('archive');
      const past = await book(rota, plusDays(today, -2), '10:00', '12:00');
      const future = await book(rota, plusDays(today, 6), '10:00', '12:00');
      const first = plusDays(today, 8);
      const weekday = SERIES_WEEKDAYS[DateTime.fromISO(first).weekday - 1]!;
      const recurrence_pattern = {
        recurrence_period: 'week',
        recurrence_frequency: 1,
        ...Object.fromEntries(SERIES_WEEKDAYS.map((d) => [d, d === weekday ? 1 : 0])),
        end_date: null,
      };
      // The series' later occurrences are booked by the worker: held back until after the archive.
      const generation = app.get<Queue>(getQueueToken(GENERATION_QUEUE), { strict: false });
      await generation.pause();
      let seriesFirst: number;
      try {
        seriesFirst = await book(rota, first, '09:00', '10:00', { recurrence_pattern });
        await http()
          .post('/api/rotas/bulk')
          .set(as('boss'))
          .send({ action: 'archive_rotas', rota_ids: [rota] })
          .expect(204);

        await http().get(`/api/rota/shifts/${future}`).set(as('boss')).expect(404);
        await http().get(`/api/rota/shifts/${seriesFirst}`).set(as('boss')).expect(404);
        expect(await status(future)).toMatchObject({ cancel_reason: 'rota_archived' });
        expect(await status(seriesFirst)).toMatchObject({ cancel_reason: 'rota_archived' });
        expect(await status(past)).toMatchObject({ status: 'booked' });
        expect(await inFeed()).not.toEqual(expect.arrayContaining([future]));
      } finally {
        await generation.resume();
      }
      const [seriesId] = (await ds.query(`SELECT series_id::int FROM rota_shifts WHERE id = $1`, [seriesFirst])).map(
        (r: { series_id: number }) => r.series_id,
      );
      const seriesEvents = await store.readStream(`rotas.RepeatingShift-${seriesId}`);
      const ended = seriesEvents.filter((e) => e.type === 'rotas.RepeatingShiftEnded');
      expect(ended.map((e) => e.data)).toEqual([
        { id: seriesId, organisationId: org.organisation.id, endDate: today, until: today, reason: 'rota_archived' },
      ]);
      expect(ended[0]!.transactionId).toBe((await lastRotaEvent(rota, 'rotas.RotaArchived')).transactionId);
      // The series' generation job, run now, finds it ended: nothing is booked on the rota from today on.
      const started = seriesEvents.find((e) => e.type === 'rotas.RepeatingShiftStarted')!;
      await eventually(
        async () => (await (await generation.getJob(started.eventId))?.getState()) === 'completed',
        30_000,
      );
      expect(
        await ds.query(`SELECT id FROM rota_shifts WHERE rota_id = $1 AND status = 'booked' AND date >= $2::date`, [
          rota,
          today,
        ]),
      ).toEqual([]);
      expect(
        (await ds.query(`SELECT ended_reason FROM rota_repeating_shifts WHERE id = $1`, [seriesId]))[0].ended_reason,
      ).toBe('rota_archived');
    },
  );

  it('bulk end_date: shifts after the end are cancelled at once (rota_ended), the one on the end date stays', async () => {
    const rota = await seedRota('end');
    const end = plusDays(today, 4);
    // The volunteer's other shifts end by 15:00 on these dates (no overlap, rule 6).
    const onEnd = await book(rota, end, '15:00', '16:00');
    const after = await book(rota, plusDays(end, 1), '15:00', '16:00');
    await http()
      .post('/api/rotas/bulk')
      .set(as('boss'))
      .send({ action: 'end_date', rota_ids: [rota], data: { date: end } })
      .expect(204);

    await goneAtOnce(rota, [after], [onEnd]);
    expect(await status(after)).toMatchObject({ cancel_reason: 'rota_ended' });
  });

  it('a new rota of the team ends the running one the day before its start: the old rota’s shifts from then on are cancelled at once', async () => {
    const old = await seedRota('superseded');
    const start = plusDays(today, 12);
    const before = await book(old, plusDays(start, -1), '10:00', '12:00');
    const after = await book(old, plusDays(start, 1), '10:00', '12:00');
    await http()
      .post('/api/rotas')
      .set(as('boss'))
      .send({
        name: 'New',
        start_date: start,
        pattern_id: await pattern('P new', nineToFive),
        team: [{ id: org.teams.superseded }],
      })
      .expect(201);

    await goneAtOnce(old, [after], [before]);
    expect(await status(after)).toMatchObject({ cancel_reason: 'rota_ended' });
  });
});
