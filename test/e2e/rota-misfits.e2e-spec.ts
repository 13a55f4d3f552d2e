import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Job, Queue } from 'bullmq';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { derivedEventId, EventStore, type StoredEvent, systemActor } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { eventually } from '../support/eventually.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, provision, TEST_PASSWORD } from '../support/test-app.js';
import { eventCount } from '../support/nothing-written.js';

const ZONE = 'Europe/London';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const plusDays = (date: string, n: number) => DateTime.fromISO(date).plus({ days: n }).toISODate()!;
const SERIES_WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
/** The misfits worker's queue (libs/rotas/src/shift/misfits.reactor.ts). */
const ROTA_MISFITS = 'rotas-misfits';

/**
 * docs/rota-domain.md#shifts-that-no-longer-fit, through the worker: a rota change (bulk close, PUT
 * timeslots, archive) → reactor → BullMQ → processor → one ShiftCancelled per shift that no longer
 * fits, as the system ("rota change") caused by the change. The shifts that still fit and the past
 * ones stay; a cancelled shift leaves the list and its GET is a 404; a job run again appends nothing.
 */
describe('rota changes cancel the booked shifts they leave outside the rota', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let store: EventStore;
  let org: ProvisionResult;
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

  async function seedRota(team: string): Promise<number> {
    const patternId = (
      await http()
        .post('/api/shift-patterns')
        .set(as('boss'))
        .send({ name: `P ${team}`, pattern: nineToFive })
        .expect(201)
    ).body.data.id;
    const body = {
      name: `Rota ${team}`,
      start_date: plusDays(today, -7),
      pattern_id: patternId,
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
    ).body.data.map((s: { id: number }) => s.id);
  const lastRotaEvent = async (rotaId: number, type: string): Promise<StoredEvent> =>
    (await store.readStream(`rotas.Rota-${rotaId}`)).filter((e) => e.type === type).at(-1)!;
  const cancellations = async (shiftId: number) =>
    (await store.readStream(`rotas.Shift-${shiftId}`)).filter((e) => e.type === 'rotas.ShiftCancelled');

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
        ...['close', 'slots', 'archive', 'end'].map((key) => ({ key, name: key, parent: 'north' })),
      ],
      users: [user('boss', ['manage-rotas', 'add-user-shifts']), user('vol', [])],
    });
    for (const who of ['boss', 'vol']) tokens[who] = await logIn(app, `${who}@misfit.example`);
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it(
    'bulk close: the shift on the closed date is cancelled (rota_closed) as the system, caused by the ' +
      'RotaClosed; it leaves the list and its GET is a 404; the other stays; a job run again adds nothing',
    async () => {
      const rota = await seedRota('close');
      const [closedDay, openDay] = [plusDays(today, 3), plusDays(today, 4)];
      const onClosed = await book(rota, closedDay, '10:00', '12:00');
      const onOpen = await book(rota, openDay, '10:00', '12:00');
      await http()
        .post('/api/rotas/bulk')
        .set(as('boss'))
        .send({ action: 'close', rota_ids: [rota], data: { dates: [closedDay] } })
        .expect(204);

      await eventually(async () => (await status(onClosed)).status === 'cancelled', 30_000);
      expect(await status(onClosed)).toEqual({ status: 'cancelled', cancel_reason: 'rota_closed', sequence: 1 });
      expect(await status(onOpen)).toMatchObject({ status: 'booked' });
      expect(await listed(rota)).toEqual([onOpen]);
      await http().get(`/api/rota/shifts/${onClosed}`).set(as('boss')).expect(404);
      await http().get(`/api/rota/shifts/${onOpen}`).set(as('boss')).expect(200);

      const closed = await lastRotaEvent(rota, 'rotas.RotaClosed');
      const [cancel] = await cancellations(onClosed);
      expect(cancel).toMatchObject({
        eventId: derivedEventId(closed.eventId, `rotas.Shift-${onClosed}/0`),
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
          actor: systemActor('rota change'),
          causationId: closed.eventId,
          correlationId: closed.metadata.correlationId,
        },
      });

      // The job as BullMQ keeps it (the event id is its id), run twice more by the worker (a retry, a double): nothing new.
      const queue = app.get<Queue>(getQueueToken(ROTA_MISFITS), { strict: false });
      const job = (await queue.getJob(closed.eventId)) as Job;
      expect(job.data).toMatchObject({
        id: rota,
        effectiveFrom: closedDay,
        type: 'rotas.RotaClosed',
        cause: { eventId: closed.eventId },
      });
      const before = await eventCount(ds);
      const again = await Promise.all(
        ['again-1', 'again-2'].map((suffix) => queue.add(job.name, job.data, { jobId: `${closed.eventId}-${suffix}` })),
      );
      await eventually(
        async () =>
          (await Promise.all(again.map((j) => j.getState()))).every(
            (state) => state === 'completed' || state === 'failed',
          ),
        30_000,
      );
      expect(await Promise.all(again.map((j) => j.getState()))).toEqual(['completed', 'completed']);
      expect(await eventCount(ds)).toBe(before);
      expect(await cancellations(onClosed)).toHaveLength(1);
    },
  );

  it('PUT timeslots: a shift outside the new timeslots is cancelled (outside_timeslot); one inside them, and one before `from`, stay', async () => {
    const rota = await seedRota('slots');
    const [earlier, from] = [plusDays(today, 2), plusDays(today, 5)];
    const outside = await book(rota, from, '10:00', '12:00');
    const inside = await book(rota, from, '13:00', '15:00');
    const before = await book(rota, earlier, '10:00', '12:00');
    const afternoons = Object.fromEntries(
      WEEKDAYS.map((d) => [d, [{ start_time: '13:00', end_time: '17:00', min: 1, ideal: 1, max: 5 }]]),
    );
    await http().put(`/api/rotas/${rota}/timeslots`).set(as('boss')).send({ from, weekdays: afternoons }).expect(204);

    await eventually(async () => (await status(outside)).status === 'cancelled', 30_000);
    expect(await status(outside)).toEqual({ status: 'cancelled', cancel_reason: 'outside_timeslot', sequence: 1 });
    expect(await status(inside)).toMatchObject({ status: 'booked' });
    expect(await status(before)).toMatchObject({ status: 'booked' });
    expect((await listed(rota)).sort()).toEqual([before, inside].sort());
  });

  it('archive: every future shift is cancelled (rota_archived), a past one stays, and the rota’s repeating shift ends on the archive date', async () => {
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
    const seriesFirst = await book(rota, first, '09:00', '10:00', { recurrence_pattern });
    const [seriesId] = (await ds.query(`SELECT series_id::int FROM rota_shifts WHERE id = $1`, [seriesFirst])).map(
      (r: { series_id: number }) => r.series_id,
    );
    await http()
      .post('/api/rotas/bulk')
      .set(as('boss'))
      .send({ action: 'archive_rotas', rota_ids: [rota] })
      .expect(204);

    await eventually(
      async () => (await status(future)).status === 'cancelled' && (await status(seriesFirst)).status === 'cancelled',
      30_000,
    );
    expect(await status(future)).toMatchObject({ cancel_reason: 'rota_archived' });
    expect(await status(seriesFirst)).toMatchObject({ cancel_reason: 'rota_archived' });
    expect(await status(past)).toMatchObject({ status: 'booked' });
    // The series' later occurrences, whenever generation booked them: none stays booked.
    expect(
      await ds.query(`SELECT id FROM rota_shifts WHERE rota_id = $1 AND status = 'booked' AND date >= $2::date`, [
        rota,
        today,
      ]),
    ).toEqual([]);
    const ended = (await store.readStream(`rotas.RepeatingShift-${seriesId}`)).filter(
      (e) => e.type === 'rotas.RepeatingShiftEnded',
    );
    expect(ended.map((e) => e.data)).toEqual([
      { id: seriesId, organisationId: org.organisation.id, endDate: today, until: today, reason: 'rota_archived' },
    ]);
    expect(
      (await ds.query(`SELECT ended_reason FROM rota_repeating_shifts WHERE id = $1`, [seriesId]))[0].ended_reason,
    ).toBe('rota_archived');
  });

  it('bulk end_date: shifts after the end are cancelled (rota_ended), the one on the end date stays', async () => {
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

    await eventually(async () => (await status(after)).status === 'cancelled', 30_000);
    expect(await status(after)).toMatchObject({ cancel_reason: 'rota_ended' });
    expect(await status(onEnd)).toMatchObject({ status: 'booked' });
  });
});
