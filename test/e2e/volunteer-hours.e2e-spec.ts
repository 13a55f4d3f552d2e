import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ProjectionReplayer } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { tableChecksum } from '../support/nothing-written.js';
import { bootStandalone, logIn, logInAll, provision, userFile } from '../support/test-app.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';

const ZONE = 'Europe/London';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const plusDays = (date: string, n: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days: n }).toISODate()!;
/** A display name with a comma, a quote and a leading '=' (CSV quoting and the formula prefix). */
const ANN = '=Ann, "Jo"';

/** The Saturday before the latest autumn clock change in London (last Sunday of October) that is behind us. */
function lastAutumnSaturday(today: string): string {
  for (let year = Number(today.slice(0, 4)); ; year--) {
    const end = DateTime.fromObject({ year, month: 10, day: 31 }, { zone: 'UTC' });
    const sunday = end.minus({ days: end.weekday % 7 }).toISODate()!;
    if (sunday < today) return plusDays(sunday, -1);
  }
}

type Row = {
  id: number;
  name: string;
  shifts: number;
  attended: number;
  no_show: number;
  unrecorded: number;
  booked_minutes: number;
  attended_minutes: number;
};

/**
 * The volunteer hours report (docs/rota-domain.md#volunteer-hours) over HTTP, in both modes: exact
 * figures over past shifts booked by a manager (one across the autumn clock change, 8 wall-clock
 * hours lasting 9), attended, no-show and unrecorded, each grouping, the filters, future and
 * cancelled shifts left out, teams the caller does not manage left out, the 403 and the 422s, and
 * the CSV. Every answer is checked against the OpenAPI document (contract test).
 */
