import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, hillsideFile, logIn, logInAll, provision, userFile } from '../support/test-app.js';
import { expectRefused, refusedFields } from '../support/nothing-written.js';

const ZONE = 'Europe/London';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const NEXT = {
  monday: 'tuesday',
  tuesday: 'wednesday',
  wednesday: 'thursday',
  thursday: 'friday',
  friday: 'saturday',
  saturday: 'sunday',
  sunday: 'monday',
} as Record<string, string>;
const plusDays = (date: string, n: number) => DateTime.fromISO(date).plus({ days: n }).toISODate()!;

/**
 * Booking over HTTP (docs/rota-domain.md#booking-rules, #the-shift-record-and-list; the same-day
 * rules are rule 8): every rule of the numbered list refused and allowed, the manager overrides, the
 * 403/404 before the rules, bulk all or nothing, the list and get routes, time input (spring gap, ISO
 * with offset), and the races of issue 14: ten volunteers for the last place, ten overlapping
 * bookings of one user, one shift each.
 */
describe('shifts: booking (docs/rota-domain.md#booking-rules)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let org: ProvisionResult;
  let hill: ProvisionResult;
  const rotas: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  const today = todayIn(ZONE);
  const day = plusDays(today, 10);
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const racers = Array.from({ length: 10 }, (_, i) => `racer${i}`);
  const rush = Array.from({ length: 16 }, (_, i) => `rush${i}`);
  const user = (key: string, permissions: string[], teams: string[], more: object = {}) =>
    userFile(key, permissions, teams, { name: `${key} name`, ...more });
  const refused = (send: () => request.Test, status: number) => expectRefused(ds, send, status);
  const fields = (send: () => request.Test) => refusedFields(ds, send);
  const book = (who: string, body: object) => http().post('/api/rota/shifts').set(as(who)).send(body);
  const shift = (rota: string, userId: number, start: string, end: string, extra: object = {}) => ({
    rota: { id: rotas[rota] },
    user: { id: userId },
    start_datetime: start,
    end_datetime: end,
    ...extra,
  });

  /** Every weekday 08:00–20:00 (1/1/1) and 22:00 → 06:00 the next day (1/1/2). */
  const everyDay = WEEKDAYS.flatMap((d) => [
    { weekday_start: d, start_time: '08:00', weekday_end: d, end_time: '20:00', min: 1, ideal: 1, max: 1 },
    { weekday_start: d, start_time: '22:00', weekday_end: NEXT[d], end_time: '06:00', min: 1, ideal: 1, max: 2 },
  ]);
  /** 00:00–23:59 every day (same-day rules at any hour the suite runs). */
  const allDay = WEEKDAYS.map((d) => ({
    weekday_start: d,
    start_time: '00:00',
    weekday_end: d,
    end_time: '23:59',
    min: 1,
    ideal: 1,
    max: 5,
  }));

  async function seedRota(
    who: string,
    team: number,
    name: string,
    pattern: object[],
    settings: object = {},
  ): Promise<number> {
    const patternId = (await http().post('/api/shift-patterns').set(as(who)).send({ name, pattern }).expect(201)).body
      .data.id;
    const body = {
      name,
      start_date: plusDays(today, -7),
      pattern_id: patternId,
      team: [{ id: team }],
      self_manage: true,
      ...settings,
    };
    return (await http().post('/api/rotas').set(as(who)).send(body).expect(201)).body.data[0].id;
  }

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    ds = app.get(DataSource);
    org = await provision(app, {
      organisation: { name: 'Riverside', slug: 'riverside', timezone: ZONE, features: ['rota_v2'] },
      role_profiles: [
        { key: 'shop', name: 'Shop volunteer' },
        { key: 'driver', name: 'Driver' },
      ],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'shop', name: 'Shop', parent: 'north' },
        { key: 'van', name: 'Van', parent: 'north' },
        { key: 'race', name: 'Race', parent: 'north' },
        { key: 'rush', name: 'Rush', parent: 'north' },
        { key: 'same', name: 'Same day', parent: 'north' },
        { key: 'south', name: 'South' },
        { key: 'locked', name: 'Locked', parent: 'north' },
        { key: 'drivers', name: 'Drivers', parent: 'north' },
      ],
      users: [
        user('boss', ['manage-rotas'], ['north']),
        user('shifter', ['add-user-shifts'], ['north']),
        user('vol', [], ['shop', 'van', 'same', 'locked', 'drivers']),
        user('vol2', [], ['shop']),
        user('held', [], ['shop'], { status: 'on_hold' }),
        user('southvol', [], ['south']),
        ...racers.map((r) => user(r, [], ['race'])),
        ...rush.map((r) => user(r, [], ['rush'])),
      ],
    });
    hill = await provision(
      app,
      hillsideFile([user('other', ['manage-rotas'], ['t'], { domain: 'hillside' })], { timezone: ZONE, features: [] }),
    );
    Object.assign(
      tokens,
      await logInAll(app, ['boss', 'shifter', 'vol', 'vol2', 'held', 'southvol', ...racers, ...rush]),
    );
    tokens.other = await logIn(app, 'other@hillside.example');
    rotas.shop = await seedRota('boss', org.teams.shop!, 'Shop', everyDay);
    rotas.van = await seedRota('boss', org.teams.van!, 'Van', everyDay);
    rotas.race = await seedRota('boss', org.teams.race!, 'Race', everyDay);
    rotas.rush = await seedRota(
      'boss',
      org.teams.rush!,
      'Rush',
      allDay.map((t) => ({ ...t, ideal: 16, max: 20 })),
    );
    rotas.same = await seedRota('boss', org.teams.same!, 'Same day', allDay, { allow_same_day_add: false });
    rotas.theirs = await seedRota('other', hill.teams.t!, 'Theirs', everyDay);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('books a volunteer’s own shift: 201 { data: Shift } with wall-clock times, its team and rota, and GET answers the same', async () => {
    const res = await book('vol', shift('shop', org.users.vol!, `${day} 09:00`, `${day} 10:30`)).expect(201);
    expect(res.body).toEqual({
      data: {
        id: expect.any(Number),
        user: expect.objectContaining({ id: org.users.vol, display_name: 'vol name' }),
        date: day,
        start_time: '09:00',
        start_datetime: `${day} 09:00`,
        end_time: '10:30',
        end_datetime: `${day} 10:30`,
        team: expect.objectContaining({ id: String(org.teams.shop), name: 'Shop' }),
        recurrence_pattern: null,
        rota_id: rotas.shop,
        attendance: null,
        stand_in: null,
      },
    });
    expect((await http().get(`/api/rota/shifts/${res.body.data.id}`).set(as('vol2')).expect(200)).body).toEqual(
      res.body,
    );
    const [{ type }] = await ds.query(`SELECT type FROM events WHERE stream_id = $1`, [
      `rotas.Shift-${res.body.data.id}`,
    ]);
    expect(type).toBe('rotas.ShiftBooked');
  });

  it(
    'refuses before any rule: another organisation’s or an unknown rota 404, a rota the caller does not ' +
      'see 403, another user’s shift without being a manager 403, one’s own on a rota without self_manage ' +
      '403',
    async () => {
      const d = plusDays(today, 11);
      await refused(
        () => book('vol', { ...shift('shop', org.users.vol!, `${d} 09:00`, `${d} 10:00`), rota: { id: rotas.theirs } }),
        404,
      );
      await refused(
        () => book('vol', { ...shift('shop', org.users.vol!, `${d} 09:00`, `${d} 10:00`), rota: { id: 99_999_999 } }),
        404,
      );
      await refused(() => book('southvol', shift('shop', org.users.southvol!, `${d} 09:00`, `${d} 10:00`)), 403);
      await refused(() => book('vol', shift('shop', org.users.vol2!, `${d} 09:00`, `${d} 10:00`)), 403);
      const locked = await seedRota('boss', org.teams.locked!, 'Managed only', everyDay, { self_manage: false });
      await refused(
        () => book('vol', { ...shift('shop', org.users.vol!, `${d} 09:00`, `${d} 10:00`), rota: { id: locked } }),
        403,
      );
      // A manager books on it, for anyone who sees it.
      await book('shifter', {
        ...shift('shop', org.users.vol!, `${d} 12:00`, `${d} 13:00`),
        rota: { id: locked },
      }).expect(201);
    },
  );

  it('rule 1: a date before the rota starts or a closed date is a 422 naming rota; rule 2: outside every timeslot a 422 naming start_datetime', async () => {
    const closed = plusDays(today, 12);
    await http()
      .post('/api/rotas/bulk')
      .set(as('boss'))
      .send({ action: 'close', rota_ids: [rotas.van], data: { dates: [closed] } })
      .expect(204);
    expect(
      await fields(() => book('boss', shift('van', org.users.vol!, `${closed} 09:00`, `${closed} 10:00`))),
    ).toEqual(['rota']);
    const before = plusDays(today, -30);
    expect(
      await fields(() => book('boss', shift('van', org.users.vol!, `${before} 09:00`, `${before} 10:00`))),
    ).toEqual(['rota']);
    const d = plusDays(today, 13);
    expect(await fields(() => book('vol', shift('van', org.users.vol!, `${d} 07:00`, `${d} 09:00`)))).toEqual([
      'start_datetime',
    ]);
    expect(await fields(() => book('vol', shift('van', org.users.vol!, `${d} 19:00`, `${d} 21:00`)))).toEqual([
      'start_datetime',
    ]);
    // Overnight: inside 22:00 → 06:00 of the date it starts on.
    await book('vol', shift('van', org.users.vol!, `${d} 23:00`, `${plusDays(d, 1)} 05:00`)).expect(201);
  });

  it(
    'rules 3–5: a user of another organisation or outside the rota’s teams, on hold, or without an ' +
      'allowed role is a 422 naming user; managers override 4 and 5 with the flags',
    async () => {
      const d = plusDays(today, 14);
      expect(await fields(() => book('boss', shift('shop', hill.users.other!, `${d} 09:00`, `${d} 10:00`)))).toEqual([
        'user',
      ]);
      expect(await fields(() => book('boss', shift('shop', org.users.southvol!, `${d} 09:00`, `${d} 10:00`)))).toEqual([
        'user',
      ]);
      // On hold: their own booking is the 422 (not a 403); a manager needs ignore_on_hold; the flag means nothing from the volunteer.
      expect(await fields(() => book('held', shift('shop', org.users.held!, `${d} 09:00`, `${d} 10:00`)))).toEqual([
        'user',
      ]);
      expect(
        await fields(() =>
          book('held', shift('shop', org.users.held!, `${d} 09:00`, `${d} 10:00`, { ignore_on_hold: true })),
        ),
      ).toEqual(['user']);
      expect(await fields(() => book('shifter', shift('shop', org.users.held!, `${d} 09:00`, `${d} 10:00`)))).toEqual([
        'user',
      ]);
      const heldShift = (
        await book(
          'shifter',
          shift('shop', org.users.held!, `${d} 09:00`, `${d} 10:00`, { ignore_on_hold: true }),
        ).expect(201)
      ).body.data;
      // An edit of times is a booking: moving the held user's shift needs ignore_on_hold again.
      const moveHeld = (extra: object = {}) =>
        http()
          .put(`/api/rota/shifts/${heldShift.id}`)
          .set(as('shifter'))
          .send({ start_datetime: `${d} 10:00`, end_datetime: `${d} 11:00`, edit_mode: 'single', ...extra });
      expect(await fields(() => moveHeld())).toEqual(['user']);
      expect((await moveHeld({ ignore_on_hold: true }).expect(200)).body.data.start_datetime).toBe(`${d} 10:00`);
      // Restricted to drivers: vol (shop) is refused; a manager confirms the restriction.
      const drivers = await seedRota('boss', org.teams.drivers!, 'Drivers', everyDay, {
        restricted_by_role: true,
        role_profiles: [org.role_profiles.driver],
      });
      const onDrivers = (extra: object = {}) => ({
        ...shift('shop', org.users.vol!, `${d} 12:00`, `${d} 13:00`, extra),
        rota: { id: drivers },
      });
      expect(await fields(() => book('vol', onDrivers()))).toEqual(['user']);
      expect(await fields(() => book('vol', onDrivers({ confirm_role_restriction: true })))).toEqual(['user']);
      expect(await fields(() => book('boss', onDrivers()))).toEqual(['user']);
      await book('boss', onDrivers({ confirm_role_restriction: true })).expect(201);
    },
  );

  it('rule 6: an overlapping shift of the user on any rota is a 422 naming start_datetime; touching ends do not overlap', async () => {
    const d = plusDays(today, 15);
    await book('vol', shift('shop', org.users.vol!, `${d} 09:00`, `${d} 10:00`)).expect(201);
    expect(await fields(() => book('vol', shift('van', org.users.vol!, `${d} 09:30`, `${d} 11:00`)))).toEqual([
      'start_datetime',
    ]);
    expect(await fields(() => book('boss', shift('van', org.users.vol!, `${d} 08:00`, `${d} 12:00`)))).toEqual([
      'start_datetime',
    ]);
    await book('vol', shift('van', org.users.vol!, `${d} 10:00`, `${d} 11:00`)).expect(201);
  });

  it('rule 7: a volunteer cannot take a timeslot over max at any moment; a manager may (over-maximum), and half-open shifts share one place', async () => {
    const d = plusDays(today, 16);
    await book('vol', shift('shop', org.users.vol!, `${d} 09:00`, `${d} 09:30`)).expect(201);
    await book('vol2', shift('shop', org.users.vol2!, `${d} 09:30`, `${d} 10:00`)).expect(201);
    expect(await fields(() => book('vol2', shift('shop', org.users.vol2!, `${d} 09:15`, `${d} 09:20`)))).toEqual([
      'start_datetime',
    ]);
    await book('shifter', shift('shop', org.users.vol2!, `${d} 09:00`, `${d} 09:20`)).expect(201);
  });

  it('rule 8: a volunteer cannot book the past, today only with allow_same_day_add, and an overnight shift never on its start date; managers can', async () => {
    const yesterday = plusDays(today, -1);
    expect(
      await fields(() =>
        book('vol', {
          ...shift('shop', org.users.vol!, `${yesterday} 09:00`, `${yesterday} 10:00`),
          rota: { id: rotas.same },
        }),
      ),
    ).toEqual(['start_datetime']);
    await book('boss', {
      ...shift('shop', org.users.vol!, `${yesterday} 09:00`, `${yesterday} 10:00`),
      rota: { id: rotas.same },
    }).expect(201);
    const now = DateTime.now().setZone(ZONE);
    const soon = now.plus({ minutes: 5 }).startOf('minute');
    const later = soon.plus({ minutes: 5 });
    // Today’s date in the zone, still ahead of now: only when the suite runs before 23:45 local.
    if (later.toISODate() === today && later.hour < 23) {
      const todays = {
        ...shift('shop', org.users.vol!, soon.toFormat('yyyy-LL-dd HH:mm'), later.toFormat('yyyy-LL-dd HH:mm')),
        rota: { id: rotas.same },
      };
      expect(await fields(() => book('vol', todays))).toEqual(['start_datetime']);
      await http().put(`/api/rotas/${rotas.same}`).set(as('boss')).send({ allow_same_day_add: true }).expect(200);
      await book('vol', todays).expect(201);
      // Overnight from today (Shop's 22:00 → 06:00): never on its start date, whatever the flag.
      await http().put(`/api/rotas/${rotas.shop}`).set(as('boss')).send({ allow_same_day_add: true }).expect(200);
      expect(
        await fields(() => book('vol', shift('shop', org.users.vol!, `${today} 22:00`, `${plusDays(today, 1)} 02:00`))),
      ).toEqual(['start_datetime']);
      await http().put(`/api/rotas/${rotas.shop}`).set(as('boss')).send({ allow_same_day_add: false }).expect(200);
    }
  });

  it(
    'reads times as wall clock in the zone or ISO 8601 with an offset; a time in the spring gap, a ' +
      'malformed one or an end not after the start is a 422 naming it',
    async () => {
      const d = plusDays(today, 17);
      const utc = DateTime.fromISO(`${d}T11:00`, { zone: ZONE }).toUTC().toISO({ suppressMilliseconds: true })!;
      const res = await book(
        'vol',
        shift('shop', org.users.vol!, utc, DateTime.fromISO(utc).plus({ hours: 1 }).toISO()!),
      ).expect(201);
      expect(res.body.data).toEqual(
        expect.objectContaining({ start_datetime: `${d} 11:00`, end_datetime: `${d} 12:00` }),
      );
      expect(
        await fields(() => book('boss', shift('shop', org.users.vol!, '2027-03-28 01:30', '2027-03-28 03:00'))),
      ).toEqual(['start_datetime']);
      expect(await fields(() => book('boss', shift('shop', org.users.vol!, 'tomorrow', `${d} 13:00`)))).toEqual([
        'start_datetime',
      ]);
      expect(await fields(() => book('boss', shift('shop', org.users.vol!, `${d} 13:00`, `${d} 13:00`)))).toEqual([
        'end_datetime',
      ]);
      expect(await fields(() => book('boss', { start_datetime: `${d} 13:00` }))).toEqual([
        'end_datetime',
        'rota',
        'user',
      ]);
    },
  );

  it('bulk: 201 { data: [Shift, …] } in order; all or nothing, errors keyed shifts.N, shifts of one request must not overlap for one user', async () => {
    const d = plusDays(today, 18);
    const ok = [
      shift('shop', org.users.vol!, `${d} 09:00`, `${d} 10:00`),
      shift('shop', org.users.vol2!, `${d} 09:00`, `${d} 10:00`),
      shift('van', org.users.vol!, `${d} 11:00`, `${d} 12:00`),
    ];
    const bad = [...ok.slice(0, 2), shift('shop', org.users.vol!, `${d} 07:00`, `${d} 08:30`)];
    expect(await fields(() => book('boss', { shifts: bad }))).toEqual(['shifts.2.start_datetime']);
    expect(
      await fields(() => book('boss', { shifts: [ok[0], shift('van', org.users.vol!, `${d} 09:30`, `${d} 10:30`)] })),
    ).toEqual(['shifts.1.start_datetime']);
    expect(await fields(() => book('boss', { shifts: [] }))).toEqual(['shifts']);
    // The 403 of any item comes before the 422 of an earlier one (docs/rota-domain.md#who-may-do-what).
    await refused(
      () =>
        book('vol', {
          shifts: [
            shift('shop', org.users.vol!, `${d} 07:00`, `${d} 08:30`),
            shift('shop', org.users.vol2!, `${d} 12:00`, `${d} 13:00`),
          ],
        }),
      403,
    );
    expect(await fields(() => book('boss', { shifts: ok, rota: { id: rotas.shop } }))).toEqual(['rota']);
    const res = await book('boss', { shifts: ok }).expect(201);
    expect(
      res.body.data.map((s: { rota_id: number; user: { id: number }; start_time: string }) => [
        s.rota_id,
        s.user.id,
        s.start_time,
      ]),
    ).toEqual([
      [rotas.shop, org.users.vol, '09:00'],
      [rotas.shop, org.users.vol2, '09:00'],
      [rotas.van, org.users.vol, '11:00'],
    ]);
  });

  it(
    'lists booked shifts on rotas the caller sees, by start, with filters and the 365-day limit; get is ' +
      '404 across organisations and 403 outside the hierarchy',
    async () => {
      const d = plusDays(today, 18);
      const listed = (
        await http()
          .get(`/api/rota/shifts?start_date=${d}&end_date=${d}&users=${org.users.vol}`)
          .set(as('boss'))
          .expect(200)
      ).body;
      // vol2 sees only the Shop rota: vol's Van shift is left out.
      expect(
        (
          await http()
            .get(`/api/rota/shifts?start_date=${d}&end_date=${d}&users=${org.users.vol}`)
            .set(as('vol2'))
            .expect(200)
        ).body.data,
      ).toHaveLength(1);
      expect(listed.data.map((s: { start_time: string }) => s.start_time)).toEqual(['09:00', '11:00']);
      expect(listed.meta.pagination).toEqual(expect.objectContaining({ total: '2' }));
      expect(
        (
          await http()
            .get(`/api/rota/shifts?start_date=${d}&end_date=${d}&rotas=${rotas.shop}`)
            .set(as('vol2'))
            .expect(200)
        ).body.data,
      ).toHaveLength(2);
      expect(
        (await http().get(`/api/rota/shifts?start_date=${d}&end_date=${d}`).set(as('southvol')).expect(200)).body.data,
      ).toEqual([]);
      expect(
        await fields(() =>
          http()
            .get(`/api/rota/shifts?start_date=${d}&end_date=${plusDays(d, 366)}`)
            .set(as('vol')),
        ),
      ).toEqual(['end_date']);
      expect(
        await fields(() =>
          http()
            .get(`/api/rota/shifts?start_date=${d}&end_date=${plusDays(d, -1)}`)
            .set(as('vol')),
        ),
      ).toEqual(['end_date']);
      const id = listed.data[0].id;
      await refused(() => http().get(`/api/rota/shifts/${id}`).set(as('other')), 404);
      await refused(() => http().get(`/api/rota/shifts/${id}`).set(as('southvol')), 403);
      await refused(() => http().get('/api/rota/shifts/99999999').set(as('vol')), 404);
    },
  );

  it('races: ten volunteers at once for a max-1 place book exactly one shift; the others get the 422', async () => {
    const d = plusDays(today, 20);
    const results = await Promise.all(
      racers.map((r) => book(r, shift('race', org.users[r]!, `${d} 09:00`, `${d} 10:00`))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(422)]);
    for (const r of results.filter((x) => x.status === 422))
      expect(Object.keys(r.body.errors)).toEqual(['start_datetime']);
    const [{ n }] = await ds.query(
      `SELECT count(*)::int AS n FROM rota_shifts WHERE rota_id = $1 AND date = $2 AND status = 'booked'`,
      [rotas.race, d],
    );
    expect(n).toBe(1);
  });

  it('rush: sixteen volunteers booking one rota-day at once all get their 201, none a 409 (they queue on the day, docs/adr/0011)', async () => {
    const d = plusDays(today, 22);
    const results = await Promise.all(
      rush.map((r) => book(r, shift('rush', org.users[r]!, `${d} 09:00`, `${d} 10:00`))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(16).fill(201));
    const [{ n }] = await ds.query(
      `SELECT count(*)::int AS n FROM rota_shifts WHERE rota_id = $1 AND date = $2 AND status = 'booked'`,
      [rotas.rush, d],
    );
    expect(n).toBe(16);
  });

  it('races: ten overlapping bookings of one user on two rotas at once book exactly one', async () => {
    const d = plusDays(today, 21);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        book(
          'boss',
          shift(
            i % 2 ? 'shop' : 'van',
            org.users.vol!,
            `${d} ${String(9 + (i % 3)).padStart(2, '0')}:00`,
            `${d} 12:30`,
          ),
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(422)]);
    const [{ n }] = await ds.query(
      `SELECT count(*)::int AS n FROM rota_shifts WHERE user_id = $1 AND date = $2 AND status = 'booked'`,
      [org.users.vol, d],
    );
    expect(n).toBe(1);
  });
});
