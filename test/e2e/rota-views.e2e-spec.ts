import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import { DateTime } from 'luxon';
import request from 'supertest';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { eventually } from '../support/eventually.js';
import { bootStandalone, logIn, logInAll, provision, userFile } from '../support/test-app.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';

const ZONE = 'Europe/London';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const SHORT = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
/** The worker's series generation queue (libs/rotas/src/booking/generation.reactor.ts). */
const GENERATION_QUEUE = 'rotas-series-generation';
const plusDays = (date: string, n: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days: n }).toISODate()!;
const MANY = Array.from({ length: 26 }, (_, i) => `m${String(i + 1).padStart(2, '0')}`);

type Hour = {
  start_time: string;
  end_time: string;
  shift_count: number;
  required: number;
  status: number;
  status_text: string;
  rota_id?: number;
};

/**
 * The rota views over HTTP (docs/rota-domain.md#statuses-and-views; issue 15 "Must show"), in both
 * modes: one constructed day through every status in the period and day views alike, 26 matching
 * rotas giving 25 and truncated, the hierarchy keeping rotas from volunteers, the 92-day limit,
 * own_shift only with user_flags, data_ready while the worker generates a series, the users filter
 * and its rota_v2 refusal. Every answer is checked against the OpenAPI document (contract test).
 */