describe('volunteer hours report', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let org: ProvisionResult;
  const tokens: Record<string, string> = {};
  const rotas: Record<string, number> = {};
  const shifts: Record<string, number> = {};
  const today = todayIn(ZONE);
  const sat = lastAutumnSaturday(today);
  const sun = plusDays(sat, 1);
  const range = { start_date: plusDays(sat, -7), end_date: sun };
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const report = (who: string, query: Record<string, string> = {}) =>
    http().get('/api/reports/volunteer-hours').set(as(who)).query(query);
  const rows = async (who: string, query: Record<string, string>) => {
    const res = await report(who, query);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.anything() });
    return res.body.data as Row[];
  };
  const user = (key: string, permissions: string[], teams: string[], name = key) =>
    userFile(key, permissions, teams, { name });
  const book = async (who: string, key: string, rota: string, user: string, start: string, end: string) => {
    const body = { rota: { id: rotas[rota] }, user: { id: org.users[user] }, start_datetime: start, end_datetime: end };
    const res = await http().post('/api/rota/shifts').set(as(who)).send(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.anything() });
    shifts[key] = res.body.data.id as number;
  };
  const attend = async (key: string, body: object) => {
    const res = await http().put(`/api/rota/shifts/${shifts[key]}/attendance`).set(as('boss')).send(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.anything() });
  };
  const figures = (r: Row) => [
    r.name,
    r.shifts,
    r.attended,
    r.no_show,
    r.unrecorded,
    r.booked_minutes,
    r.attended_minutes,
  ];

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    org = await provision(app, {
      organisation: { name: 'Riverside', slug: 'riverside', timezone: ZONE, features: [] },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'child', name: 'North child', parent: 'north' },
        { key: 'south', name: 'South' },
        { key: 'east', name: 'East' },
      ],
      users: [
        user('boss', ['manage-rotas', 'add-user-shifts'], ['north', 'south']),
        user('coord', ['add-user-shifts'], ['north']),
        user('eastboss', ['manage-rotas', 'add-user-shifts'], ['east']),
        user('nobody', [], ['north']),
        user('ann', [], ['north'], ANN),
        user('bob', [], ['north'], 'Bob'),
        user('cy', [], ['south', 'east'], 'Cy'),
        user('dash', [], ['north'], '-12'),
      ],
    });
    await provision(app, {
      organisation: { name: 'Hillside', slug: 'hillside', timezone: ZONE, features: [] },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [{ key: 't', name: 'T' }],
      users: [userFile('hill', ['manage-rotas', 'add-user-shifts'], ['t'], { domain: 'hillside' })],
    });
    Object.assign(tokens, await logInAll(app, ['boss', 'coord', 'eastboss', 'nobody']));
    tokens.hill = await logIn(app, 'hill@hillside.example');
    // Each day a timeslot from 08:00 to 08:00 the next day: day shifts and overnight ones fit.
    const pattern = WEEKDAYS.map((d, i) => ({
      weekday_start: d,
      start_time: '08:00',
      weekday_end: WEEKDAYS[(i + 1) % 7],
      end_time: '08:00',
      min: 1,
      ideal: 1,
      max: 5,
    }));
    const create = async (who: string, name: string, team: string) => {
      const id = (await http().post('/api/shift-patterns').set(as(who)).send({ name, pattern }).expect(201)).body.data
        .id;
      const body = { name, start_date: plusDays(sat, -14), pattern_id: id, team: [{ id: org.teams[team] }] };
      rotas[team] = (await http().post('/api/rotas').set(as(who)).send(body).expect(201)).body.data[0].id;
    };
    await create('boss', 'North rota', 'north');
    await create('boss', 'Child rota', 'child');
    await create('boss', 'South rota', 'south');
    await create('eastboss', 'East rota', 'east');
    const week = plusDays(sat, -7);
    // 22:00–06:00 across the clock change: 8 hours on the wall, 540 real minutes.
    await book('boss', 'night', 'north', 'ann', `${sat} 22:00`, `${sun} 06:00`);
    await book('boss', 'annDay', 'north', 'ann', `${week} 10:00`, `${week} 14:00`);
    await book('boss', 'bobChild', 'child', 'bob', `${week} 10:00`, `${week} 13:30`);
    await book('boss', 'bobNorth', 'north', 'bob', `${plusDays(sat, -2)} 09:00`, `${plusDays(sat, -2)} 12:00`);
    await book('boss', 'cySouth', 'south', 'cy', `${week} 10:00`, `${week} 12:00`);
    await book('eastboss', 'cyEast', 'east', 'cy', `${plusDays(sat, -1)} 10:00`, `${plusDays(sat, -1)} 12:00`);
    // Before the range: the report's CSV of a name that looks like a number.
    await book('boss', 'dash', 'north', 'dash', `${plusDays(sat, -10)} 10:00`, `${plusDays(sat, -10)} 11:00`);
    await book('boss', 'cancelled', 'north', 'bob', `${plusDays(sat, -5)} 10:00`, `${plusDays(sat, -5)} 11:00`);
    await http().delete(`/api/rota/shifts/${shifts.cancelled}`).set(as('boss')).expect(204);
    const tomorrow = plusDays(today, 1);
    await book('boss', 'future', 'north', 'ann', `${tomorrow} 10:00`, `${tomorrow} 12:00`);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('before any attendance: every counted shift unrecorded, the autumn night counting 540 minutes', async () => {
    const { body } = await report('boss', range).expect(200);
    expect(body.meta).toEqual({ ...range, group_by: 'user' });
    expect(body.data).toEqual([
      {
        id: org.users.ann,
        name: ANN,
        shifts: 2,
        attended: 0,
        no_show: 0,
        unrecorded: 2,
        booked_minutes: 780,
        attended_minutes: 0,
      },
      {
        id: org.users.bob,
        name: 'Bob',
        shifts: 2,
        attended: 0,
        no_show: 0,
        unrecorded: 2,
        booked_minutes: 390,
        attended_minutes: 0,
      },
      {
        id: org.users.cy,
        name: 'Cy',
        shifts: 1,
        attended: 0,
        no_show: 0,
        unrecorded: 1,
        booked_minutes: 120,
        attended_minutes: 0,
      },
    ]);
  });

  it('a shift not started yet is not counted, nor is a cancelled one', async () => {
    const tomorrow = plusDays(today, 1);
    expect(await rows('boss', { start_date: tomorrow, end_date: tomorrow })).toEqual([]);
    const cancelledDay = plusDays(sat, -5);
    expect(await rows('boss', { start_date: cancelledDay, end_date: cancelledDay })).toEqual([]);
  });

  it('403 without add-user-shifts or manage-rotas; another organisation sees none of it', async () => {
    const res = await report('nobody', range).expect(403);
    expect(res.body.status_code).toBe(403);
    expect(await rows('hill', range)).toEqual([]);
  });

  it('422 for malformed dates, an end before the start or more than 366 days after it, a bad list or group_by', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ start_date: '2026-02-30' }, 'start_date'],
      [{ end_date: 'soon' }, 'end_date'],
      [{ start_date: sun, end_date: sat }, 'end_date'],
      [{ start_date: '2025-01-01', end_date: '2026-01-03' }, 'end_date'],
      [{ teams: 'north' }, 'teams'],
      [{ rotas: '0' }, 'rotas'],
      [{ users: '1,x' }, 'users'],
      [{ group_by: 'day' }, 'group_by'],
    ];
    for (const [query, field] of cases) {
      const res = await report('boss', query);
      expect([query, res.status, Object.keys(res.body.errors ?? {})]).toEqual([query, 422, [field]]);
    }
    // 366 days apart is allowed.
    await report('boss', { start_date: '2025-01-01', end_date: '2026-01-02' }).expect(200);
  });

  it('defaults to the current month in the organisation’s zone', async () => {
    const { body } = await report('boss').expect(200);
    const first = `${today.slice(0, 8)}01`;
    const last = DateTime.fromISO(first, { zone: 'UTC' }).plus({ months: 1, days: -1 }).toISODate();
    expect(body.meta).toEqual({ start_date: first, end_date: last, group_by: 'user' });
  });

  describe('with attendance recorded', () => {
    beforeAll(async () => {
      await attend('night', { status: 'attended' });
      await attend('annDay', { status: 'no_show' });
      const day = plusDays(sat, -2);
      await attend('bobNorth', { status: 'attended', start_datetime: `${day} 09:15`, end_datetime: `${day} 12:00` });
    }, 60_000);

    it('by user: shifts, attended, no_show, unrecorded, booked and attended minutes', async () => {
      expect((await rows('boss', range)).map(figures)).toEqual([
        [ANN, 2, 1, 1, 0, 780, 540],
        ['Bob', 2, 1, 0, 1, 390, 165],
        ['Cy', 1, 0, 0, 1, 120, 0],
      ]);
    });

    it('by team and by rota, ids integers, ordered by name', async () => {
      const teams = await rows('boss', { ...range, group_by: 'team' });
      expect(teams.map((r) => r.id)).toEqual([org.teams.north, org.teams.child, org.teams.south]);
      expect(teams.map(figures)).toEqual([
        ['North', 3, 2, 1, 0, 960, 705],
        ['North child', 1, 0, 0, 1, 210, 0],
        ['South', 1, 0, 0, 1, 120, 0],
      ]);
      const byRota = await rows('boss', { ...range, group_by: 'rota' });
      expect(byRota.map((r) => r.id)).toEqual([rotas.child, rotas.north, rotas.south]);
      expect(byRota.map(figures)).toEqual([
        ['Child rota', 1, 0, 0, 1, 210, 0],
        ['North rota', 3, 2, 1, 0, 960, 705],
        ['South rota', 1, 0, 0, 1, 120, 0],
      ]);
    });

    it('filters: teams takes the named teams only (not sub-teams), rotas, users', async () => {
      expect((await rows('boss', { ...range, teams: String(org.teams.north) })).map(figures)).toEqual([
        [ANN, 2, 1, 1, 0, 780, 540],
        ['Bob', 1, 1, 0, 0, 180, 165],
      ]);
      expect((await rows('boss', { ...range, rotas: String(rotas.child) })).map(figures)).toEqual([
        ['Bob', 1, 0, 0, 1, 210, 0],
      ]);
      expect(
        (await rows('boss', { ...range, users: `${org.users.ann},${org.users.cy}`, group_by: 'team' })).map(figures),
      ).toEqual([
        ['North', 2, 1, 1, 0, 780, 540],
        ['South', 1, 0, 0, 1, 120, 0],
      ]);
      // A team the caller does not manage names nothing.
      expect(await rows('boss', { ...range, teams: String(org.teams.east) })).toEqual([]);
    });

    it('only the teams the caller manages: another team’s shifts are left out', async () => {
      expect((await rows('coord', { ...range, group_by: 'team' })).map(figures)).toEqual([
        ['North', 3, 2, 1, 0, 960, 705],
        ['North child', 1, 0, 0, 1, 210, 0],
      ]);
      expect((await rows('eastboss', range)).map(figures)).toEqual([['Cy', 1, 0, 0, 1, 120, 0]]);
    });

    it('projections:replay rebuilds the same rota_volunteer_hours rows from the log, and the same report', async () => {
      const ds = app.get(DataSource);
      const checksum = () => tableChecksum(ds, 'rota_volunteer_hours', 'shift_id');
      const [live, before] = [await checksum(), await rows('boss', range)];
      expect(live.n).toBe(8);
      await ds.query(`DELETE FROM rota_volunteer_hours`);
      const result = await app.get(ProjectionReplayer).replay(['rotas.volunteer-hours']);
      expect(result.projections).toEqual(['rotas.volunteer-hours']);
      expect(await checksum()).toEqual(live);
      expect(await rows('boss', range)).toEqual(before);
    });

    it('as CSV with Accept: text/csv: the header, RFC 4180 quoting and the formula prefix', async () => {
      const res = await report('boss', range).set('accept', 'text/csv').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.text.split('\r\n')).toEqual([
        'id,name,shifts,attended,no_show,unrecorded,booked_minutes,attended_minutes',
        `${org.users.ann},"'=Ann, ""Jo""",2,1,1,0,780,540`,
        `${org.users.bob},Bob,2,1,0,1,390,165`,
        `${org.users.cy},Cy,1,0,0,1,120,0`,
        '',
      ]);
      const json = await report('boss', range).set('accept', 'application/json').expect(200);
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      await report('boss', range).set('accept', 'text/html').expect(406);
    });

    it('Accept: the preferred of JSON and CSV by q, then order; a wildcard covering CSV serves it', async () => {
      const type = async (accept: string) =>
        (await report('boss', range).set('accept', accept).expect(200)).headers['content-type'];
      expect(await type('text/csv;q=0.9, application/json')).toMatch(/^application\/json/);
      expect(await type('application/json;q=0.5, text/csv')).toMatch(/^text\/csv/);
      expect(await type('text/*')).toMatch(/^text\/csv/);
      expect(await type('*/*')).toMatch(/^application\/json/);
      expect(await type('application/x.uvol.v3+json')).toMatch(/^application\/json/);
    });

    it('CSV: every name starting with -, +, = or @ gets the apostrophe, one that looks like a number too', async () => {
      const day = plusDays(sat, -10);
      const res = await report('boss', { start_date: day, end_date: day }).set('accept', 'text/csv').expect(200);
      expect(res.text).toBe(
        'id,name,shifts,attended,no_show,unrecorded,booked_minutes,attended_minutes\r\n' +
          `${org.users.dash},'-12,1,0,0,1,60,0\r\n`,
      );
    });

    // Last: it archives the child rota.
    it('an archived rota’s past shifts still count: hours worked stay worked', async () => {
      const before = await rows('boss', { ...range, group_by: 'rota' });
      expect(before.map(figures)).toContainEqual(['Child rota', 1, 0, 0, 1, 210, 0]);
      await http()
        .post('/api/rotas/bulk')
        .set(as('boss'))
        .send({ action: 'archive_rotas', rota_ids: [rotas.child] })
        .expect(204);
      expect(await rows('boss', { ...range, group_by: 'rota' })).toEqual(before);
    });
  });
});
