import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import { DiscoveryService } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Cause, EventStore } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { eventually } from '../support/eventually.js';
import { bootStandalone, logIn, provision, TEST_PASSWORD } from '../support/test-app.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { eventCount } from '../support/nothing-written.js';

const ZONE = 'Europe/London';
/** The worker's queues, job name and scheduler (libs/rotas/src/repeating-shift: generation.reactor.ts, series-extension.ts). */
const GENERATION_QUEUE = 'rotas-series-generation';
const EXTENSION_QUEUE = 'rotas-series-extension';
const EXTEND_JOB = 'extend-series';
const EXTENSION_SCHEDULER = 'rotas-series-extension';
const EXTENSION_PATTERN = '0 3 * * *';

/**
 * What the test calls inside the worker, which #app/rotas does not export: the generation handler
 * (to stop after a chunk, and to run it several times at once), the pending flag's query, and the
 * scheduler's registration.
 */
interface GenerationHandler {
  execute(command: {
    cause: Cause;
    seriesId: number;
    organisationId: number;
    limits?: { chunkSize?: number; maxChunks?: number };
  }): Promise<number>;
}
interface SeriesQueries {
  pendingRotas(tenant: { organisationId: number }, rotaIds: number[]): Promise<Set<number>>;
}
interface Scheduler {
  onApplicationBootstrap(): Promise<void>;
}
/** The extension job's processor: what its scheduled job runs. Answers how many series it extended. */
interface ExtensionProcessor {
  process(job: { id: string; name: string; data: { asOf?: string } }): Promise<number>;
}
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const SHORT = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const plusDays = (date: string, n: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days: n }).toISODate()!;
const plusMonths = (date: string, n: number) =>
  DateTime.fromISO(date, { zone: 'UTC' }).plus({ months: n }).toISODate()!;
/** Monday 0 … Sunday 6. */
const weekdayOf = (date: string) => DateTime.fromISO(date, { zone: 'UTC' }).weekday - 1;

/**
 * The dates a series should have, counted here day by day (independently of the code under test):
 * from `first` to `last`, on the weekdays given, in weeks 0, n, 2n … counted from first's Monday.
 */
function expectedDates(first: string, frequency: number, weekdays: number[], last: string): string[] {
  const monday = plusDays(first, -weekdayOf(first));
  const out: string[] = [];
  for (let d = first; d <= last; d = plusDays(d, 1)) {
    const week = Math.floor(
      DateTime.fromISO(d, { zone: 'UTC' }).diff(DateTime.fromISO(monday, { zone: 'UTC' }), 'days').days / 7,
    );
    if (week % frequency === 0 && weekdays.includes(weekdayOf(d))) out.push(d);
  }
  return out;
}

/**
 * Repeating shifts booked by the worker (docs/rota-domain.md#repeating-shifts; issue 14,
 * deliverable 3), over HTTP and through the real reactor, BullMQ queue and processor: the dates a
 * weekly and a fortnightly series get, the skipped ones and their reasons, wall-clock times across
 * the spring change, each date once whatever double runs and crashes happen, the pending flag, and
 * the daily extension (its scheduler, and a second run that changes nothing).
 */
