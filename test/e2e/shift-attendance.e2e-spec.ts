import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, hillsideFile, logIn, logInAll, provision, userFile } from '../support/test-app.js';
import { eventCount, expectRefused, refusedFields } from '../support/nothing-written.js';

const ZONE = 'Europe/London';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const NEXT = Object.fromEntries(WEEKDAYS.map((d, i) => [d, WEEKDAYS[(i + 1) % 7]!]));
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const plusDays = (date: string, n: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days: n }).toISODate()!;
const local = (w: string) => DateTime.fromFormat(w, 'yyyy-LL-dd HH:mm', { zone: ZONE });
/** Real minutes between two wall clocks in the zone (a clock change between them counts as it lasted). */
const realMinutes = (from: string, to: string) => local(to).diff(local(from), 'minutes').minutes;
const wall = (t: DateTime) => t.setZone(ZONE).toFormat('yyyy-LL-dd HH:mm');

/** The last night the London clocks went back (the last Sunday of October) at least two days ago. */
function lastAutumnChange(today: string): string {
  for (let year = Number(today.slice(0, 4)); ; year--) {
    const end = DateTime.fromObject({ year, month: 10, day: 31 }, { zone: 'UTC' });
    const sunday = end.minus({ days: end.weekday % 7 }).toISODate()!;
    if (sunday <= plusDays(today, -2)) return sunday;
  }
}

type Attendance = {
  status: string;
  start_datetime: string;
  end_datetime: string;
  minutes: number;
  note: string | null;
  recorded_by: { id: number };
  recorded_at: string;
};
type Shift = { id: number; date: string; start_datetime: string; end_datetime: string; attendance: Attendance | null };

/**
 * Attendance over HTTP (docs/rota-domain.md#attendance): a manager records attended (worked times,
 * their bounds and formats), no_show and clears, on shifts that have started; the volunteer's own
 * check-in in its window on a self-managed rota; every refusal (422 body shape before the 404 /
 * 403s, then the rules) with nothing written; the Shift's attendance in get and list answers; the
 * history entries; the 409 cancel and the cancel once cleared; a move keeping the record; the
 * autumn night counting real minutes.
 */
