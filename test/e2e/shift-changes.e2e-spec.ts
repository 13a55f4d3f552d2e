import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { eventually } from '../support/eventually.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, hillsideFile, logIn, logInAll, provision, userFile } from '../support/test-app.js';
import { eventCount, expectRefused, refusedFields } from '../support/nothing-written.js';

const ZONE = 'Europe/London';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const SHORT = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const NEXT = Object.fromEntries(WEEKDAYS.map((d, i) => [d, WEEKDAYS[(i + 1) % 7]!]));
const plusDays = (date: string, n: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days: n }).toISODate()!;
const weekdayOf = (date: string) => SHORT[DateTime.fromISO(date, { zone: 'UTC' }).weekday - 1]!;

type Shift = {
  id: number;
  date: string;
  start_datetime: string;
  end_datetime: string;
  recurrence_pattern: { id: number; recurrence_frequency: number; end_date: string | null } | null;
};

/**
 * Changes of booked shifts over HTTP (docs/rota-domain.md#editing-a-shift, #cancelling; the
 * same-day rules are docs/rota-domain.md#booking-rules, rule 8): update single and recurring
 * (series retimed, split, ended, started), cancel a shift, cancel a repeating shift, get a
 * repeating shift; the 404/403 before the rules, the booking rules on the new times, rule 8 for a
 * volunteer's own shift (same day, overnight, past) and the managers who are not bound by it;
 * nothing written by any refusal. Later occurrences of a series are booked by the worker: the tests
 * wait for it.
 */
