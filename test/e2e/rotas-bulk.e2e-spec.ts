import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ProjectionReplayer } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, logInAll, provision, userFile } from '../support/test-app.js';
import { eventCount, expectRefused, tableChecksums } from '../support/nothing-written.js';

const ZONE = 'Europe/London';
interface Slot {
  weekday_start: string;
  start_time: string;
  weekday_end: string;
  end_time: string;
  min: number;
  ideal: number;
  max: number;
}
type RotaTimeslot = Slot & { id: number };
const slot = (weekday_start: string, start_time: string, weekday_end: string, end_time: string): Slot => ({
  weekday_start,
  start_time,
  weekday_end,
  end_time,
  min: 1,
  ideal: 2,
  max: 3,
});
/** A calendar date `days` later (earlier when negative). */
const addDays = (date: string, days: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate()!;
const streamOf = { rota: (id: number) => `rotas.Rota-${id}` };

/**
 * `POST /api/rotas/bulk` and `POST /api/rotas/replace` over HTTP
 * (docs/rota-domain.md#bulk-actions, #replace): each action's effect read back from the `rotas` and
 * `rota_contacts` tables, and every refusal all or nothing (no event written, no row changed).
 */
describe('rota bulk actions and replace (docs/rota-domain.md#bulk-actions, #replace)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let org: ProvisionResult;
  let hill: ProvisionResult;
  let today: string;
  const tokens: Record<string, string> = {};
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const bulk = (who: string, body: object) => http().post('/api/rotas/bulk').set(as(who)).send(body);
  const replace = (who: string, body: object) => http().post('/api/rotas/replace').set(as(who)).send(body);
  /** Every row of the context's rota tables: a refusal leaves it as it was. */
  const tables = () => tableChecksums(ds, ['rotas', 'rota_contacts']);
  /** A refused request: its status, and nothing written (no event, the rota tables as they were). */
  const refused = (send: () => request.Test, status: number) =>
    expectRefused(ds, send, status, ['rotas', 'rota_contacts']);
  const rows = async (ids: number[]) =>
    (await ds.query(
      `SELECT id::int, name, pattern_id::int, to_char(start_date, 'YYYY-MM-DD') AS start_date,
              to_char(end_date, 'YYYY-MM-DD') AS end_date, archived, closed_dates, timeline
         FROM rotas WHERE id = ANY($1) ORDER BY id`,
      [ids],
    )) as {
      id: number;
      name: string;
      pattern_id: number;
      start_date: string;
      end_date: string | null;
      archived: boolean;
      closed_dates: string[];
      timeline: { from: string; to: string | null; timeslots: RotaTimeslot[] }[];
    }[];
  const row = async (id: number) => (await rows([id]))[0]!;

  /** A shift pattern made over HTTP by `who` (archived with its DELETE when asked). */
  async function seedPattern(who: string, slots: Slot[], archived = false): Promise<number> {
    const res = await http()
      .post('/api/shift-patterns')
      .set(as(who))
      .send({ name: `Pattern ${Math.random()}`, pattern: slots })
      .expect(201);
    if (archived) await http().delete(`/api/shift-patterns/${res.body.data.id}`).set(as(who)).expect(204);
    return res.body.data.id;
  }

  /** Team keys `<region>-1` … `<region>-n` under `region`: one rota a team, so the one-rota-per-team rule never ends a test's rota. */
  const children = (region: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ key: `${region}-${i + 1}`, name: `${region} ${i + 1}`, parent: region }));
  const used = new Map<string, number>();
  const patterns: Record<string, number> = {};

  /**
   * A rota made over HTTP (`POST /api/rotas`, by `boss` or, in Hillside, `other`) on a fresh team
   * under `region`, from `start` on, with the organisation's one-timeslot pattern.
   */
  async function seedRota(
    of: ProvisionResult,
    region: string,
    name: string,
    start = addDays(today, -30),
  ): Promise<number> {
    const slug = of.organisation.slug;
    const n = (used.get(`${slug}:${region}`) ?? 0) + 1;
    used.set(`${slug}:${region}`, n);
    const who = of === hill ? 'other' : 'boss';
    const res = await http()
      .post('/api/rotas')
      .set(as(who))
      .send({ name, start_date: start, pattern_id: patterns[slug], team: [{ id: of.teams[`${region}-${n}`] }] })
      .expect(201);
    return res.body.data[0].id;
  }

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    ds = app.get(DataSource);
    today = todayIn(ZONE);
    org = await provision(app, {
      organisation: { name: 'Riverside', slug: 'riverside', timezone: ZONE, features: ['rota_v2'] },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'north-shop', name: 'North shop', parent: 'north' },
        { key: 'south', name: 'South' },
        ...children('north', 20),
        ...children('north-shop', 20),
        ...children('south', 5),
      ],
      users: [
        // Makes the rotas the tests act on, in both regions.
        userFile('boss', ['manage-rotas'], ['north', 'south']),
        // manage-rotas over North and North shop only.
        userFile('admin', ['manage-rotas'], ['north']),
        userFile('shifter', ['add-user-shifts'], ['north-shop']),
        userFile('vol', [], ['north-shop']),
      ],
    });
    hill = await provision(app, {
      organisation: { name: 'Hillside', slug: 'hillside', timezone: ZONE },
      role_profiles: [{ key: 'shop', name: 'P' }],
      teams: [{ key: 't', name: 'T' }, ...children('t', 5)],
      users: [userFile('other', ['manage-rotas'], ['t'], { domain: 'hillside' })],
    });
    Object.assign(tokens, await logInAll(app, ['boss', 'admin', 'shifter', 'vol']));
    tokens.other = await logIn(app, 'other@hillside.example');
    patterns.riverside = await seedPattern('boss', [slot('monday', '09:00', 'monday', '17:00')]);
    patterns.hillside = await seedPattern('other', [slot('monday', '09:00', 'monday', '17:00')]);
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  describe('who may', () => {
    it('a caller without manage-rotas gets a 403 on bulk and replace, whatever the body, and nothing changes', async () => {
      const rota = await seedRota(org, 'north-shop', 'Shop');
      const pattern = await seedPattern('admin', [slot('tuesday', '10:00', 'tuesday', '12:00')]);
      for (const who of ['vol', 'shifter']) {
        await refused(() => bulk(who, { action: 'archive_rotas', rota_ids: [rota] }), 403);
        await refused(() => bulk(who, { nonsense: true }), 403);
        await refused(() => replace(who, { start_date: today, pattern_id: pattern, replace_rotas: [rota] }), 403);
      }
      expect((await row(rota)).archived).toBe(false);
    });

    it(
      'a rota outside the caller’s reach, another organisation’s or an unknown id among good ones is one ' +
        '422 naming rota_ids with those ids, and no rota changes',
      async () => {
        const [a, b] = [await seedRota(org, 'north-shop', 'A'), await seedRota(org, 'north', 'B')];
        const south = await seedRota(org, 'south', 'South');
        const theirs = await seedRota(hill, 't', 'Theirs');
        for (const action of [
          { action: 'end_date', data: { date: addDays(today, 5) } },
          { action: 'name', data: { name: 'Renamed' } },
          { action: 'close', data: { dates: [addDays(today, 3)] } },
          { action: 'reopen', data: { dates: [addDays(today, 3)] } },
          { action: 'archive_rotas' },
          { action: 'add_contacts', data: { user_ids: [org.users.shifter] } },
        ]) {
          const body = await refused(
            () => bulk('admin', { ...action, rota_ids: [a, south, b, theirs, 99_999_999] }),
            422,
          );
          expect(body.errors).toEqual({
            rota_ids: [expect.stringMatching(new RegExp(`: ${south}, ${theirs}, 99999999\\.$`))],
          });
        }
        // The other organisation's own admin cannot reach riverside's rotas either.
        expect(
          (await refused(() => bulk('other', { action: 'archive_rotas', rota_ids: [theirs, a] }), 422)).errors,
        ).toEqual({ rota_ids: [expect.stringMatching(new RegExp(`: ${a}\\.$`))] });
        expect((await rows([a, b])).map((r) => [r.name, r.end_date, r.archived, r.closed_dates])).toEqual([
          ['A', null, false, []],
          ['B', null, false, []],
        ]);
      },
    );

    it('malformed bodies are 422s naming the field: action, rota_ids, data', async () => {
      const rota = await seedRota(org, 'north-shop', 'Shape');
      expect(
        Object.keys((await refused(() => bulk('admin', { action: 'explode', rota_ids: [rota] }), 422)).errors!),
      ).toEqual(['action']);
      expect(
        Object.keys((await refused(() => bulk('admin', { action: 'archive_rotas', rota_ids: [] }), 422)).errors!),
      ).toEqual(['rota_ids']);
      expect(
        Object.keys(
          (
            await refused(
              () => bulk('admin', { action: 'archive_rotas', rota_ids: Array.from({ length: 501 }, () => rota) }),
              422,
            )
          ).errors!,
        ),
      ).toEqual(['rota_ids']);
      expect(
        Object.keys((await refused(() => bulk('admin', { action: 'archive_rotas', rota_ids: ['1'] }), 422)).errors!),
      ).toEqual(['rota_ids']);
      expect(
        Object.keys((await refused(() => bulk('admin', { action: 'name', rota_ids: [rota], data: 'x' }), 422)).errors!),
      ).toEqual(['data']);
      expect(
        Object.keys(
          (
            await refused(
              () => bulk('admin', { action: 'name', rota_ids: [rota], data: { name: 'x', colour: '#000000' } }),
              422,
            )
          ).errors!,
        ),
      ).toEqual(['data.colour']);
      expect(
        Object.keys((await refused(() => bulk('admin', { action: 'name', rota_ids: [rota] }), 422)).errors!),
      ).toEqual(['data.name']);
    });
  });

  describe('end_date', () => {
    it('sets the end date of every rota, skips archived rotas, and refuses a date before today or before a rota’s start', async () => {
      const [a, b, gone] = [
        await seedRota(org, 'north-shop', 'A'),
        await seedRota(org, 'north', 'B'),
        await seedRota(org, 'north-shop', 'Gone'),
      ];
      await bulk('admin', { action: 'archive_rotas', rota_ids: [gone] }).expect(204);
      const date = addDays(today, 14);
      const before = await eventCount(ds);
      await bulk('admin', { action: 'end_date', rota_ids: [a, b, gone], data: { date } }).expect(204);
      expect(await eventCount(ds)).toBe(before + 2);
      expect((await rows([a, b, gone])).map((r) => r.end_date)).toEqual([date, date, null]);
      const listed = (await http().get('/api/rotas').set(as('admin')).expect(200)).body.data as {
        id: number;
        end: string | null;
      }[];
      expect([a, b].map((id) => listed.find((r) => r.id === id)?.end)).toEqual([date, date]);
      const [ended] = await ds.query(`SELECT data FROM events WHERE stream_id = $1 AND type = 'rotas.RotaEnded'`, [
        streamOf.rota(a),
      ]);
      expect(ended.data).toMatchObject({
        endDate: date,
        reason: 'end_date',
        effectiveFrom: addDays(date, 1),
        calendar: { endDate: date },
      });

      expect(
        Object.keys(
          (
            await refused(
              () => bulk('admin', { action: 'end_date', rota_ids: [a], data: { date: addDays(today, -1) } }),
              422,
            )
          ).errors!,
        ),
      ).toEqual(['data.date']);
      const later = await seedRota(org, 'north', 'Later', addDays(today, 60));
      expect(
        Object.keys(
          (
            await refused(
              () => bulk('admin', { action: 'end_date', rota_ids: [a, later], data: { date: addDays(today, 30) } }),
              422,
            )
          ).errors!,
        ),
      ).toEqual(['data.date']);
      expect(
        Object.keys(
          (await refused(() => bulk('admin', { action: 'end_date', rota_ids: [a], data: { date: '2026-02-30' } }), 422))
            .errors!,
        ),
      ).toEqual(['data.date']);
      // Today is allowed, and the same end date again records nothing.
      await bulk('admin', { action: 'end_date', rota_ids: [a], data: { date: today } }).expect(204);
      expect((await row(a)).end_date).toBe(today);
      const n = await eventCount(ds);
      await bulk('admin', { action: 'end_date', rota_ids: [a], data: { date: today } }).expect(204);
      expect(await eventCount(ds)).toBe(n);
    });
  });

  describe('end_date and one rota per team', () => {
    it('refuses an end date on or after the start of the team’s next rota, all or nothing; the day before it is fine', async () => {
      const first = await seedRota(org, 'north', 'First');
      const team = org.teams[`north-${used.get('riverside:north')}`];
      const res = await http()
        .post('/api/rotas')
        .set(as('boss'))
        .send({ name: 'Next', start_date: addDays(today, 20), pattern_id: patterns.riverside, team: [{ id: team }] })
        .expect(201);
      const next = res.body.data[0].id as number;
      // Creating the next rota ended the first the day before (docs/rota-domain.md#one-rota-per-team-per-day).
      expect((await row(first)).end_date).toBe(addDays(today, 19));
      const other = await seedRota(org, 'north', 'Other');
      const before = await tables();
      const body = await refused(
        () => bulk('admin', { action: 'end_date', rota_ids: [other, first], data: { date: addDays(today, 20) } }),
        422,
      );
      expect(Object.keys(body.errors!)).toEqual(['data.date']);
      expect(body.errors!['data.date']![0]).toContain(
        `rota ${first} (its team's rota ${next} starts on ${addDays(today, 20)})`,
      );
      expect(await tables()).toEqual(before);
      await bulk('admin', { action: 'end_date', rota_ids: [first], data: { date: addDays(today, 19) } }).expect(204);
      await bulk('admin', { action: 'end_date', rota_ids: [first], data: { date: addDays(today, 10) } }).expect(204);
      expect((await row(first)).end_date).toBe(addDays(today, 10));
    });
  });

  describe('name', () => {
    it('renames every rota, and an archived rota among them refuses the whole request (409)', async () => {
      const [a, b] = [await seedRota(org, 'north-shop', 'A'), await seedRota(org, 'north', 'B')];
      await bulk('admin', { action: 'name', rota_ids: [a, b, a], data: { name: 'Saturday shop' } }).expect(204);
      expect((await rows([a, b])).map((r) => r.name)).toEqual(['Saturday shop', 'Saturday shop']);
      expect(
        Object.keys(
          (await refused(() => bulk('admin', { action: 'name', rota_ids: [a], data: { name: 'x'.repeat(256) } }), 422))
            .errors!,
        ),
      ).toEqual(['data.name']);
      const gone = await seedRota(org, 'north', 'Gone');
      await bulk('admin', { action: 'archive_rotas', rota_ids: [gone] }).expect(204);
      expect(
        (await refused(() => bulk('admin', { action: 'name', rota_ids: [a, gone], data: { name: 'New' } }), 409))
          .message,
      ).toMatch(new RegExp(`archived rotas: ${gone}\\.`));
    });
  });

  describe('close and reopen', () => {
    it('closes the rotas on the dates, reopens some of them, and refuses past dates by index', async () => {
      const [a, b] = [await seedRota(org, 'north-shop', 'A'), await seedRota(org, 'north', 'B')];
      const [d1, d2, d3] = [addDays(today, 3), addDays(today, 10), addDays(today, 4)];
      await bulk('admin', { action: 'close', rota_ids: [a, b], data: { dates: [d2, d1, d3] } }).expect(204);
      expect((await rows([a, b])).map((r) => r.closed_dates)).toEqual([
        [d1, d3, d2],
        [d1, d3, d2],
      ]);
      const [closed] = await ds.query(`SELECT data FROM events WHERE stream_id = $1 AND type = 'rotas.RotaClosed'`, [
        streamOf.rota(a),
      ]);
      expect(closed.data).toMatchObject({ dates: [d1, d3, d2], effectiveFrom: d1 });

      await bulk('admin', { action: 'reopen', rota_ids: [a], data: { dates: [d3, addDays(today, 20)] } }).expect(204);
      expect((await rows([a, b])).map((r) => r.closed_dates)).toEqual([
        [d1, d2],
        [d1, d3, d2],
      ]);

      const bad = await refused(
        () => bulk('admin', { action: 'close', rota_ids: [a], data: { dates: [d1, addDays(today, -1), 'soon'] } }),
        422,
      );
      expect(Object.keys(bad.errors!).sort()).toEqual(['data.dates.1', 'data.dates.2']);
      expect(
        Object.keys(
          (await refused(() => bulk('admin', { action: 'close', rota_ids: [a], data: { dates: [] } }), 422)).errors!,
        ),
      ).toEqual(['data.dates']);
      expect(
        Object.keys(
          (
            await refused(
              () =>
                bulk('admin', {
                  action: 'close',
                  rota_ids: [a],
                  data: { dates: Array.from({ length: 367 }, () => d1) },
                }),
              422,
            )
          ).errors!,
        ),
      ).toEqual(['data.dates']);
    });
  });

  describe('archive_rotas', () => {
    it('archives the rotas effective today; an archived rota is left as it is', async () => {
      const [a, b] = [await seedRota(org, 'north-shop', 'A'), await seedRota(org, 'north', 'B')];
      await bulk('admin', { action: 'archive_rotas', rota_ids: [a] }).expect(204);
      const before = await eventCount(ds);
      await bulk('admin', { action: 'archive_rotas', rota_ids: [a, b], data: null }).expect(204);
      expect(await eventCount(ds)).toBe(before + 1);
      expect((await rows([a, b])).map((r) => r.archived)).toEqual([true, true]);
      const ids = async (query: string) =>
        ((await http().get(`/api/rotas${query}`).set(as('admin')).expect(200)).body.data as { id: number }[]).map(
          (r) => r.id,
        );
      expect(await ids('')).not.toContain(b);
      expect(await ids('?archived=true')).toEqual(expect.arrayContaining([a, b]));
      const [archived] = await ds.query(
        `SELECT data FROM events WHERE stream_id = $1 AND type = 'rotas.RotaArchived'`,
        [streamOf.rota(b)],
      );
      expect(archived.data).toMatchObject({ effectiveFrom: today, calendar: { archived: true } });
      expect(
        Object.keys(
          (await refused(() => bulk('admin', { action: 'archive_rotas', rota_ids: [a], data: { date: today } }), 422))
            .errors!,
        ),
      ).toEqual(['data.date']);
    });
  });

  describe('add_contacts', () => {
    it('adds the users as contacts of every rota, keeping existing contacts, all or nothing', async () => {
      const [a, b] = [await seedRota(org, 'north-shop', 'A'), await seedRota(org, 'north', 'B')];
      await http().post(`/api/rotas/${a}/contacts`).set(as('admin')).send({ user_id: org.users.shifter }).expect(201);
      const kept = (await ds.query(`SELECT id::int FROM rota_contacts WHERE rota_id = $1`, [a]))[0].id;
      const before = await eventCount(ds);
      await bulk('admin', {
        action: 'add_contacts',
        rota_ids: [a, b],
        data: { user_ids: [org.users.shifter, org.users.vol, org.users.vol] },
      }).expect(204);
      expect(await eventCount(ds)).toBe(before + 3);
      const contacts = await ds.query(
        `SELECT id::int, rota_id::int, user_id::int FROM rota_contacts WHERE rota_id = ANY($1) ORDER BY rota_id, user_id`,
        [[a, b]],
      );
      expect(contacts).toEqual([
        { id: kept, rota_id: a, user_id: org.users.shifter },
        { id: expect.any(Number), rota_id: a, user_id: org.users.vol },
        { id: expect.any(Number), rota_id: b, user_id: org.users.shifter },
        { id: expect.any(Number), rota_id: b, user_id: org.users.vol },
      ]);
      // Again: nothing new.
      await bulk('admin', { action: 'add_contacts', rota_ids: [a, b], data: { user_ids: [org.users.vol] } }).expect(
        204,
      );
      expect(await eventCount(ds)).toBe(before + 3);

      const foreign = await refused(
        () =>
          bulk('admin', {
            action: 'add_contacts',
            rota_ids: [a],
            data: { user_ids: [org.users.vol, hill.users.other] },
          }),
        422,
      );
      expect(foreign.errors).toEqual({
        'data.user_ids': [expect.stringMatching(new RegExp(`: ${hill.users.other}\\.$`))],
      });
      expect(
        Object.keys(
          (
            await refused(
              () =>
                bulk('admin', {
                  action: 'add_contacts',
                  rota_ids: [a],
                  data: { user_ids: Array.from({ length: 51 }, () => org.users.vol) },
                }),
              422,
            )
          ).errors!,
        ),
      ).toEqual(['data.user_ids']);
      const gone = await seedRota(org, 'north', 'Gone');
      await bulk('admin', { action: 'archive_rotas', rota_ids: [gone] }).expect(204);
      await refused(
        () => bulk('admin', { action: 'add_contacts', rota_ids: [a, gone], data: { user_ids: [org.users.admin] } }),
        409,
      );
    });

    it('needs the organisation’s rota_v2 feature: without it, a 422 naming action', async () => {
      const theirs = await seedRota(hill, 't', 'Theirs');
      expect(
        (
          await refused(
            () => bulk('other', { action: 'add_contacts', rota_ids: [theirs], data: { user_ids: [hill.users.other] } }),
            422,
          )
        ).errors,
      ).toEqual({
        action: ["The add_contacts action needs the organisation's rota_v2 feature."],
      });
    });
  });

  describe('replace', () => {
    const pattern = [slot('tuesday', '10:00', 'tuesday', '14:00'), slot('sunday', '22:00', 'monday', '06:00')];

    it('without end_date: the pattern’s timeslots from start_date on, later versions dropped, the pattern recorded and the rotas renamed', async () => {
      const [a, b] = [await seedRota(org, 'north-shop', 'A'), await seedRota(org, 'north', 'B')];
      const p = await seedPattern('admin', pattern);
      const start = addDays(today, 7);
      const [oldA] = await rows([a]);
      await replace('admin', { name: 'Winter', start_date: start, pattern_id: p, replace_rotas: [a, b] }).expect(204);
      const after = await rows([a, b]);
      for (const r of after) {
        expect(r).toMatchObject({ name: 'Winter', pattern_id: p, start_date: oldA!.start_date, end_date: null });
        expect(r.timeline.map((v) => [v.from, v.to])).toEqual([
          [oldA!.start_date, addDays(start, -1)],
          [start, null],
        ]);
        expect(r.timeline[0]!.timeslots).toEqual(
          oldA!.timeline[0]!.timeslots.map((t) => ({ ...t, id: expect.any(Number) })),
        );
        expect(r.timeline[1]!.timeslots.map(({ id: _id, ...t }) => t)).toEqual(pattern);
      }
      // Each rota's timeslots have ids of their own.
      const ids = after.flatMap((r) => r.timeline[1]!.timeslots.map((t) => t.id));
      expect(new Set(ids).size).toBe(4);
    });

    it('with end_date: the pattern over [start_date, end_date], and what stood after it stands again; name absent keeps the names', async () => {
      const a = await seedRota(org, 'north-shop', 'Keep');
      const p = await seedPattern('admin', pattern);
      const [old] = await rows([a]);
      const [start, end] = [addDays(today, 7), addDays(today, 20)];
      await replace('admin', {
        start_date: start,
        end_date: end,
        pattern_id: p,
        replace_rotas: [a],
        name: null,
      }).expect(204);
      const r = await row(a);
      expect(r.name).toBe('Keep');
      expect(r.timeline.map((v) => [v.from, v.to])).toEqual([
        [old!.start_date, addDays(start, -1)],
        [start, end],
        [addDays(end, 1), null],
      ]);
      expect(r.timeline[2]!.timeslots).toEqual(old!.timeline[0]!.timeslots);
      const [replaced] = await ds.query(
        `SELECT data FROM events WHERE stream_id = $1 AND type = 'rotas.RotaPatternReplaced'`,
        [streamOf.rota(a)],
      );
      expect(replaced.data).toMatchObject({ patternId: p, from: start, to: end, effectiveFrom: start, name: null });
    });

    it(
      'refuses, all or nothing: rotas out of reach (422 replace_rotas), a pattern unknown, foreign or ' +
        'archived (422 pattern_id), bad dates and names, archived rotas (409)',
      async () => {
        const a = await seedRota(org, 'north-shop', 'A');
        const south = await seedRota(org, 'south', 'South');
        const theirs = await seedRota(hill, 't', 'Theirs');
        const p = await seedPattern('admin', pattern);
        const archivedPattern = await seedPattern('admin', pattern, true);
        const foreignPattern = await seedPattern('other', pattern);
        const start = addDays(today, 7);
        const out = await refused(
          () => replace('admin', { start_date: start, pattern_id: p, replace_rotas: [a, south, theirs] }),
          422,
        );
        expect(out.errors).toEqual({ replace_rotas: [expect.stringMatching(new RegExp(`: ${south}, ${theirs}\\.$`))] });
        for (const bad of [archivedPattern, foreignPattern, 99_999_999]) {
          expect(
            Object.keys(
              (await refused(() => replace('admin', { start_date: start, pattern_id: bad, replace_rotas: [a] }), 422))
                .errors!,
            ),
          ).toEqual(['pattern_id']);
        }
        const dates = await refused(
          () => replace('admin', { start_date: addDays(today, -1), pattern_id: p, replace_rotas: [a], name: '' }),
          422,
        );
        expect(Object.keys(dates.errors!).sort()).toEqual(['name', 'start_date']);
        expect(
          Object.keys(
            (
              await refused(
                () =>
                  replace('admin', {
                    start_date: start,
                    end_date: addDays(start, -1),
                    pattern_id: p,
                    replace_rotas: [a],
                  }),
                422,
              )
            ).errors!,
          ),
        ).toEqual(['end_date']);
        expect(
          Object.keys((await refused(() => replace('admin', { start_date: start, pattern_id: p }), 422)).errors!),
        ).toEqual(['replace_rotas']);
        expect(
          Object.keys((await refused(() => replace('admin', { pattern_id: p, replace_rotas: [a] }), 422)).errors!),
        ).toEqual(['start_date']);
        const gone = await seedRota(org, 'north', 'Gone');
        await bulk('admin', { action: 'archive_rotas', rota_ids: [gone] }).expect(204);
        await refused(() => replace('admin', { start_date: start, pattern_id: p, replace_rotas: [a, gone] }), 409);
      },
    );
  });

  it('replaying the rotas projection gives the same rows as the live one', async () => {
    const checksum = () => tableChecksums(ds, ['rotas', 'rota_contacts']);
    const live = await checksum();
    expect(live.rotas!.n).toBeGreaterThan(10);
    expect(live.rota_contacts!.n).toBeGreaterThan(3);
    await ds.query('DELETE FROM rota_contacts');
    await ds.query('DELETE FROM rotas');
    await app.get(ProjectionReplayer).replay(['rotas.rotas']);
    expect(await checksum()).toEqual(live);
  });
});