describe('shift attendance (docs/rota-domain.md#attendance)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let org: ProvisionResult;
  let hill: ProvisionResult;
  const rotas: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  const today = todayIn(ZONE);
  const autumn = lastAutumnChange(today);
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const user = (key: string, permissions: string[], teams: string[], domain?: string) =>
    userFile(key, permissions, teams, { name: `${key} name`, domain });
  const refused = (send: () => request.Test, status: number) => expectRefused(ds, send, status);
  const fields = (send: () => request.Test) => refusedFields(ds, send);
  const userBase = (key: string) => expect.objectContaining({ id: org.users[key], display_name: `${key} name` });

  async function book(who: string, rota: string, userKey: string, start: string, end: string): Promise<Shift> {
    const res = await http()
      .post('/api/rota/shifts')
      .set(as(who))
      .send({ rota: { id: rotas[rota] }, user: { id: org.users[userKey] }, start_datetime: start, end_datetime: end });
    expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.anything() });
    return res.body.data;
  }
  const record = (who: string, id: number | string, body: object) =>
    http().put(`/api/rota/shifts/${id}/attendance`).set(as(who)).send(body);
  const getShift = (who: string, id: number) => http().get(`/api/rota/shifts/${id}`).set(as(who));
  const cancel = (who: string, id: number) => http().delete(`/api/rota/shifts/${id}`).set(as(who));

  /** A shift starting within the next few minutes, inside one local day: its check-in is open. */
  function soon(): [DateTime, DateTime] {
    const now = DateTime.now().setZone(ZONE);
    const midnight = now.plus({ days: 1 }).startOf('day');
    const start = now.plus({ minutes: 6 }).startOf('minute');
    const end = start.plus({ hours: 1 });
    if (end <= midnight) return [start, end];
    if (midnight.diff(now, 'minutes').minutes <= 14) return [midnight, midnight.plus({ hours: 1 })];
    return [start, midnight];
  }

  /** Midnight to midnight, every day: any shift within one local day fits, started or not. */
  const wholeDays = WEEKDAYS.map((d) => ({
    weekday_start: d,
    start_time: '00:00',
    weekday_end: NEXT[d],
    end_time: '00:00',
    min: 1,
    ideal: 1,
    max: 5,
  }));

  async function seedRota(who: string, team: number, name: string, settings: object = {}): Promise<number> {
    const patternId = (
      await http().post('/api/shift-patterns').set(as(who)).send({ name, pattern: wholeDays }).expect(201)
    ).body.data.id;
    const body = {
      name,
      start_date: plusDays(autumn, -7),
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
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'shop', name: 'Shop', parent: 'north' },
        { key: 'locked', name: 'Locked', parent: 'north' },
        { key: 'south', name: 'South' },
      ],
      users: [
        user('boss', ['manage-rotas'], ['north']),
        user('shifter', ['add-user-shifts'], ['north']),
        user('vol', [], ['shop', 'locked']),
        user('vol2', [], ['shop']),
        user('southvol', [], ['south']),
        userFile('held', [], ['shop'], { name: 'held name', status: 'on_hold' }),
      ],
    });
    hill = await provision(
      app,
      hillsideFile([user('other', ['manage-rotas'], ['t'], 'hillside')], { timezone: ZONE, features: [] }),
    );
    Object.assign(tokens, await logInAll(app, ['boss', 'shifter', 'vol', 'vol2', 'southvol', 'held']));
    tokens.other = await logIn(app, 'other@hillside.example');
    rotas.shop = await seedRota('boss', org.teams.shop!, 'Shop');
    rotas.locked = await seedRota('boss', org.teams.locked!, 'Locked', { self_manage: false });
    rotas.theirs = await seedRota('other', hill.teams.t!, 'Theirs');
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it(
    'a manager (add-user-shifts) records attended on a started shift: 200 { data: Shift } with attendance at the shift’s ' +
      'own times; get and list answer it; recorded_by is a user summary; the history lists it',
    async () => {
      const d = plusDays(today, -2);
      const shift = await book('shifter', 'shop', 'vol', `${d} 09:00`, `${d} 12:00`);
      expect(shift.attendance).toBeNull();
      expect((await getShift('vol', shift.id).expect(200)).body.data.attendance).toBeNull();

      const res = await record('shifter', shift.id, { status: 'attended', note: 'Opened up' }).expect(200);
      const attendance = {
        status: 'attended',
        start_datetime: `${d} 09:00`,
        end_datetime: `${d} 12:00`,
        minutes: 180,
        note: 'Opened up',
        recorded_by: userBase('shifter'),
        recorded_at: expect.stringMatching(ISO),
      };
      expect(res.body).toEqual({ data: { ...shift, attendance } });
      // Read back by the same caller (a user summary's can_manage is judged for the reader).
      expect((await getShift('shifter', shift.id).expect(200)).body).toEqual(res.body);
      const list = (
        await http()
          .get(`/api/rota/shifts?rotas=${rotas.shop}&users=${org.users.vol}&start_date=${d}&end_date=${d}`)
          .set(as('shifter'))
          .expect(200)
      ).body.data as Shift[];
      expect(list).toEqual([{ ...shift, attendance }]);

      const history = (await http().get(`/api/rota/shifts/${shift.id}/history`).set(as('vol')).expect(200)).body.data;
      expect(history.map((e: { action: string }) => e.action)).toEqual(['ShiftBooked', 'ShiftAttendanceRecorded']);
      expect(history[1]).toEqual({
        at: expect.stringMatching(ISO),
        actor: userBase('shifter'),
        action: 'ShiftAttendanceRecorded',
        changes: {
          attendance: {
            status: 'attended',
            start_datetime: `${d} 09:00`,
            end_datetime: `${d} 12:00`,
            minutes: 180,
            note: 'Opened up',
            recorded_by: userBase('shifter'),
          },
        },
      });

      // The same again changes nothing; clearing it is an entry too, and clearing nothing changes nothing.
      const before = await eventCount(ds);
      expect((await record('shifter', shift.id, { status: 'attended', note: 'Opened up' }).expect(200)).body).toEqual(
        res.body,
      );
      expect(await eventCount(ds)).toBe(before);
      const clearedRes = await record('shifter', shift.id, { status: null }).expect(200);
      expect(clearedRes.body).toEqual({ data: { ...shift, attendance: null } });
      const afterClear = await eventCount(ds);
      expect(afterClear).toBe(before + 1);
      await record('boss', shift.id, { status: null }).expect(200);
      expect(await eventCount(ds)).toBe(afterClear);
      const actions = (
        await http().get(`/api/rota/shifts/${shift.id}/history`).set(as('boss')).expect(200)
      ).body.data.map((e: { action: string; changes: object }) => [e.action, e.changes]);
      expect(actions.at(-1)).toEqual(['ShiftAttendanceCleared', { attendance: null }]);
    },
  );

  it(
    'a manager (manage-rotas) records the worked times as wall clocks or ISO instants, within 12 hours of the ' +
      'shift’s: minutes are the whole minutes between them; no_show takes the shift’s own times and 0 minutes',
    async () => {
      const d = plusDays(today, -3);
      const shift = await book('boss', 'shop', 'vol', `${d} 10:00`, `${d} 14:00`);
      const worked = await record('boss', shift.id, {
        status: 'attended',
        start_datetime: `${plusDays(d, -1)} 22:00`,
        end_datetime: DateTime.fromISO(`${d}T16:45`, { zone: ZONE }).toUTC().toISO(),
      }).expect(200);
      expect(worked.body.data.attendance).toEqual({
        status: 'attended',
        start_datetime: `${plusDays(d, -1)} 22:00`,
        end_datetime: `${d} 16:45`,
        minutes: realMinutes(`${plusDays(d, -1)} 22:00`, `${d} 16:45`),
        note: null,
        recorded_by: userBase('boss'),
        recorded_at: expect.stringMatching(ISO),
      });
      const noShow = await record('boss', shift.id, {
        status: 'no_show',
        start_datetime: `${d} 11:00`,
        note: 'Phoned in sick',
      }).expect(200);
      expect(noShow.body.data.attendance).toEqual({
        status: 'no_show',
        start_datetime: `${d} 10:00`,
        end_datetime: `${d} 14:00`,
        minutes: 0,
        note: 'Phoned in sick',
        recorded_by: userBase('boss'),
        recorded_at: expect.stringMatching(ISO),
      });
      expect(noShow.body.data.attendance.recorded_at >= worked.body.data.attendance.recorded_at).toBe(true);
    },
  );

  it(
    'refuses the worked times: more than 12 hours from the shift’s start or end, an end not after the start ' +
      '(422 naming the field), a malformed time or one the clocks skip (422), nothing written',
    async () => {
      const d = plusDays(today, -4);
      const shift = await book('boss', 'shop', 'vol', `${d} 10:00`, `${d} 14:00`);
      const attended = (more: object) => () => record('boss', shift.id, { status: 'attended', ...more });
      expect(await fields(attended({ start_datetime: `${plusDays(d, -1)} 21:59` }))).toEqual(['start_datetime']);
      expect(await fields(attended({ end_datetime: `${plusDays(d, 1)} 02:01` }))).toEqual(['end_datetime']);
      expect(
        await fields(attended({ start_datetime: `${plusDays(d, -1)} 21:00`, end_datetime: `${plusDays(d, 1)} 03:00` })),
      ).toEqual(['end_datetime', 'start_datetime']);
      expect(await fields(attended({ start_datetime: `${d} 12:00`, end_datetime: `${d} 12:00` }))).toEqual([
        'end_datetime',
      ]);
      expect(await fields(attended({ start_datetime: `${d} 14:30` }))).toEqual(['end_datetime']);
      expect(await fields(attended({ start_datetime: `${d} 9am`, end_datetime: '2026-02-30 10:00' }))).toEqual([
        'end_datetime',
        'start_datetime',
      ]);
      expect(await fields(attended({ start_datetime: 42 }))).toEqual(['start_datetime']);
      // The last Sunday of March, 01:30 does not exist in London.
      const spring = DateTime.fromObject({ year: Number(d.slice(0, 4)), month: 3, day: 31 }, { zone: 'UTC' });
      const gap = `${spring.minus({ days: spring.weekday % 7 }).toISODate()} 01:30`;
      expect(await fields(attended({ start_datetime: gap }))).toEqual(['start_datetime']);
      // Exactly 12 hours is allowed.
      const edge = await attended({
        start_datetime: `${plusDays(d, -1)} 22:00`,
        end_datetime: `${plusDays(d, 1)} 02:00`,
      })().expect(200);
      expect(edge.body.data.attendance.minutes).toBe(
        realMinutes(`${plusDays(d, -1)} 22:00`, `${plusDays(d, 1)} 02:00`),
      );
    },
  );

  it(
    'refuses the body’s shape first (422: status missing or unknown, note over 1,000 characters, a time not a ' +
      'string), even on a shift the caller may not touch; then 404 and 403',
    async () => {
      const d = plusDays(today, -5);
      const shift = await book('boss', 'shop', 'vol', `${d} 10:00`, `${d} 11:00`);
      const theirs = (
        await http()
          .post('/api/rota/shifts')
          .set(as('other'))
          .send({
            rota: { id: rotas.theirs },
            user: { id: hill.users.other },
            start_datetime: `${d} 10:00`,
            end_datetime: `${d} 11:00`,
          })
          .expect(201)
      ).body.data;
      for (const id of [shift.id, theirs.id]) {
        expect(await fields(() => record('vol2', id, {}))).toEqual(['status']);
        expect(await fields(() => record('vol2', id, { status: 'late' }))).toEqual(['status']);
        expect(await fields(() => record('vol2', id, { status: 'attended', note: 'x'.repeat(1001) }))).toEqual([
          'note',
        ]);
        expect(await fields(() => record('vol2', id, { status: 'attended', end_datetime: 5 }))).toEqual([
          'end_datetime',
        ]);
        // A note of the wrong type, an empty or wrongly typed status, a member the body does not take: 422 as on every route.
        expect(await fields(() => record('vol2', id, { status: 'attended', note: 5 }))).toEqual(['note']);
        expect(await fields(() => record('vol2', id, { status: '' }))).toEqual(['status']);
        expect(await fields(() => record('vol2', id, { status: true }))).toEqual(['status']);
        expect(await fields(() => record('vol2', id, { status: 'attended', minutes: 60 }))).toEqual(['minutes']);
      }
      // A note sent as null is no note.
      expect(
        (await record('boss', shift.id, { status: 'attended', note: null }).expect(200)).body.data.attendance.note,
      ).toBeNull();
      // A note of 1,000 characters is fine.
      expect(
        (await record('boss', shift.id, { status: 'attended', note: 'y'.repeat(1000) }).expect(200)).body.data
          .attendance.note,
      ).toHaveLength(1000);
      // Another organisation's, unknown: 404.
      for (const id of [theirs.id, 99_999_999, 'x'])
        await refused(() => record('boss', id, { status: 'attended' }), 404);
      // A rota the caller does not see; another volunteer's shift: 403.
      await refused(() => record('southvol', shift.id, { status: 'attended' }), 403);
      await refused(() => record('vol2', shift.id, { status: 'attended' }), 403);
    },
  );

  it('a manager recording on a shift that has not started: 422 naming status', async () => {
    const d = plusDays(today, 4);
    const shift = await book('boss', 'shop', 'vol2', `${d} 10:00`, `${d} 11:00`);
    expect(await fields(() => record('boss', shift.id, { status: 'attended' }))).toEqual(['status']);
    expect(await fields(() => record('shifter', shift.id, { status: 'no_show' }))).toEqual(['status']);
    // Clearing nothing is fine at any time.
    expect((await record('boss', shift.id, { status: null }).expect(200)).body.data.attendance).toBeNull();
  });

  it(
    'the volunteer checks in on their own shift from 15 minutes before its start until its end, on a self_manage ' +
      'rota: attended, recorded by them; no_show, a clear or a change of a manager’s record is a 403',
    async () => {
      const [start, end] = soon();
      const shift = await book('boss', 'shop', 'vol', wall(start), wall(end));
      const res = await record('vol', shift.id, { status: 'attended' }).expect(200);
      expect(res.body.data.attendance).toEqual({
        status: 'attended',
        start_datetime: wall(start),
        end_datetime: wall(end),
        minutes: end.diff(start, 'minutes').minutes,
        note: null,
        recorded_by: userBase('vol'),
        recorded_at: expect.stringMatching(ISO),
      });
      // Their own record they may change.
      expect(
        (await record('vol', shift.id, { status: 'attended', note: 'Here early' }).expect(200)).body.data.attendance
          .note,
      ).toBe('Here early');
      await refused(() => record('vol', shift.id, { status: 'no_show' }), 403);
      await refused(() => record('vol', shift.id, { status: null }), 403);
      // A manager may clear a check-in before the shift starts; then records over it once it has.
      await record('shifter', shift.id, { status: null }).expect(200);
      await record('vol', shift.id, { status: 'attended' }).expect(200);
      expect((await record('boss', shift.id, { status: null }).expect(200)).body.data.attendance).toBeNull();
    },
  );

  it('a manager changes a volunteer’s check-in on a started shift: the record is the manager’s, and the volunteer may not change it back (403)', async () => {
    // A shift that started a few minutes ago (or at midnight), inside one local day: the check-in is still open.
    const now = DateTime.now().setZone(ZONE);
    const start = DateTime.max(now.minus({ minutes: 5 }).startOf('minute'), now.startOf('day'));
    const end = DateTime.min(start.plus({ hours: 1 }), now.plus({ days: 1 }).startOf('day'));
    const shift = await book('boss', 'shop', 'vol2', wall(start), wall(end));
    const mine = (await record('vol2', shift.id, { status: 'attended' }).expect(200)).body.data.attendance;
    expect(mine.recorded_by).toEqual(userBase('vol2'));
    const changed = (
      await record('shifter', shift.id, { status: 'attended', end_datetime: wall(end.plus({ minutes: 30 })) }).expect(
        200,
      )
    ).body.data.attendance;
    expect(changed).toEqual(
      expect.objectContaining({ end_datetime: wall(end.plus({ minutes: 30 })), recorded_by: userBase('shifter') }),
    );
    await refused(() => record('vol2', shift.id, { status: 'attended' }), 403);
    await refused(() => record('vol2', shift.id, { status: null }), 403);
    // Read back by the same caller (a user summary's can_manage is judged for the reader).
    expect((await getShift('shifter', shift.id).expect(200)).body.data.attendance).toEqual(changed);
  });

  it(
    'a volunteer on hold checks in on their own shift: a hold stops new bookings, not the record of one ' +
      'already booked (docs/rota-domain.md#attendance)',
    async () => {
      const [start, end] = soon();
      const res = await http()
        .post('/api/rota/shifts')
        .set(as('boss'))
        .send({
          rota: { id: rotas.shop },
          user: { id: org.users.held },
          start_datetime: wall(start),
          end_datetime: wall(end),
          ignore_on_hold: true,
        })
        .expect(201);
      const checkedIn = await record('held', res.body.data.id, { status: 'attended' }).expect(200);
      expect(checkedIn.body.data.attendance).toEqual(
        expect.objectContaining({ status: 'attended', recorded_by: checkedIn.body.data.user }),
      );
      // Still refused what any volunteer is refused.
      await refused(() => record('held', res.body.data.id, { status: 'no_show' }), 403);
    },
  );

  it('a volunteer cannot change what a manager recorded (403), nor check in outside the window (422 naming status)', async () => {
    const past = plusDays(today, -6);
    const done = await book('boss', 'shop', 'vol', `${past} 10:00`, `${past} 11:00`);
    expect(await fields(() => record('vol', done.id, { status: 'attended' }))).toEqual(['status']);
    await record('boss', done.id, { status: 'no_show' }).expect(200);
    await refused(() => record('vol', done.id, { status: 'attended' }), 403);
    await refused(() => record('vol', done.id, { status: null }), 403);

    const later = plusDays(today, 5);
    const ahead = await book('boss', 'shop', 'vol', `${later} 10:00`, `${later} 11:00`);
    expect(await fields(() => record('vol', ahead.id, { status: 'attended' }))).toEqual(['status']);
    // On a rota without self_manage the volunteer may not check in at all.
    const locked = await book('boss', 'locked', 'vol', `${past} 12:00`, `${past} 13:00`);
    await refused(() => record('vol', locked.id, { status: 'attended' }), 403);
    await record('shifter', locked.id, { status: 'attended' }).expect(200);
  });

  it('a cancelled shift is a 404; cancelling one with attendance recorded is a 409, allowed once it is cleared', async () => {
    const d = plusDays(today, -7);
    const shift = await book('boss', 'shop', 'vol2', `${d} 10:00`, `${d} 11:00`);
    await record('shifter', shift.id, { status: 'attended' }).expect(200);
    const conflict = await refused(() => cancel('boss', shift.id), 409);
    expect(conflict).toEqual({ status_code: 409, message: expect.stringContaining('Attendance is recorded') });
    await refused(() => cancel('shifter', shift.id), 409);
    await record('shifter', shift.id, { status: null }).expect(200);
    await cancel('boss', shift.id).expect(204);
    await refused(() => record('boss', shift.id, { status: 'attended' }), 404);
    await refused(() => record('boss', shift.id, { status: null }), 404);
    await refused(() => getShift('boss', shift.id), 404);
  });

  it('moving a shift after attendance keeps the record as it is (its worked times do not move)', async () => {
    const [d, e] = [plusDays(today, -8), plusDays(today, -9)];
    const shift = await book('boss', 'shop', 'vol2', `${d} 10:00`, `${d} 11:00`);
    const recorded = (await record('boss', shift.id, { status: 'attended', end_datetime: `${d} 11:30` }).expect(200))
      .body.data.attendance;
    const moved = await http()
      .put(`/api/rota/shifts/${shift.id}`)
      .set(as('boss'))
      .send({ start_datetime: `${e} 14:00`, end_datetime: `${e} 16:00`, edit_mode: 'single' })
      .expect(200);
    expect(moved.body.data).toEqual(
      expect.objectContaining({ start_datetime: `${e} 14:00`, end_datetime: `${e} 16:00`, attendance: recorded }),
    );
    expect(recorded).toEqual(
      expect.objectContaining({ start_datetime: `${d} 10:00`, end_datetime: `${d} 11:30`, minutes: 90 }),
    );
    expect((await getShift('boss', shift.id).expect(200)).body.data.attendance).toEqual(recorded);
  });

  it('worked times across the autumn night count real minutes: 00:30–03:30 on the night the clocks go back is 240', async () => {
    const shift = await book('boss', 'shop', 'vol2', `${autumn} 00:30`, `${autumn} 03:30`);
    const res = await record('boss', shift.id, { status: 'attended' }).expect(200);
    expect(res.body.data.attendance).toEqual(
      expect.objectContaining({ start_datetime: `${autumn} 00:30`, end_datetime: `${autumn} 03:30`, minutes: 240 }),
    );
    // 01:30 happens twice: the wall clock is the earlier, the ISO instant with Z the later (an hour of real time).
    const again = await record('boss', shift.id, {
      status: 'attended',
      start_datetime: `${autumn} 01:30`,
      end_datetime: `${autumn}T01:30:00Z`,
    }).expect(200);
    expect(again.body.data.attendance).toEqual(
      expect.objectContaining({ start_datetime: `${autumn} 01:30`, end_datetime: `${autumn} 01:30`, minutes: 60 }),
    );
  });
});