describe('rota views: period and day', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let org: ProvisionResult;
  const rotas: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  const today = todayIn(ZONE);
  const day = plusDays(today, 10);
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const period = (who: string, query: Record<string, string>) =>
    http().get('/api/rota/period').set(as(who)).query(query);
  const dayView = (who: string, date: string, query: Record<string, string> = {}) =>
    http().get(`/api/rota/day/${date}`).set(as(who)).query(query);
  const ids = (...keys: string[]) => keys.map((k) => rotas[k]).join(',');
  const user = (key: string, permissions: string[], teams: string[], domain?: string) =>
    userFile(key, permissions, teams, { name: `${key} name`, domain });
  const book = async (rota: string, who: string, from: string, to: string, extra: object = {}) => {
    const body = {
      rota: { id: rotas[rota] },
      user: { id: org.users[who] },
      start_datetime: `${day} ${from}`,
      end_datetime: `${day} ${to}`,
      ...extra,
    };
    const res = await http().post('/api/rota/shifts').set(as('boss')).send(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.anything() });
    return res.body.data as { id: number; recurrence_pattern: { id: number } | null };
  };
  const hoursOf = (hours: Hour[]) =>
    hours.map((h) => [h.start_time.slice(11, 16), h.shift_count, h.required, h.status, h.status_text]);

  /** Every weekday 09:00–14:00, min 1, ideal 2, max 3: five hour entries a day. */
  const stairs = WEEKDAYS.map((d) => ({
    weekday_start: d,
    start_time: '09:00',
    weekday_end: d,
    end_time: '14:00',
    min: 1,
    ideal: 2,
    max: 3,
  }));

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    org = await provision(app, {
      organisation: { name: 'Riverside', slug: 'riverside', timezone: ZONE, features: ['rota_v2'] },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'stairs', name: 'Stairs', parent: 'north' },
        { key: 'series', name: 'Series', parent: 'north' },
        { key: 'many', name: 'Many', parent: 'north' },
        ...MANY.map((key) => ({ key, name: key.toUpperCase(), parent: 'many' })),
        { key: 'south', name: 'South' },
      ],
      users: [
        user('boss', ['manage-rotas', 'add-user-shifts'], ['north', 'south']),
        user('vol', [], ['stairs', 'series']),
        ...['v2', 'v3', 'v4', 'v5'].map((key) => user(key, [], ['stairs'])),
        user('southvol', [], ['south']),
      ],
    });
    await provision(app, {
      organisation: { name: 'Hillside', slug: 'hillside', timezone: ZONE, features: [] },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [{ key: 't', name: 'T' }],
      users: [user('hill', [], ['t'], 'hillside')],
    });
    Object.assign(tokens, await logInAll(app, ['boss', 'vol', 'southvol']));
    tokens.hill = await logIn(app, 'hill@hillside.example');
    const pattern = (
      await http().post('/api/shift-patterns').set(as('boss')).send({ name: 'Stairs', pattern: stairs }).expect(201)
    ).body.data.id;
    const create = async (name: string, teams: string[]) => {
      const body = {
        name,
        start_date: plusDays(today, -1),
        pattern_id: pattern,
        team: teams.map((t) => ({ id: org.teams[t] })),
        self_manage: true,
      };
      return (await http().post('/api/rotas').set(as('boss')).send(body).expect(201)).body.data as { id: number }[];
    };
    [{ id: rotas.stairs! }] = await create('Stairs', ['stairs']);
    [{ id: rotas.series! }] = await create('Series', ['series']);
    [{ id: rotas.south! }] = await create('South', ['south']);
    (await create('Many', MANY)).forEach(({ id }, i) => (rotas[MANY[i]!] = id));
    // 0, 1, 2, 3 and 4 volunteers on duty in the hours from 09:00 (min 1, ideal 2, max 3): the manager books past max.
    await book('stairs', 'v2', '10:00', '14:00');
    await book('stairs', 'v3', '11:00', '14:00');
    await book('stairs', 'vol', '12:00', '14:00');
    await book('stairs', 'v4', '13:00', '14:00');
    await book('stairs', 'v5', '13:00', '13:30');
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  const STAIRCASE = [
    ['09:00', 0, 1, -2, 'below-minimum'],
    ['10:00', 1, 0, -1, 'below-ideal'],
    ['11:00', 2, 0, 0, 'ideal'],
    ['12:00', 3, 0, 1, 'full'],
    // Five on duty until 13:30, then four: the fewest, four, is over the maximum.
    ['13:00', 4, 0, 2, 'over-maximum'],
  ];

  it('a day whose hours run through every status gives the same shift_count, required and status in the day view and both period views', async () => {
    const { body: dv } = await dayView('boss', day, { rotas: ids('stairs') }).expect(200);
    expect(dv.rotas).toHaveLength(1);
    const [rota] = dv.rotas;
    expect(hoursOf(rota.hours)).toEqual(STAIRCASE);
    expect(rota.hours.every((h: Hour) => h.start_time.startsWith(day) && h.end_time.endsWith(':00:00'))).toBe(true);
    expect(rota).toEqual(
      expect.objectContaining({
        id: rotas.stairs,
        name: 'Stairs',
        closed: false,
        status: -2,
        below_minimum: true,
        total_users: 5,
        self_manage: true,
      }),
    );
    expect(rota.shift_patterns).toEqual([
      expect.objectContaining({
        weekday_start: WEEKDAYS[(DateTime.fromISO(day).weekday + 6) % 7],
        start_time: '09:00:00',
        end_time: '14:00:00',
        pattern_status: 'below-minimum',
      }),
    ]);
    expect(rota.team).toEqual(expect.objectContaining({ id: String(org.teams.stairs), name: 'Stairs' }));
    expect([dv.start_time, dv.end_time]).toEqual([
      DateTime.fromISO(`${day}T09:00`, { zone: ZONE }).toUTC().toFormat('HH:mm'),
      DateTime.fromISO(`${day}T14:00`, { zone: ZONE }).toUTC().toFormat('HH:mm'),
    ]);

    const { body: detailed } = await period('boss', {
      start_date: day,
      end_date: day,
      list: 'detailed',
      rotas: ids('stairs'),
    }).expect(200);
    const [date] = detailed.dates;
    expect(hoursOf(date.hours)).toEqual(STAIRCASE);
    expect(date.hours.every((h: Hour) => h.rota_id === rotas.stairs)).toBe(true);
    expect(date.rotas).toHaveLength(1);
    expect(hoursOf(date.rotas[0].hours)).toEqual(STAIRCASE);
    expect([date.status, date.below_minimum, date.closed]).toEqual([-2, true, false]);
    expect(date.shift_patterns).toEqual([expect.objectContaining({ rota_id: rotas.stairs, start_time: '09:00:00' })]);

    const { body: basic } = await period('boss', {
      start_date: day,
      end_date: plusDays(day, 1),
      rotas: ids('stairs'),
    }).expect(200);
    expect(
      basic.dates.map(
        (d: { date: string; status: number; below_minimum: boolean; hours: unknown[]; shift_patterns: unknown[] }) => [
          d.date,
          d.status,
          d.below_minimum,
          d.hours,
          d.shift_patterns,
        ],
      ),
    ).toEqual([
      [day, -2, true, [], []],
      [plusDays(day, 1), -2, true, [], []],
    ]);
    expect(basic.dates[0]).not.toHaveProperty('rotas');
  });

  it('own_shift is filled only with user_flags=true; own_shifts always lists the caller’s shifts, without permissions', async () => {
    const query = { start_date: day, end_date: plusDays(day, 1), rotas: ids('stairs') };
    expect((await period('vol', query).expect(200)).body.dates.map((d: { own_shift: boolean }) => d.own_shift)).toEqual(
      [false, false],
    );
    expect(
      (await period('vol', { ...query, user_flags: 'true' }).expect(200)).body.dates.map(
        (d: { own_shift: boolean }) => d.own_shift,
      ),
    ).toEqual([true, false]);
    expect(
      (await period('vol', { ...query, list: 'detailed', user_flags: '1' }).expect(200)).body.dates[0].rotas[0]
        .own_shift,
    ).toBe(true);

    const [plain] = (await dayView('vol', day, { rotas: ids('stairs') }).expect(200)).body.rotas;
    const [flagged] = (await dayView('vol', day, { rotas: ids('stairs'), user_flags: 'true' }).expect(200)).body.rotas;
    expect([plain.own_shift, flagged.own_shift]).toEqual([false, true]);
    expect(plain.own_shifts).toEqual([
      {
        id: expect.any(Number),
        user: expect.objectContaining({ id: org.users.vol }),
        date: day,
        overnight_shift: false,
        start_time: `${day} 12:00`,
        end_time: `${day} 14:00`,
        timezone: ZONE,
        repeating_shift: null,
        stand_in: null,
      },
    ]);
    // The volunteer's own shift: cancel yes; edit no, since the manager filled its timeslot past max (rule 7). Others' shifts: nothing.
    const perms = new Map(
      plain.shifts.map((s: { user: { id: number }; permissions: object }) => [s.user.id, s.permissions]),
    );
    expect(perms.get(org.users.vol)).toEqual({
      can_edit_shift: false,
      can_cancel_shift: true,
      can_edit_repeating_shift: false,
    });
    expect(perms.get(org.users.v2)).toEqual({
      can_edit_shift: false,
      can_cancel_shift: false,
      can_edit_repeating_shift: false,
    });
    const [managed] = (await dayView('boss', day, { rotas: ids('stairs') }).expect(200)).body.rotas;
    expect(
      managed.shifts.every(
        (s: { permissions: { can_edit_shift: boolean; can_cancel_shift: boolean } }) =>
          s.permissions.can_edit_shift && s.permissions.can_cancel_shift,
      ),
    ).toBe(true);
    expect(managed.own_shifts).toEqual([]);
  });

  it('26 matching rotas: the first 25 by team name and truncated true, in both views; 25 are not truncated', async () => {
    const teams = MANY.map((k) => org.teams[k]).join(',');
    const names = MANY.slice(0, 25).map((k) => k.toUpperCase());
    const { body: dv } = await dayView('boss', day, { teams }).expect(200);
    expect([dv.truncated, dv.max_rotas, dv.rotas.length]).toEqual([true, 25, 25]);
    expect(dv.rotas.map((r: { team: { name: string } }) => r.team.name)).toEqual(names);
    const { body: detailed } = await period('boss', { start_date: day, end_date: day, list: 'detailed', teams }).expect(
      200,
    );
    expect([detailed.truncated, detailed.max_rotas, detailed.dates[0].rotas.length]).toEqual([true, 25, 25]);
    expect(detailed.dates[0].rotas.map((r: { team: { name: string } }) => r.team.name)).toEqual(names);
    expect((await period('boss', { teams }).expect(200)).body.truncated).toBe(true);
    const fewer = MANY.slice(1)
      .map((k) => org.teams[k])
      .join(',');
    expect((await dayView('boss', day, { teams: fewer }).expect(200)).body).toEqual(
      expect.objectContaining({ truncated: false, rotas: expect.any(Array) }),
    );
    expect(
      (await period('boss', { start_date: day, end_date: day, list: 'detailed', teams: fewer }).expect(200)).body
        .dates[0].rotas,
    ).toHaveLength(25);
  });

  it('a volunteer never sees a rota outside their hierarchy in either view, even when a filter names it', async () => {
    const visible = async (who: string, query: Record<string, string>) => {
      const { body: dv } = await dayView(who, day, query).expect(200);
      const { body: pv } = await period(who, { start_date: day, end_date: day, list: 'detailed', ...query }).expect(
        200,
      );
      const fromPeriod = pv.dates[0].rotas.map((r: { id: number }) => r.id);
      expect(dv.rotas.map((r: { id: number }) => r.id)).toEqual(fromPeriod);
      return fromPeriod;
    };
    expect(await visible('southvol', {})).toEqual([rotas.south]);
    expect(await visible('southvol', { rotas: ids('stairs', 'south') })).toEqual([rotas.south]);
    expect(await visible('southvol', { teams: String(org.teams.stairs) })).toEqual([]);
    expect(await visible('vol', {})).toEqual([rotas.series, rotas.stairs]);
    expect(await visible('vol', { rotas: ids('south', 'm01') })).toEqual([]);
    expect(await visible('vol', { teams: `${org.teams.south},${org.teams.north}` })).toEqual([]);
    // Another organisation's user sees none of them.
    expect(await visible('hill', { rotas: ids('stairs') })).toEqual([]);
    expect((await period('southvol', { start_date: day, end_date: day }).expect(200)).body.permissions).toEqual(
      expect.objectContaining({ can_view_rota: true, can_add_shifts_to_others: false }),
    );
  });

  it(
    'the period: the current month by default, at most 92 dates, a 422 naming end_date past that or ' +
      'before start_date, list and user_flags checked',
    async () => {
      const { body } = await period('vol', {}).expect(200);
      const first = `${today.slice(0, 8)}01`;
      const last = DateTime.fromISO(first).endOf('month').toISODate();
      expect([body.start_date, body.end_date, body.dates.length, body.dates[0].date]).toEqual([
        first,
        last,
        DateTime.fromISO(first).daysInMonth,
        first,
      ]);
      expect(
        (await period('vol', { start_date: '2027-01-01', end_date: '2027-04-02' }).expect(200)).body.dates,
      ).toHaveLength(92);
      const refused = async (query: Record<string, string>) => {
        const res = await period('vol', query).expect(422);
        return Object.keys(res.body.errors);
      };
      expect(await refused({ start_date: '2027-01-01', end_date: '2027-04-03' })).toEqual(['end_date']);
      expect(await refused({ start_date: '2027-01-10', end_date: '2027-01-09' })).toEqual(['end_date']);
      expect(await refused({ start_date: '2027-02-30' })).toEqual(['start_date']);
      expect(await refused({ list: 'full' })).toEqual(['list']);
      expect(await refused({ user_flags: 'yes' })).toEqual(['user_flags']);
      expect(await refused({ rotas: 'one' })).toEqual(['rotas']);
      // One end given: the other is the interface's default (the current month's first or last day),
      // unless that makes a range the view refuses; then the given date's month
      // (docs/rota-domain.md#period-view).
      const later = DateTime.fromISO(first).plus({ days: 40 }).toISODate()!;
      expect((await period('vol', { end_date: later }).expect(200)).body).toEqual(
        expect.objectContaining({ start_date: first, end_date: later }),
      );
      expect((await period('vol', { start_date: first.replace(/-01$/, '-05') }).expect(200)).body).toEqual(
        expect.objectContaining({ start_date: first.replace(/-01$/, '-05'), end_date: last }),
      );
      expect((await period('vol', { start_date: '2099-02-10' }).expect(200)).body).toEqual(
        expect.objectContaining({ start_date: '2099-02-10', end_date: '2099-02-28' }),
      );
      expect((await period('vol', { end_date: '2099-02-10' }).expect(200)).body).toEqual(
        expect.objectContaining({ start_date: '2099-02-01', end_date: '2099-02-10' }),
      );
      expect(Object.keys((await dayView('vol', 'tomorrow').expect(422)).body.errors)).toEqual(['date']);
      expect(Object.keys((await dayView('vol', '2027-02-30').expect(422)).body.errors)).toEqual(['date']);
    },
  );

  it('data_ready is false while the worker is still booking a series of a returned rota, true once it is done; the day view shows the series', async () => {
    const queue = app.get<Queue>(getQueueToken(GENERATION_QUEUE), { strict: false });
    const query = { start_date: day, end_date: plusDays(day, 14), rotas: ids('series') };
    expect((await period('vol', query).expect(200)).body.data_ready).toBe(true);
    await queue.pause();
    let first: { id: number; recurrence_pattern: { id: number } | null };
    try {
      const weekday = SHORT[(DateTime.fromISO(day).weekday + 6) % 7]!;
      first = await book('series', 'vol', '09:00', '10:00', {
        recurrence_pattern: {
          recurrence_period: 'week',
          recurrence_frequency: 1,
          [weekday]: 1,
          end_date: plusDays(day, 28),
        },
      });
      expect((await period('vol', query).expect(200)).body.data_ready).toBe(false);
      // Rotas without the series stay ready.
      expect((await period('vol', { ...query, rotas: ids('stairs') }).expect(200)).body.data_ready).toBe(true);
    } finally {
      await queue.resume();
    }
    await eventually(async () => (await period('vol', query).expect(200)).body.data_ready === true, 60_000);
    const { body } = await period('vol', { ...query, list: 'detailed' }).expect(200);
    expect(
      body.dates
        .filter((d: { rotas: { shifts: unknown[] }[] }) => d.rotas[0]!.shifts.length > 0)
        .map((d: { date: string }) => d.date),
    ).toEqual([day, plusDays(day, 7), plusDays(day, 14)]);
    const [rota] = (await dayView('boss', day, { rotas: ids('series') }).expect(200)).body.rotas;
    expect(rota.shifts).toEqual([
      expect.objectContaining({
        id: first!.id,
        repeating_shift: expect.objectContaining({
          id: first!.recurrence_pattern!.id,
          user_id: org.users.vol,
          rota_id: rotas.series,
          hierarchy_id: org.teams.series,
          period: 'week',
          frequency: 1,
          start_date: `${day} 09:00:00`,
          end_date: `${plusDays(day, 28)} 23:59:59`,
        }),
        permissions: { can_edit_shift: true, can_cancel_shift: true, can_edit_repeating_shift: true },
      }),
    ]);
  });

  it('the users filter returns only rotas with a shift of those users that day, and only their shifts; without rota_v2 it is a 422 naming users', async () => {
    const { body } = await dayView('boss', day, {
      users: `${org.users.v5},${org.users.southvol}`,
      teams: `${org.teams.stairs},${org.teams.south},${org.teams.series}`,
    }).expect(200);
    expect(body.rotas.map((r: { id: number }) => r.id)).toEqual([rotas.stairs]);
    const [rota] = body.rotas;
    expect(rota.shifts.map((s: { user: { id: number } }) => s.user.id)).toEqual([org.users.v5]);
    expect(hoursOf(rota.hours)).toEqual(STAIRCASE);
    expect((await dayView('boss', day, { users: String(org.users.southvol) }).expect(200)).body.rotas).toEqual([]);
    expect(Object.keys((await dayView('hill', day, { users: '1' }).expect(422)).body.errors)).toEqual(['users']);
  });
});