describe('repeating shifts: generation by the worker', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let org: ProvisionResult;
  let pattern: number;
  const tokens: Record<string, string> = {};
  const today = todayIn(ZONE);
  const day = plusDays(today, 10);
  const http = () => request(app.getHttpServer());
  const boss = () => ({ authorization: `Bearer ${tokens.boss}` });
  const queue = (name: string) => app.get<Queue>(getQueueToken(name), { strict: false });
  /** A provider of the running app by its class name. */
  const provider = <T>(name: string): T => {
    const found = app
      .get(DiscoveryService, { strict: false })
      .getProviders()
      .find((w) => w.name === name && w.instance);
    if (!found) throw new Error(`No provider ${name}`);
    return found.instance as T;
  };
  const pendingRotas = (rotaIds: number[]) =>
    provider<SeriesQueries>('SeriesQueries').pendingRotas({ organisationId: org.organisation.id }, rotaIds);

  /** A rota on a team of its own (one rota per team per day), active from yesterday, every day 00:00–23:59. */
  let teams = 0;
  async function seedRota(): Promise<number> {
    const team = org.teams[`t${++teams}`];
    const res = await http()
      .post('/api/rotas')
      .set(boss())
      .send({ name: `Rota ${teams}`, start_date: plusDays(today, -1), pattern_id: pattern, team: [{ id: team }] })
      .expect(201);
    return res.body.data[0].id;
  }

  /** Books the first shift of a series as the manager; answers the series id. */
  async function startSeries(
    rota: number,
    user: string,
    date: string,
    start: string,
    end: string,
    recurrence: object,
  ): Promise<number> {
    const res = await http()
      .post('/api/rota/shifts')
      .set(boss())
      .send({
        rota: { id: rota },
        user: { id: org.users[user] },
        start_datetime: `${date} ${start}`,
        end_datetime: `${date} ${end}`,
        recurrence_pattern: { recurrence_period: 'week', ...recurrence },
      });
    expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.anything() });
    return res.body.data.recurrence_pattern.id;
  }

  const seriesRow = async (id: number) =>
    (
      await ds.query(
        `SELECT to_char(until, 'YYYY-MM-DD') AS until, to_char(generated_until, 'YYYY-MM-DD') AS generated_until,
                generated_until < until AS pending
           FROM rota_repeating_shifts WHERE id = $1`,
        [id],
      )
    )[0] as {
      until: string;
      generated_until: string;
      pending: boolean;
    };
  const generatedFully = (id: number) => eventually(async () => (await seriesRow(id))?.pending === false, 60_000);
  const skips = async (id: number) =>
    (await ds.query(
      `SELECT to_char(date, 'YYYY-MM-DD') AS date, reason FROM rota_series_skips WHERE series_id = $1 ORDER BY date`,
      [id],
    )) as { date: string; reason: string }[];

  /** The user's booked shifts over HTTP (GET /api/rota/shifts), first to last date. */
  async function listed(
    user: string,
    from: string,
    to: string,
  ): Promise<{ date: string; start_time: string; end_time: string; recurrence_pattern: { id: number } | null }[]> {
    const res = await http()
      .get('/api/rota/shifts')
      .set(boss())
      .query({ users: String(org.users[user]), start_date: from, end_date: to, per_page: 100 })
      .expect(200);
    expect(res.body.meta?.total ?? res.body.total ?? res.body.data.length).toBeLessThan(100);
    return res.body.data;
  }
  /** Each date of the series' booked shifts with how many there are (the rows, read directly). */
  const perDate = async (seriesId: number) =>
    (await ds.query(
      `SELECT to_char(date, 'YYYY-MM-DD') AS date, count(*)::int AS n FROM rota_shifts WHERE series_id = $1 AND status = 'booked' GROUP BY date ORDER BY date`,
      [seriesId],
    )) as { date: string; n: number }[];

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    ds = app.get(DataSource);
    const volunteer = (key: string) => ({
      key,
      email: `${key}@riverside.example`,
      password: TEST_PASSWORD,
      display_name: key,
      permissions: [],
      roles: [{ team: 'north', role_profile: 'shop' }],
    });
    org = await provision(app, {
      organisation: { name: 'Riverside', slug: 'riverside', timezone: ZONE },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [
        { key: 'north', name: 'North' },
        ...Array.from({ length: 8 }, (_, i) => ({ key: `t${i + 1}`, name: `Team ${i + 1}`, parent: 'north' })),
      ],
      users: [
        {
          key: 'boss',
          email: 'boss@riverside.example',
          password: TEST_PASSWORD,
          display_name: 'Boss',
          permissions: ['manage-rotas', 'add-user-shifts'],
          roles: [{ team: 'north', role_profile: 'shop' }],
        },
        ...['weekly', 'fortnightly', 'skipper', 'dst', 'crash', 'extended'].map(volunteer),
      ],
    });
    tokens.boss = await logIn(app, 'boss@riverside.example');
    const slots = WEEKDAYS.map((d) => ({
      weekday_start: d,
      start_time: '00:00',
      weekday_end: d,
      end_time: '23:59',
      min: 1,
      ideal: 1,
      max: 5,
    }));
    pattern = (
      await http().post('/api/shift-patterns').set(boss()).send({ name: 'All day', pattern: slots }).expect(201)
    ).body.data.id;
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it(
    'a weekly series is booked on exactly its dates, six calendar months from the first shift, each ' +
      '09:00–17:00 local, and nothing stays pending',
    async () => {
      const rota = await seedRota();
      const id = await startSeries(rota, 'weekly', day, '09:00', '17:00', { recurrence_frequency: 1, end_date: null });
      await generatedFully(id);
      const until = plusMonths(day, 6);
      expect(await seriesRow(id)).toEqual({ until, generated_until: until, pending: false });
      const shifts = await listed('weekly', day, plusDays(until, 30));
      expect(shifts.map((s) => s.date)).toEqual(expectedDates(day, 1, [weekdayOf(day)], until));
      expect(new Set(shifts.map((s) => `${s.start_time}–${s.end_time} ${s.recurrence_pattern?.id}`))).toEqual(
        new Set([`09:00–17:00 ${id}`]),
      );
      expect(await skips(id)).toEqual([]);
      expect(await pendingRotas([rota])).toEqual(new Set());
    },
  );

  it('a fortnightly series on two weekdays with an end date is booked on exactly its dates, up to the end date', async () => {
    const rota = await seedRota();
    const second = weekdayOf(plusDays(day, 3));
    const end = plusDays(day, 100);
    const id = await startSeries(rota, 'fortnightly', day, '07:30', '12:00', {
      recurrence_frequency: 2,
      [SHORT[weekdayOf(day)]!]: 1,
      [SHORT[second]!]: 1,
      end_date: end,
    });
    await generatedFully(id);
    expect(await seriesRow(id)).toEqual({ until: end, generated_until: end, pending: false });
    const expected = expectedDates(day, 2, [weekdayOf(day), second], end);
    expect(expected.length).toBeGreaterThan(10);
    expect((await listed('fortnightly', plusDays(day, -7), plusDays(end, 60))).map((s) => s.date)).toEqual(expected);
  });

  it('occurrences that cannot be booked are skipped and recorded with their reason: a closed date, an overlap with another shift', async () => {
    const rota = await seedRota();
    const other = await seedRota();
    await http()
      .post('/api/rotas/bulk')
      .set(boss())
      .send({ action: 'close', rota_ids: [rota], data: { dates: [plusDays(day, 14)] } })
      .expect(204);
    await http()
      .post('/api/rota/shifts')
      .set(boss())
      .send({
        rota: { id: other },
        user: { id: org.users.skipper },
        start_datetime: `${plusDays(day, 21)} 16:00`,
        end_datetime: `${plusDays(day, 21)} 18:00`,
      })
      .expect(201);
    const id = await startSeries(rota, 'skipper', day, '09:00', '17:00', {
      recurrence_frequency: 1,
      end_date: plusDays(day, 35),
    });
    await generatedFully(id);
    expect(await skips(id)).toEqual([
      { date: plusDays(day, 14), reason: 'rota_closed' },
      { date: plusDays(day, 21), reason: 'overlap' },
    ]);
    const shifts = await listed('skipper', day, plusDays(day, 40));
    expect(shifts.map((s) => `${s.date} ${s.recurrence_pattern?.id ?? 'single'}`)).toEqual([
      `${day} ${id}`,
      `${plusDays(day, 7)} ${id}`,
      `${plusDays(day, 21)} single`,
      `${plusDays(day, 28)} ${id}`,
      `${plusDays(day, 35)} ${id}`,
    ]);
  });

  it(
    'a weekly Sunday 09:00–17:00 Europe/London series from 2027-03-14 keeps 09:00–17:00 local: 09:00Z ' +
      'before the spring change, 08:00Z after; a time in the gap is skipped',
    async () => {
      const rota = await seedRota();
      const id = await startSeries(rota, 'dst', '2027-03-14', '09:00', '17:00', {
        recurrence_frequency: 1,
        end_date: '2027-04-11',
      });
      const night = await startSeries(rota, 'dst', '2027-03-21', '01:30', '03:00', {
        recurrence_frequency: 1,
        end_date: '2027-04-04',
      });
      await generatedFully(id);
      await generatedFully(night);
      const rows = (await ds.query(
        `SELECT to_char(date, 'YYYY-MM-DD') AS date, start_wall, end_wall, to_char(starts_at AT TIME ZONE 'UTC', 'HH24:MI') AS utc
           FROM rota_shifts WHERE series_id = $1 AND status = 'booked' ORDER BY starts_at`,
        [id],
      )) as { date: string; start_wall: string; end_wall: string; utc: string }[];
      expect(rows.map((r) => `${r.start_wall}–${r.end_wall.slice(11)} ${r.utc}Z`)).toEqual([
        '2027-03-14 09:00–17:00 09:00Z',
        '2027-03-21 09:00–17:00 09:00Z',
        '2027-03-28 09:00–17:00 08:00Z',
        '2027-04-04 09:00–17:00 08:00Z',
        '2027-04-11 09:00–17:00 08:00Z',
      ]);
      const listedTimes = (await listed('dst', '2027-03-14', '2027-04-11')).map(
        (s) => `${s.date} ${s.start_time}–${s.end_time}`,
      );
      expect(listedTimes).toEqual(
        expect.arrayContaining(['2027-03-21 09:00–17:00', '2027-03-28 09:00–17:00', '2027-04-04 09:00–17:00']),
      );
      expect(await skips(night)).toEqual([{ date: '2027-03-28', reason: 'time_does_not_exist' }]);
      expect((await perDate(night)).map((r) => r.date)).toEqual(['2027-03-21', '2027-04-04']);
    },
  );

  it('pending until the job is done; a worker killed after one chunk, then concurrent and repeated runs, book each date once', async () => {
    const rota = await seedRota();
    const generation = queue(GENERATION_QUEUE);
    await generation.pause();
    let id: number;
    try {
      id = await startSeries(rota, 'crash', day, '10:00', '14:00', { recurrence_frequency: 1, end_date: null });
      const store = app.get(EventStore);
      const [started] = await store.readStream(`rotas.RepeatingShift-${id}`);
      expect(started!.type).toBe('rotas.RepeatingShiftStarted');
      // The reactor enqueued the job under the event's id; the queue is paused, so nothing is booked yet.
      await eventually(async () => (await generation.getJob(started!.eventId)) !== undefined, 30_000);
      expect(await seriesRow(id)).toMatchObject({ generated_until: day, pending: true });
      expect(await pendingRotas([rota])).toEqual(new Set([rota]));

      const cause = new Cause({ eventId: started!.eventId, metadata: started!.metadata }, 'series generation');
      // Other jobs of the same series (extensions'): their event ids are not the Started job's, so
      // only the series' version and the gates keep them from booking a date twice.
      const others = [1, 2].map(
        () => new Cause({ eventId: randomUUID(), metadata: started!.metadata }, 'series generation'),
      );
      const run = (limits = {}, by = cause) =>
        provider<GenerationHandler>('GenerateOccurrencesHandler').execute({
          cause: by,
          seriesId: id,
          organisationId: org.organisation.id,
          limits,
        });
      const expected = expectedDates(day, 1, [weekdayOf(day)], plusMonths(day, 6));
      // A worker killed after its first chunk: five occurrences booked, the series still pending.
      expect(await run({ chunkSize: 5, maxChunks: 1 })).toBe(1);
      expect(await seriesRow(id)).toMatchObject({ generated_until: expected[5], pending: true });
      expect((await perDate(id)).map((r) => r.date)).toEqual(expected.slice(0, 6));
      // Runs at once: the job retried, stalled and run again, and another job of the series; then one more after them.
      await Promise.all(
        [cause, ...others].flatMap((by) => [run({ chunkSize: 5 }, by), run({ chunkSize: 7 }, by), run({}, by)]),
      );
      expect(await run()).toBe(0);
      const before = await eventCount(ds);
      await generation.resume();
      await eventually(
        async () => (await (await generation.getJob(started!.eventId))?.getState()) === 'completed',
        30_000,
      );
      expect(await eventCount(ds)).toBe(before);

      expect(await perDate(id)).toEqual(expected.map((date) => ({ date, n: 1 })));
      // No run decided on a stale read: none saw the others' shifts as its own occurrences' overlaps.
      expect(await skips(id)).toEqual([]);
      expect(await seriesRow(id)).toMatchObject({ generated_until: plusMonths(day, 6), pending: false });
      expect(await pendingRotas([rota])).toEqual(new Set());
      const booked = (await store.readAll({ transactionId: '0', position: 0 }, 100_000, ['rotas.ShiftBooked'])).filter(
        (e) => (e.data as { seriesId: number }).seriesId === id,
      );
      expect(booked).toHaveLength(expected.length);
      expect(new Set(booked.slice(1).map((e) => e.metadata.causationId)).size).toBeGreaterThanOrEqual(1);
      expect(
        booked.slice(1).every((e) => [cause, ...others].some((c) => c.event.eventId === e.metadata.causationId)),
      ).toBe(true);
    } finally {
      await generation.resume();
    }
  }, 120_000);

  it(
    'the daily extension: one scheduler however often the worker starts; it moves an open-ended series ' +
      'six months past today, the new dates are booked, and a second run changes nothing',
    async () => {
      const extension = queue(EXTENSION_QUEUE);
      await provider<Scheduler>('SeriesExtensionScheduler').onApplicationBootstrap();
      expect(await extension.getJobScheduler(EXTENSION_SCHEDULER)).toMatchObject({
        name: EXTEND_JOB,
        pattern: EXTENSION_PATTERN,
        tz: 'UTC',
      });
      expect(await extension.getJobSchedulersCount()).toBe(1);
      // The scheduler's next run waits in its own queue, delayed to 03:00 UTC; generation's queue holds no delayed job.
      expect((await extension.getDelayed()).map((j) => j.name)).toEqual([EXTEND_JOB]);

      const rota = await seedRota();
      const id = await startSeries(rota, 'extended', day, '12:00', '13:00', {
        recurrence_frequency: 1,
        end_date: null,
      });
      await generatedFully(id);
      // The scheduled job's work, as the worker runs it (a job added by hand would wait behind the
      // delayed one in the embedded mode: see series-extension.ts); then every generation it caused.
      let runs = 0;
      const extend = async (data: { asOf?: string }): Promise<number> => {
        const extended = await provider<ExtensionProcessor>('SeriesExtensionProcessor').process({
          id: `test-${++runs}`,
          name: EXTEND_JOB,
          data,
        });
        await eventually(
          async () =>
            Number(
              (await ds.query('SELECT count(*)::int AS n FROM rota_repeating_shifts WHERE generated_until < until'))[0]
                .n,
            ) === 0,
          60_000,
        );
        await eventually(
          async () =>
            Object.values(
              await queue(GENERATION_QUEUE).getJobCounts('waiting', 'active', 'delayed', 'prioritized'),
            ).every((n) => n === 0),
          60_000,
        );
        return extended;
      };

      // Today: every open-ended series already reaches six months ahead. Twice: nothing either time.
      const before = await eventCount(ds);
      expect(await extend({})).toBe(0);
      expect(await extend({})).toBe(0);
      expect(await eventCount(ds)).toBe(before);

      // Two months on: the series moves to six months after that day, and the worker books the new dates.
      const later = plusDays(today, 60);
      expect(await extend({ asOf: later })).toBeGreaterThanOrEqual(1);
      const until = plusMonths(later, 6);
      expect(await seriesRow(id)).toEqual({ until, generated_until: until, pending: false });
      const expected = expectedDates(day, 1, [weekdayOf(day)], until);
      expect((await listed('extended', day, until)).map((s) => s.date)).toEqual(expected);
      const [extendedEvent, ...more] = (await app.get(EventStore).readStream(`rotas.RepeatingShift-${id}`)).filter(
        (e) => e.type === 'rotas.RepeatingShiftExtended',
      );
      expect(more).toEqual([]);
      expect(extendedEvent!).toMatchObject({
        data: { id, until },
        metadata: { organisationId: org.organisation.id, actor: { kind: 'system', reason: 'series extension' } },
      });

      // The same day's second run, and two more at once: nothing at all.
      const after = await eventCount(ds);
      expect(await extend({ asOf: later })).toBe(0);
      expect(await Promise.all([extend({ asOf: later }), extend({ asOf: later })])).toEqual([0, 0]);
      expect(await eventCount(ds)).toBe(after);
      expect(await perDate(id)).toEqual(expected.map((date) => ({ date, n: 1 })));
    },
    180_000,
  );
});