describe('shift changes (docs/rota-domain.md#editing-a-shift, #cancelling, #repeating-shifts)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let org: ProvisionResult;
  let hill: ProvisionResult;
  const rotas: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  const today = todayIn(ZONE);
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const seriesUsers = ['s1', 's2', 's3', 's4', 's5', 's6', 's7'];
  const user = (key: string, permissions: string[], teams: string[], domain?: string) =>
    userFile(key, permissions, teams, { name: `${key} name`, domain });
  const refused = (send: () => request.Test, status: number) => expectRefused(ds, send, status);
  const fields = (send: () => request.Test) => refusedFields(ds, send);
  const lastEvent = async (stream: string) =>
    (
      await ds.query(`SELECT type, data FROM events WHERE stream_id = $1 ORDER BY stream_version DESC LIMIT 1`, [
        stream,
      ])
    )[0] as { type: string; data: Record<string, unknown> };

  /** Books a shift (as `who`, for `userKey`) and answers it. */
  async function book(
    who: string,
    rota: string,
    userKey: string,
    start: string,
    end: string,
    recurrence?: object,
  ): Promise<Shift> {
    const res = await http()
      .post('/api/rota/shifts')
      .set(as(who))
      .send({
        rota: { id: rotas[rota] },
        user: { id: org.users[userKey] },
        start_datetime: start,
        end_datetime: end,
        ...(recurrence && {
          recurrence_pattern: { recurrence_period: 'week', recurrence_frequency: 1, ...recurrence },
        }),
      });
    expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.anything() });
    return res.body.data;
  }
  const put = (who: string, id: number | string, body: object) =>
    http().put(`/api/rota/shifts/${id}`).set(as(who)).send(body);
  const move = (who: string, id: number | string, start: string, end: string, more: object = {}) =>
    put(who, id, { start_datetime: start, end_datetime: end, edit_mode: 'single', ...more });
  const cancel = (who: string, id: number | string) => http().delete(`/api/rota/shifts/${id}`).set(as(who));
  const cancelSeries = (who: string, id: number | string) =>
    http().delete(`/api/rota/repeating-shifts/${id}`).set(as(who));
  const getSeries = (who: string, id: number | string) => http().get(`/api/rota/repeating-shifts/${id}`).set(as(who));
  const getShift = (who: string, id: number) => http().get(`/api/rota/shifts/${id}`).set(as(who));
  /** The booked shifts of a user on a rota over a range, by start. */
  const shiftsOf = async (userKey: string, rota: string, from: string, to: string): Promise<Shift[]> =>
    (
      await http()
        .get(
          `/api/rota/shifts?users=${org.users[userKey]}&rotas=${rotas[rota]}&start_date=${from}&end_date=${to}&per_page=100`,
        )
        .set(as('boss'))
        .expect(200)
    ).body.data;
  /** Waits until the worker has generated the series up to `until`. */
  const generated = (seriesId: number, until: string) =>
    eventually(async () => (await getSeries('boss', seriesId).expect(200)).body.data.generated_until === until, 20_000);
  /** A weekly series booked by the manager from `start` until `last` (its end_date), once the worker has booked it all: its first shift and id. */
  async function weekly(
    rota: string,
    userKey: string,
    start: string,
    end: string,
    last: string,
  ): Promise<{ first: Shift; id: number }> {
    const first = await book('boss', rota, userKey, start, end, { end_date: last });
    await generated(first.recurrence_pattern!.id, last);
    return { first, id: first.recurrence_pattern!.id };
  }
  const times = (list: Shift[]) => list.map((s) => `${s.start_datetime}–${s.end_datetime.slice(11)}`);

  /** 00:00–23:59 every day: the same-day rules hold at any hour the suite runs. */
  const allDay = WEEKDAYS.map((d) => ({
    weekday_start: d,
    start_time: '00:00',
    weekday_end: d,
    end_time: '23:59',
    min: 1,
    ideal: 1,
    max: 5,
  }));
  /** 20:00 → 08:00 the next day, every day: overnight shifts. */
  const nights = WEEKDAYS.map((d) => ({
    weekday_start: d,
    start_time: '20:00',
    weekday_end: NEXT[d],
    end_time: '08:00',
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

  // Later today, still ahead of now in the zone: the same-day cases run only when the suite starts before 23:30 local.
  const now = DateTime.now().setZone(ZONE);
  const soon = now.plus({ minutes: 10 }).startOf('minute');
  const sameDay = soon.plus({ minutes: 20 }).toISODate() === today && soon.hour < 23;
  const wall = (t: DateTime) => t.toFormat('yyyy-LL-dd HH:mm');

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
        { key: 'cafe', name: 'Cafe', parent: 'north' },
        { key: 'night', name: 'Night', parent: 'north' },
        { key: 'locked', name: 'Locked', parent: 'north' },
        { key: 'series', name: 'Series', parent: 'north' },
        { key: 'south', name: 'South' },
      ],
      users: [
        user('boss', ['manage-rotas'], ['north']),
        user('shifter', ['add-user-shifts'], ['north']),
        user('vol', [], ['shop', 'cafe', 'night', 'locked', 'series']),
        user('vol2', [], ['shop', 'series']),
        user('southvol', [], ['south']),
        ...seriesUsers.map((k) => user(k, [], ['series', 'locked'])),
      ],
    });
    hill = await provision(
      app,
      hillsideFile([user('other', ['manage-rotas'], ['t'], 'hillside')], { timezone: ZONE, features: [] }),
    );
    Object.assign(tokens, await logInAll(app, ['boss', 'shifter', 'vol', 'vol2', 'southvol', ...seriesUsers]));
    tokens.other = await logIn(app, 'other@hillside.example');
    rotas.shop = await seedRota('boss', org.teams.shop!, 'Shop', allDay);
    rotas.cafe = await seedRota('boss', org.teams.cafe!, 'Cafe', allDay, {
      allow_same_day_edit: true,
      allow_same_day_cancel: true,
    });
    rotas.night = await seedRota('boss', org.teams.night!, 'Night', nights, {
      allow_same_day_edit: true,
      allow_same_day_cancel: true,
    });
    rotas.locked = await seedRota('boss', org.teams.locked!, 'Locked', allDay, { self_manage: false });
    rotas.series = await seedRota('boss', org.teams.series!, 'Series', allDay);
    rotas.theirs = await seedRota('other', hill.teams.t!, 'Theirs', allDay);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  describe('update', () => {
    it(
      'a volunteer moves their own shift on a self-managed rota: 200 { data: Shift } with the new times; ' +
        'ShiftMoved with sequence 1 and the times it had',
      async () => {
        const [d, e] = [plusDays(today, 10), plusDays(today, 11)];
        const booked = await book('boss', 'shop', 'vol', `${d} 09:00`, `${d} 10:00`);
        const res = await move('vol', booked.id, `${e} 11:00`, `${e} 12:30`).expect(200);
        expect(res.body).toEqual({
          data: {
            ...booked,
            date: e,
            start_time: '11:00',
            start_datetime: `${e} 11:00`,
            end_time: '12:30',
            end_datetime: `${e} 12:30`,
          },
        });
        expect((await getShift('vol2', booked.id).expect(200)).body).toEqual(res.body);
        expect(await lastEvent(`rotas.Shift-${booked.id}`)).toEqual({
          type: 'rotas.ShiftMoved',
          data: expect.objectContaining({
            id: booked.id,
            date: e,
            startWall: `${e} 11:00`,
            endWall: `${e} 12:30`,
            sequence: 1,
            was: expect.objectContaining({ date: d, startWall: `${d} 09:00` }),
          }),
        });
        // The same times again: 200, nothing recorded.
        const before = await eventCount(ds);
        expect((await move('vol', booked.id, `${e} 11:00`, `${e} 12:30`).expect(200)).body).toEqual(res.body);
        expect(await eventCount(ds)).toBe(before);
      },
    );

    it(
      'refuses before the rules: another organisation’s, unknown or cancelled shift 404; a rota the caller ' +
        'does not see 403; another user’s shift 403 unless a manager; one’s own on a rota without ' +
        'self_manage 403',
      async () => {
        const d = plusDays(today, 12);
        const theirs = (
          await http()
            .post('/api/rota/shifts')
            .set(as('other'))
            .send({
              rota: { id: rotas.theirs },
              user: { id: hill.users.other },
              start_datetime: `${d} 09:00`,
              end_datetime: `${d} 10:00`,
            })
            .expect(201)
        ).body.data;
        const mine = await book('boss', 'shop', 'vol', `${d} 09:00`, `${d} 10:00`);
        const body = { start_datetime: `${d} 10:00`, end_datetime: `${d} 11:00`, edit_mode: 'single' };
        for (const id of [theirs.id, 99_999_999, 'x']) {
          await refused(() => put('vol', id, body), 404);
          await refused(() => cancel('vol', id), 404);
        }
        await refused(() => put('southvol', mine.id, body), 403);
        await refused(() => cancel('southvol', mine.id), 403);
        await refused(() => put('vol2', mine.id, body), 403);
        await refused(() => cancel('vol2', mine.id), 403);
        expect((await put('shifter', mine.id, body).expect(200)).body.data.start_datetime).toBe(`${d} 10:00`);

        const locked = await book('boss', 'locked', 'vol', `${d} 12:00`, `${d} 13:00`);
        await refused(() => move('vol', locked.id, `${d} 13:00`, `${d} 14:00`), 403);
        await refused(() => cancel('vol', locked.id), 403);
        await move('boss', locked.id, `${d} 13:00`, `${d} 14:00`).expect(200);
        await cancel('shifter', locked.id).expect(204);
        // Cancelled: 404 on every route.
        await refused(() => move('boss', locked.id, `${d} 13:00`, `${d} 14:00`), 404);
        await refused(() => cancel('boss', locked.id), 404);
        await refused(() => getShift('boss', locked.id), 404);
      },
    );

    it(
      'checks the new times as a booking (outside every timeslot, over another shift of the user, ' +
        'malformed) and the body (edit_mode, a pattern with single): 422s naming the field',
      async () => {
        const d = plusDays(today, 13);
        const first = await book('boss', 'night', 'vol', `${d} 20:00`, `${d} 22:00`);
        await book('boss', 'shop', 'vol', `${d} 23:00`, `${d} 23:30`);
        expect(await fields(() => move('vol', first.id, `${d} 19:00`, `${d} 22:00`))).toEqual(['start_datetime']);
        expect(await fields(() => move('vol', first.id, `${d} 22:00`, `${plusDays(d, 1)} 01:00`))).toEqual([
          'start_datetime',
        ]);
        expect(await fields(() => move('vol', first.id, 'soon', `${d} 22:00`))).toEqual(['start_datetime']);
        expect(await fields(() => move('vol', first.id, `${d} 22:00`, `${d} 21:00`))).toEqual(['end_datetime']);
        expect(
          await fields(() => put('vol', first.id, { start_datetime: `${d} 20:30`, end_datetime: `${d} 22:00` })),
        ).toEqual(['edit_mode']);
        expect(
          await fields(() =>
            put('vol', first.id, { start_datetime: `${d} 20:30`, end_datetime: `${d} 22:00`, edit_mode: 'all' }),
          ),
        ).toEqual(['edit_mode']);
        expect(
          await fields(() =>
            move('vol', first.id, `${d} 20:30`, `${d} 22:00`, {
              recurrence_pattern: { recurrence_period: 'week', recurrence_frequency: 1 },
            }),
          ),
        ).toEqual(['recurrence_pattern']);
        expect(
          await fields(() =>
            put('vol', first.id, {
              start_datetime: `${d} 20:30`,
              end_datetime: `${d} 22:00`,
              edit_mode: 'recurring',
              recurrence_pattern: { recurrence_period: 'month', recurrence_frequency: 1 },
            }),
          ),
        ).toEqual(['recurrence_pattern.recurrence_period']);
        // Overnight into the next morning, clear of the other shift: allowed.
        expect(
          (await move('vol', first.id, `${d} 23:30`, `${plusDays(d, 1)} 07:00`).expect(200)).body.data.end_datetime,
        ).toBe(`${plusDays(d, 1)} 07:00`);
      },
    );

    it(
      'rule 8: a volunteer edits their own shift today only with allow_same_day_edit, never a started one, ' +
        'never an overnight one on its start date; managers are not bound',
      async () => {
        const yesterday = plusDays(today, -1);
        const past = await book('boss', 'cafe', 'vol', `${yesterday} 09:00`, `${yesterday} 10:00`);
        expect(
          await fields(() => move('vol', past.id, `${plusDays(today, 14)} 09:00`, `${plusDays(today, 14)} 10:00`)),
        ).toEqual(['start_datetime']);
        await move('boss', past.id, `${yesterday} 10:00`, `${yesterday} 11:00`).expect(200);
        if (!sameDay) return;
        const later = soon.plus({ minutes: 10 });
        // Shop: no same-day edits. Its shift today cannot be edited, nor another moved onto today.
        const todays = await book('boss', 'shop', 'vol', wall(soon), wall(later));
        expect(await fields(() => move('vol', todays.id, wall(soon.plus({ minutes: 1 })), wall(later)))).toEqual([
          'start_datetime',
        ]);
        const future = await book(
          'boss',
          'shop',
          'vol',
          `${plusDays(today, 14)} 12:00`,
          `${plusDays(today, 14)} 13:00`,
        );
        expect(
          await fields(() =>
            move('vol', future.id, wall(later.plus({ minutes: 1 })), wall(later.plus({ minutes: 5 }))),
          ),
        ).toEqual(['start_datetime']);
        await move('shifter', todays.id, wall(soon.plus({ minutes: 1 })), wall(later)).expect(200);
        // Cafe allows it.
        const cafe = await book(
          'boss',
          'cafe',
          'vol',
          wall(later.plus({ minutes: 10 })),
          wall(later.plus({ minutes: 15 })),
        );
        await move('vol', cafe.id, wall(later.plus({ minutes: 11 })), wall(later.plus({ minutes: 15 }))).expect(200);
        // Night allows it, but an overnight shift is never edited on its start date.
        const start = soon.hour >= 20 ? soon.plus({ minutes: 30 }) : soon.set({ hour: 20, minute: 30 });
        if (start.toISODate() !== today) return;
        const overnight = await book('boss', 'night', 'vol', wall(start), `${plusDays(today, 1)} 06:00`);
        expect(await fields(() => move('vol', overnight.id, wall(start), `${plusDays(today, 1)} 05:00`))).toEqual([
          'start_datetime',
        ]);
        await move('boss', overnight.id, wall(start), `${plusDays(today, 1)} 05:00`).expect(200);
        await cancel('boss', overnight.id).expect(204);
      },
    );
  });

  describe('repeating shifts', () => {
    it('single takes the shift out of its series: recurrence_pattern null afterwards, the series and its other occurrences as they were', async () => {
      const d = plusDays(today, 20);
      const { first, id: seriesId } = await weekly('series', 's1', `${d} 09:00`, `${d} 10:00`, plusDays(d, 7));
      const res = await move('s1', first.id, `${d} 10:00`, `${d} 11:00`).expect(200);
      expect(res.body.data).toEqual(
        expect.objectContaining({ start_datetime: `${d} 10:00`, recurrence_pattern: null }),
      );
      expect(await lastEvent(`rotas.Shift-${first.id}`)).toEqual({
        type: 'rotas.ShiftSeriesChanged',
        data: { id: first.id, organisationId: org.organisation.id, seriesId: null },
      });
      const [, second] = await shiftsOf('s1', 'series', d, plusDays(d, 7));
      expect(second).toEqual(
        expect.objectContaining({
          start_datetime: `${plusDays(d, 7)} 09:00`,
          recurrence_pattern: expect.objectContaining({ id: seriesId }),
        }),
      );
    });

    it('recurring gives this and every later occurrence the new times of day (earlier ones and those edited alone stay); its date cannot change', async () => {
      const d = plusDays(today, 21);
      const last = plusDays(d, 28);
      const { id: seriesId } = await weekly('series', 's2', `${d} 09:00`, `${d} 12:00`, last);
      const occurrences = await shiftsOf('s2', 'series', d, last);
      expect(occurrences.map((s) => s.date)).toEqual([0, 7, 14, 21, 28].map((n) => plusDays(d, n)));
      // The fourth is moved on its own first: it leaves the series.
      await move('s2', occurrences[3]!.id, `${plusDays(d, 21)} 07:00`, `${plusDays(d, 21)} 08:00`).expect(200);
      const second = occurrences[1]!;
      expect(
        await fields(() =>
          put('s2', second.id, {
            start_datetime: `${plusDays(d, 8)} 10:00`,
            end_datetime: `${plusDays(d, 8)} 13:00`,
            edit_mode: 'recurring',
          }),
        ),
      ).toEqual(['start_datetime']);
      const res = await put('s2', second.id, {
        start_datetime: `${second.date} 10:00`,
        end_datetime: `${second.date} 13:30`,
        edit_mode: 'recurring',
      }).expect(200);
      expect(res.body.data).toEqual(
        expect.objectContaining({
          start_datetime: `${second.date} 10:00`,
          end_datetime: `${second.date} 13:30`,
          recurrence_pattern: expect.objectContaining({ id: seriesId }),
        }),
      );
      expect(times(await shiftsOf('s2', 'series', d, last))).toEqual([
        `${d} 09:00–12:00`,
        `${plusDays(d, 7)} 10:00–13:30`,
        `${plusDays(d, 14)} 10:00–13:30`,
        `${plusDays(d, 21)} 07:00–08:00`,
        `${plusDays(d, 28)} 10:00–13:30`,
      ]);
      expect(await lastEvent(`rotas.RepeatingShift-${seriesId}`)).toEqual({
        type: 'rotas.RepeatingShiftRetimed',
        data: {
          id: seriesId,
          organisationId: org.organisation.id,
          from: second.date,
          startTime: '10:00',
          endTime: '13:30',
          dayOffset: 0,
        },
      });
    });

    it(
      'recurring with another pattern splits the series: the old one ends the day before, its later ' +
        'occurrences are cancelled, the new one starts here and the worker books it',
      async () => {
        const d = plusDays(today, 22);
        const last = plusDays(d, 28);
        const { id: oldId } = await weekly('series', 's3', `${d} 09:00`, `${d} 10:00`, last);
        const [, second, third] = await shiftsOf('s3', 'series', d, last);
        const res = await put('s3', second!.id, {
          start_datetime: `${second!.date} 11:00`,
          end_datetime: `${second!.date} 12:00`,
          edit_mode: 'recurring',
          recurrence_pattern: { recurrence_period: 'week', recurrence_frequency: 2, end_date: last },
        }).expect(200);
        const newSeries = res.body.data.recurrence_pattern;
        expect(newSeries).toEqual(
          expect.objectContaining({ recurrence_frequency: 2, end_date: last, [weekdayOf(d)]: 1 }),
        );
        expect(newSeries.id).not.toBe(oldId);
        expect((await getSeries('s3', oldId).expect(200)).body.data).toEqual(
          expect.objectContaining({ end_date: `${plusDays(d, 6)} 23:59:59` }),
        );
        // The worker books the new series meanwhile: the refusal's nothing-written check waits for it.
        await generated(newSeries.id, last);
        await refused(() => getShift('s3', third!.id), 404);
        expect(times(await shiftsOf('s3', 'series', d, last))).toEqual([
          `${d} 09:00–10:00`,
          `${plusDays(d, 7)} 11:00–12:00`,
          `${plusDays(d, 21)} 11:00–12:00`,
        ]);
        expect(
          (await getShift('s3', (await shiftsOf('s3', 'series', plusDays(d, 21), plusDays(d, 21)))[0]!.id).expect(200))
            .body.data.recurrence_pattern.id,
        ).toBe(newSeries.id);
      },
    );

    it(
      "a split keeps the old series' exceptions: a date cancelled alone before the split is not booked " +
        'again by the new series (skipped as series_exception)',
      async () => {
        const d = plusDays(today, 50);
        const last = plusDays(d, 28);
        await weekly('series', 's7', `${d} 09:00`, `${d} 10:00`, last);
        const [, second, , fourth] = await shiftsOf('s7', 'series', d, last);
        await cancel('boss', fourth!.id).expect(204);
        const res = await put('boss', second!.id, {
          start_datetime: `${second!.date} 11:00`,
          end_datetime: `${second!.date} 12:00`,
          edit_mode: 'recurring',
          // A later end than the series': another pattern, so a split (the same pattern would retime it).
          recurrence_pattern: { recurrence_period: 'week', recurrence_frequency: 1, end_date: plusDays(last, 7) },
        }).expect(200);
        const newSeries = res.body.data.recurrence_pattern.id;
        await generated(newSeries, plusDays(last, 7));
        expect(times(await shiftsOf('s7', 'series', d, plusDays(last, 7)))).toEqual([
          `${d} 09:00–10:00`,
          `${plusDays(d, 7)} 11:00–12:00`,
          `${plusDays(d, 14)} 11:00–12:00`,
          `${plusDays(d, 28)} 11:00–12:00`,
          `${plusDays(d, 35)} 11:00–12:00`,
        ]);
        expect((await getSeries('boss', newSeries).expect(200)).body.data.skipped).toEqual([
          { date: plusDays(d, 21), reason: 'series_exception' },
        ]);
      },
    );

    it('recurring with recurrence_pattern null ends the series at this shift: later occurrences cancelled, this one its last', async () => {
      const d = plusDays(today, 23);
      const last = plusDays(d, 14);
      const { id: seriesId } = await weekly('series', 's4', `${d} 09:00`, `${d} 10:00`, last);
      const [, second] = await shiftsOf('s4', 'series', d, last);
      const res = await put('s4', second!.id, {
        start_datetime: `${second!.date} 09:00`,
        end_datetime: `${second!.date} 10:00`,
        edit_mode: 'recurring',
        recurrence_pattern: null,
      }).expect(200);
      expect(res.body.data.recurrence_pattern).toEqual(
        expect.objectContaining({ id: seriesId, end_date: second!.date }),
      );
      expect((await shiftsOf('s4', 'series', d, last)).map((s) => s.date)).toEqual([d, plusDays(d, 7)]);
      expect(await lastEvent(`rotas.RepeatingShift-${seriesId}`)).toEqual({
        type: 'rotas.RepeatingShiftEnded',
        data: {
          id: seriesId,
          organisationId: org.organisation.id,
          endDate: second!.date,
          until: second!.date,
          reason: 'ended',
        },
      });
    });

    it('recurring with a pattern on a shift of no series makes it the first occurrence of a new one, which the worker books', async () => {
      const d = plusDays(today, 24);
      const last = plusDays(d, 14);
      const lone = await book('boss', 'series', 's5', `${d} 09:00`, `${d} 10:00`);
      const res = await put('s5', lone.id, {
        start_datetime: `${d} 09:30`,
        end_datetime: `${d} 10:30`,
        edit_mode: 'recurring',
        recurrence_pattern: { recurrence_period: 'week', recurrence_frequency: 1, end_date: last },
      }).expect(200);
      const seriesId = res.body.data.recurrence_pattern.id;
      await generated(seriesId, last);
      expect(times(await shiftsOf('s5', 'series', d, last))).toEqual([
        `${d} 09:30–10:30`,
        `${plusDays(d, 7)} 09:30–10:30`,
        `${plusDays(d, 14)} 09:30–10:30`,
      ]);
    });

    it('cancel a shift of a series: only that one (204, then 404); a volunteer cancels their own future shift', async () => {
      const d = plusDays(today, 25);
      const last = plusDays(d, 7);
      const { first } = await weekly('series', 's6', `${d} 09:00`, `${d} 10:00`, last);
      await cancel('s6', first.id).expect(204);
      expect(await lastEvent(`rotas.Shift-${first.id}`)).toEqual({
        type: 'rotas.ShiftCancelled',
        data: {
          id: first.id,
          organisationId: org.organisation.id,
          rotaId: rotas.series,
          userId: org.users.s6,
          date: d,
          reason: 'cancelled',
          sequence: 1,
        },
      });
      await refused(() => getShift('s6', first.id), 404);
      await refused(() => cancel('s6', first.id), 404);
      expect((await shiftsOf('s6', 'series', d, last)).map((s) => s.date)).toEqual([last]);
    });

    it(
      'GET a repeating shift: the interface’s object with generated_until and skipped, for whoever sees the ' +
        'rota (403 otherwise, 404 another organisation’s or unknown)',
      async () => {
        const d = plusDays(today, 26);
        // Open-ended, no weekday chosen: the first shift's weekday is stored; booked six months ahead.
        const series = await book('boss', 'series', 's7', `${d} 08:00`, `${d} 09:15`, {});
        const id = series.recurrence_pattern!.id;
        const horizon = DateTime.fromISO(d, { zone: 'UTC' }).plus({ months: 6 }).toISODate()!;
        await generated(id, horizon);
        const res = await getSeries('vol2', id).expect(200);
        expect(res.body).toEqual({
          data: {
            id,
            user_id: org.users.s7,
            rota_id: rotas.series,
            hierarchy_id: org.teams.series,
            period: 'week',
            frequency: 1,
            start_date: `${d} 08:00:00`,
            end_date: null,
            ...Object.fromEntries(SHORT.map((w) => [w, w === weekdayOf(d) ? 1 : 0])),
            generated_until: horizon,
            skipped: [],
          },
        });
        await refused(() => getSeries('southvol', id), 403);
        await refused(() => getSeries('other', id), 404);
        await refused(() => getSeries('vol', 99_999_999), 404);
        // The cancel of a repeating shift, by someone who may not: another volunteer 403; another organisation 404.
        await refused(() => cancelSeries('vol2', id), 403);
        await refused(() => cancelSeries('southvol', id), 403);
        await refused(() => cancelSeries('other', id), 404);
        await refused(() => cancelSeries('vol', 99_999_999), 404);
      },
    );

    it('cancel a repeating shift: every occurrence not started is cancelled and the series ends today; again: 204, nothing recorded', async () => {
      const d = plusDays(today, 27);
      const last = plusDays(d, 21);
      const { first, id } = await weekly('series', 's1', `${d} 14:00`, `${d} 15:00`, last);
      // s1 has a shift of another series on the first date: only this series' count.
      const ofThis = async () =>
        (await shiftsOf('s1', 'series', d, last)).filter((s) => s.recurrence_pattern?.id === id);
      expect(await ofThis()).toHaveLength(4);
      await cancelSeries('s1', id).expect(204);
      expect(await ofThis()).toEqual([]);
      expect((await getSeries('s1', id).expect(200)).body.data).toEqual(
        expect.objectContaining({ end_date: `${today} 23:59:59` }),
      );
      const [{ reason }] = await ds.query(
        `SELECT data->>'reason' AS reason FROM events WHERE stream_id = $1 ORDER BY stream_version DESC LIMIT 1`,
        [`rotas.Shift-${first.id}`],
      );
      expect(reason).toBe('series_cancelled');
      const before = await eventCount(ds);
      await cancelSeries('s1', id).expect(204);
      expect(await eventCount(ds)).toBe(before);
    });

    it('cancel a repeating shift on a rota without self_manage: its volunteer 403, a manager 204', async () => {
      const d = plusDays(today, 28);
      const { id } = await weekly('locked', 's2', `${d} 14:00`, `${d} 15:00`, plusDays(d, 7));
      await refused(() => cancelSeries('s2', id), 403);
      await cancelSeries('shifter', id).expect(204);
      expect(await shiftsOf('s2', 'locked', d, plusDays(d, 7))).toEqual([]);
    });

    it('cancel a repeating shift by its volunteer keeps today’s occurrence without allow_same_day_cancel; a manager’s cancel takes it', async () => {
      if (!sameDay) return;
      const last = plusDays(today, 7);
      const { first, id } = await weekly('series', 's3', wall(soon), wall(soon.plus({ minutes: 5 })), last);
      await cancelSeries('s3', id).expect(204);
      expect((await shiftsOf('s3', 'series', today, last)).map((s) => s.id)).toEqual([first.id]);
      await cancelSeries('boss', id).expect(204);
      expect(await shiftsOf('s3', 'series', today, last)).toEqual([]);
    });
  });

  describe('cancel', () => {
    it(
      'rule 8: a volunteer cancels their own shift today only with allow_same_day_cancel, never a started ' +
        'one, never an overnight one on its start date; managers are not bound',
      async () => {
        const yesterday = plusDays(today, -1);
        const past = await book('boss', 'cafe', 'vol', `${yesterday} 12:00`, `${yesterday} 13:00`);
        expect(await fields(() => cancel('vol', past.id))).toEqual(['start_datetime']);
        await cancel('boss', past.id).expect(204);
        if (!sameDay) return;
        const later = soon.plus({ minutes: 10 });
        const shop = await book(
          'boss',
          'shop',
          'vol',
          wall(later.plus({ minutes: 5 })),
          wall(later.plus({ minutes: 8 })),
        );
        expect(await fields(() => cancel('vol', shop.id))).toEqual(['start_datetime']);
        await cancel('shifter', shop.id).expect(204);
        const cafe = await book(
          'boss',
          'cafe',
          'vol',
          wall(later.plus({ minutes: 9 })),
          wall(later.plus({ minutes: 10 })),
        );
        await cancel('vol', cafe.id).expect(204);
        // Clear of the edit tests' shifts of vol today (the cafe one ends at soon + 25 minutes): from 19:50
        // on, soon + 22 overlapped it and rule 6 refused the booking.
        const start = soon.hour >= 20 ? later.plus({ minutes: 20 }) : soon.set({ hour: 21, minute: 0 });
        if (start.toISODate() !== today) return;
        const overnight = await book('boss', 'night', 'vol', wall(start), `${plusDays(today, 1)} 07:30`);
        expect(await fields(() => cancel('vol', overnight.id))).toEqual(['start_datetime']);
        await cancel('boss', overnight.id).expect(204);
      },
    );
  });
});
