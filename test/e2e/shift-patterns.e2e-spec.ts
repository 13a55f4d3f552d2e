import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EventStore, ProjectionReplayer } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import type { RotaEvent } from '#app/rotas';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, logInAll, provision, userFile } from '../support/test-app.js';
import { eventCount, expectRefused, tableChecksum } from '../support/nothing-written.js';

const ZONE = 'Pacific/Auckland';
const STAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const slot = (
  weekday_start: string,
  start_time: string,
  weekday_end: string,
  end_time: string,
  numbers: object = {},
) => ({ weekday_start, start_time, weekday_end, end_time, ...numbers });
/** 201 quarter-hour timeslots on the half hours, none overlapping: one more than a pattern may hold. */
const tooMany = Array.from({ length: 201 }, (_, i) => {
  const day = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'][Math.floor(i / 48)]!;
  const time = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return slot(day, time((i % 48) * 30), day, time((i % 48) * 30 + 15));
});

/**
 * Shift patterns over HTTP (list, create, get, archive: docs/rota-domain.md#shift-patterns), in
 * an organisation whose zone is far from UTC, so the stamps show they are local.
 */
describe('shift patterns (docs/rota-domain.md#shift-patterns)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let org: ProvisionResult;
  let ds: DataSource;
  const tokens: Record<string, string> = {};
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const post = (who: string, body: unknown) =>
    http()
      .post('/api/shift-patterns')
      .set(as(who))
      .send(body as object);
  const list = (who: string, query = '') => http().get(`/api/shift-patterns${query}`).set(as(who));
  /** A refused request: its status, the fields its 422 names, and nothing written. */
  const refused = async (send: () => request.Test, status: number) => (await expectRefused(ds, send, status)).errors;
  const refusedKeys = async (who: string, body: unknown) =>
    Object.keys((await refused(() => post(who, body), 422)) ?? {}).sort();

  /**
   * A rota of `team` made from `pattern`, written to the log as rota create writes it (that route
   * is another area's); the rota area's projection makes its row. An archived one is archived at once.
   */
  async function seedRota(team: number, pattern: number, name: string, archived = false): Promise<number> {
    const [drawn] = await ds.query(`SELECT nextval('rotas_rota_ids') AS rota, nextval('rotas_timeslot_ids') AS slot`);
    const id = Number(drawn.rota);
    const timeslots = [
      { id: Number(drawn.slot), ...slot('monday', '09:00', 'monday', '17:00', { min: 1, ideal: 1, max: 2 }) },
    ] as never;
    const base = { id, organisationId: org.organisation.id };
    const created: RotaEvent = {
      type: 'rotas.RotaCreated',
      data: {
        ...base,
        teamId: team,
        patternId: pattern,
        startDate: '2026-01-05',
        endDate: null,
        timeslots,
        name,
        colour: '#336699',
        selfManage: false,
        allowSameDayAdd: true,
        allowSameDayCancel: false,
        allowSameDayEdit: false,
        restrictedByRole: false,
        roleProfileIds: [],
        requireFullTimeslot: false,
      },
    };
    const calendar = {
      startDate: '2026-01-05',
      endDate: null,
      archived: true,
      closedDates: [],
      timeline: [{ from: '2026-01-05', to: null, timeslots }],
    };
    const gone: RotaEvent = { type: 'rotas.RotaArchived', data: { ...base, effectiveFrom: '2026-01-05', calendar } };
    await app.get(EventStore).handle(
      `rotas.Rota-${id}`,
      () => null,
      () => (archived ? [created, gone] : [created]),
      { expect: 'no_stream' },
    );
    return id;
  }

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    ds = app.get(DataSource);
    org = await provision(app, {
      organisation: { name: 'Riverside', slug: 'riverside', timezone: ZONE },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      categories: [
        { key: 'retail', name: 'Retail' },
        { key: 'care', name: 'Care' },
      ],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'north-shop', name: 'North shop', parent: 'north' },
        { key: 'south', name: 'South' },
      ],
      users: [
        userFile('boss', ['manage-rotas'], ['north', 'south']),
        // manage-rotas, but sees only North and North shop.
        userFile('manager', ['manage-rotas'], ['north']),
        userFile('vol', ['add-user-shifts'], ['north-shop']),
      ],
    });
    await provision(app, {
      organisation: { name: 'Hillside', slug: 'hillside', timezone: 'Europe/London' },
      role_profiles: [{ key: 'shop', name: 'P' }],
      categories: [{ key: 'garden', name: 'Garden' }],
      teams: [{ key: 't', name: 'T' }],
      users: [userFile('other', ['manage-rotas'], ['t'], { domain: 'hillside' })],
    });
    Object.assign(tokens, await logInAll(app, ['boss', 'manager', 'vol']));
    tokens.other = await logIn(app, 'other@hillside.example');
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  describe('create', () => {
    it('answers 201 { data } with the pattern’s timeslots in week order, each with an id, times HH:MM:SS, missing numbers taken from the pattern', async () => {
      const before = await eventCount(ds);
      const res = await post('manager', {
        name: 'Weekday shop',
        min: 1,
        ideal: 2,
        max: 3,
        category: { id: org.categories.retail },
        pattern: [
          slot('tuesday', '09:00', 'tuesday', '17:00'),
          slot('sunday', '22:00', 'monday', '06:00', { min: 0, ideal: 1, max: 1 }),
          slot('monday', '09:00:00', 'monday', '12:30', { max: 5 }),
        ],
      }).expect(201);
      const data = res.body.data;
      expect(data).toEqual({
        id: expect.any(Number),
        name: 'Weekday shop',
        min: 1,
        ideal: 2,
        max: 3,
        created_at: expect.stringMatching(STAMP),
        updated_at: data.created_at,
        deleted_at: null,
        pattern: [
          {
            id: expect.any(Number),
            weekday_start: 'monday',
            start_time: '09:00:00',
            weekday_end: 'monday',
            end_time: '12:30:00',
            min: 1,
            ideal: 2,
            max: 5,
          },
          {
            id: expect.any(Number),
            weekday_start: 'tuesday',
            start_time: '09:00:00',
            weekday_end: 'tuesday',
            end_time: '17:00:00',
            min: 1,
            ideal: 2,
            max: 3,
          },
          {
            id: expect.any(Number),
            weekday_start: 'sunday',
            start_time: '22:00:00',
            weekday_end: 'monday',
            end_time: '06:00:00',
            min: 0,
            ideal: 1,
            max: 1,
          },
        ],
      });
      const ids = data.pattern.map((t: { id: number }) => t.id);
      expect([...ids].sort((a: number, b: number) => a - b)).toEqual(ids);
      expect(await eventCount(ds)).toBe(before + 1);
      const [stored] = await ds.query(
        `SELECT type, metadata, created_at FROM events e JOIN shift_patterns p ON p.id = $1 WHERE e.stream_id = $2`,
        [data.id, `rotas.ShiftPattern-${data.id}`],
      );
      expect(stored).toMatchObject({
        type: 'rotas.ShiftPatternCreated',
        metadata: { organisationId: org.organisation.id, actor: expect.anything() },
      });
      // The stamps are wall-clock times in the organisation's zone.
      expect(data.created_at).toBe(
        DateTime.fromJSDate(stored.created_at).setZone(ZONE).toFormat('yyyy-MM-dd HH:mm:ss'),
      );
      expect(
        (await http().get(`/api/shift-patterns/${data.id}?include=pattern`).set(as('manager')).expect(200)).body,
      ).toEqual({ data });
    });

    it('defaults the pattern’s own numbers to 1, moved only as far as the numbers given need', async () => {
      const plain = (
        await post('manager', { name: 'Plain', pattern: [slot('monday', '09:00', 'monday', '10:00')] }).expect(201)
      ).body.data;
      expect(plain).toMatchObject({ min: 1, ideal: 1, max: 1, pattern: [{ min: 1, ideal: 1, max: 1 }] });
      const big = (
        await post('manager', {
          name: 'Big',
          min: 3,
          category: null,
          pattern: [slot('monday', '09:00', 'monday', '10:00', { max: 8 })],
        }).expect(201)
      ).body.data;
      expect(big).toMatchObject({ min: 3, ideal: 3, max: 3, pattern: [{ min: 3, ideal: 3, max: 8 }] });
      await http().delete(`/api/shift-patterns/${plain.id}`).set(as('manager')).expect(204);
      await http().delete(`/api/shift-patterns/${big.id}`).set(as('manager')).expect(204);
    });

    it('takes 200 timeslots, 255-character names, and timeslots that touch across the week’s wrap-around', async () => {
      const name = 'n'.repeat(255);
      const full = (await post('manager', { name, pattern: tooMany.slice(0, 200) }).expect(201)).body.data;
      expect(full.pattern).toHaveLength(200);
      const wrap = await post('manager', {
        name: 'Wrap',
        pattern: [slot('sunday', '22:00', 'monday', '06:00'), slot('monday', '06:00', 'sunday', '22:00')],
      }).expect(201);
      expect(wrap.body.data.pattern.map((t: { start_time: string }) => t.start_time)).toEqual(['06:00:00', '22:00:00']);
      for (const id of [full.id, wrap.body.data.id])
        await http().delete(`/api/shift-patterns/${id}`).set(as('manager')).expect(204);
    });

    it('refuses each broken rule with a 422 naming it, and writes nothing', async () => {
      const ok = { name: 'x', pattern: [slot('monday', '09:00', 'monday', '10:00')] };
      expect(await refusedKeys('manager', {})).toEqual(['name', 'pattern']);
      // Overlap across the wrap-around: Sunday 22:00 → Monday 06:00 meets Monday 05:00.
      expect(
        await refusedKeys('manager', {
          ...ok,
          pattern: [slot('sunday', '22:00', 'monday', '06:00'), slot('monday', '05:00', 'monday', '07:00')],
        }),
      ).toEqual(['pattern.1']);
      expect(await refusedKeys('manager', { ...ok, pattern: [slot('friday', '09:00', 'friday', '09:00')] })).toEqual([
        'pattern.0.end_time',
      ]);
      expect(await refusedKeys('manager', { ...ok, pattern: tooMany })).toEqual(['pattern']);
      expect(await refusedKeys('manager', { ...ok, pattern: [] })).toEqual(['pattern']);
      expect(await refusedKeys('manager', { ...ok, name: 'n'.repeat(256) })).toEqual(['name']);
      expect(await refusedKeys('manager', { ...ok, name: '   ' })).toEqual(['name']);
      expect(await refusedKeys('manager', { ...ok, min: 3, ideal: 2, max: 5 })).toEqual(['min']);
      expect(await refusedKeys('manager', { ...ok, min: 0, ideal: 0, max: 0 })).toEqual(['max']);
      expect(
        await refusedKeys('manager', {
          ...ok,
          pattern: [slot('monday', '09:00', 'monday', '10:00', { min: 2, ideal: 1, max: 0 })],
        }),
      ).toEqual(['pattern.0.ideal', 'pattern.0.max', 'pattern.0.min']);
      expect(
        await refusedKeys('manager', {
          ...ok,
          pattern: [slot('Monday', '24:00', 'mon', '9:00', { min: -1, ideal: 1.5, max: '3' })],
        }),
      ).toEqual([
        'pattern.0.end_time',
        'pattern.0.ideal',
        'pattern.0.max',
        'pattern.0.min',
        'pattern.0.start_time',
        'pattern.0.weekday_end',
        'pattern.0.weekday_start',
      ]);
      // Categories: another organisation's or an unknown one names category.id; a malformed one category.
      const hillsideCategory = Number(
        (await ds.query(`SELECT id FROM activity_categories WHERE name = 'Garden'`))[0].id,
      );
      for (const id of [hillsideCategory, 999_999])
        expect(await refusedKeys('manager', { ...ok, category: { id } })).toEqual(['category.id']);
      for (const category of [
        5,
        'retail',
        [{ id: org.categories.retail }],
        { id: org.categories.retail, name: 'Retail' },
      ])
        expect(await refusedKeys('manager', { ...ok, category })).toEqual(['category']);
      // Fields that are never null.
      expect(await refusedKeys('manager', { name: null, min: null, ideal: null, max: null, pattern: null })).toEqual([
        'ideal',
        'max',
        'min',
        'name',
        'pattern',
      ]);
      expect(
        await refusedKeys('manager', {
          ...ok,
          pattern: [
            slot('monday', '09:00', 'monday', '10:00'),
            null,
            { ...slot('monday', '11:00', 'monday', '12:00'), weekday_start: null },
          ],
        }),
      ).toEqual(['pattern.1', 'pattern.2.weekday_start']);
      // Unknown fields, at the top and in a timeslot.
      expect(await refusedKeys('manager', { ...ok, colour: 'red' })).toEqual(['colour']);
      expect(await refusedKeys('manager', { ...ok, pattern: [{ ...ok.pattern[0], id: 4 }] })).toEqual(['pattern.0.id']);
      // Everything wrong with one body, in one answer.
      expect(
        await refusedKeys('manager', {
          name: '',
          category: { id: 999_999 },
          pattern: [
            slot('sunday', '22:00', 'monday', '06:00'),
            slot('monday', '05:00', 'monday', '05:00'),
            slot('monday', '01:00', 'monday', '02:00'),
          ],
        }),
      ).toEqual(['category.id', 'name', 'pattern.1.end_time', 'pattern.2']);
      await refused(
        () =>
          http()
            .post('/api/shift-patterns')
            .set(as('manager'))
            .set('content-type', 'application/json')
            .send('{"name":'),
        400,
      );
      await refused(() => http().post('/api/shift-patterns').set(as('manager')).send([ok]), 400);
    });
  });

  describe('list, get and archive', () => {
    const patterns: Record<string, { id: number }> = {};
    const rotas: Record<string, number> = {};
    const names = (res: request.Response) => res.body.data.map((p: { name: string }) => p.name);
    const create = async (name: string, extra: object = {}) => {
      patterns[name] = (
        await post('boss', { name, pattern: [slot('wednesday', '10:00', 'wednesday', '14:00')], ...extra }).expect(201)
      ).body.data;
    };

    beforeAll(async () => {
      // Older patterns of the create tests stay; these are the newest, created in this order.
      for (const [name, extra] of [
        ['alpha rota', { category: { id: org.categories.care } }],
        ['Bravo', {}],
        ['charlie ALPHA', {}],
        ['Delta', {}],
        ['Echo', {}],
      ] as const)
        await create(name, extra);
      rotas.northShop = await seedRota(org.teams['north-shop']!, patterns['Bravo']!.id, 'North shop weekdays');
      rotas.north = await seedRota(org.teams.north!, patterns['Bravo']!.id, 'A north rota');
      rotas.south = await seedRota(org.teams.south!, patterns['charlie ALPHA']!.id, 'South weekdays');
      rotas.gone = await seedRota(org.teams.north!, patterns['Delta']!.id, 'Archived north', true);
      await http().delete(`/api/shift-patterns/${patterns['Echo']!.id}`).set(as('boss')).expect(204);
    });

    it('lists the organisation’s unarchived patterns, newest first, in the pagination envelope, without includes', async () => {
      const res = await list('manager', '?per_page=4').expect(200);
      expect(names(res)).toEqual(['Delta', 'charlie ALPHA', 'Bravo', 'alpha rota']);
      expect(res.body.meta.pagination).toEqual({
        total: '5',
        count: '4',
        per_page: '4',
        current_page: '1',
        total_pages: '2',
        links: { next: 'http://api.test/api/shift-patterns?per_page=4&page=2' },
      });
      expect(Object.keys(res.body.data[0]).sort()).toEqual([
        'created_at',
        'deleted_at',
        'id',
        'ideal',
        'max',
        'min',
        'name',
        'updated_at',
      ]);
      const second = await list('manager', '?per_page=4&page=2').expect(200);
      expect(names(second)).toEqual(['Weekday shop']);
      expect(second.body.meta.pagination).toMatchObject({
        count: '1',
        links: { previous: 'http://api.test/api/shift-patterns?per_page=4&page=1' },
      });
      expect(names(await list('manager', '?o=asc').expect(200))).toEqual([
        'Weekday shop',
        'alpha rota',
        'Bravo',
        'charlie ALPHA',
        'Delta',
      ]);
      expect((await list('other').expect(200)).body.data).toEqual([]);
    });

    it('searches names case-insensitively, sorts by name either way, and lists only archived patterns with archived=true', async () => {
      expect(names(await list('manager', '?q=ALPHA').expect(200))).toEqual(['charlie ALPHA', 'alpha rota']);
      expect(names(await list('manager', '?q=alpha&s=name&o=asc').expect(200))).toEqual([
        'alpha rota',
        'charlie ALPHA',
      ]);
      expect(names(await list('manager', '?q=a&s=name&o=desc').expect(200))).toEqual([
        'Weekday shop',
        'Delta',
        'charlie ALPHA',
        'Bravo',
        'alpha rota',
      ]);
      expect(names(await list('manager', '?q=zzz').expect(200))).toEqual([]);
      const archived = await list('manager', '?archived=true&per_page=100').expect(200);
      expect(names(archived)).toEqual(expect.arrayContaining(['Echo', 'Plain', 'Big', 'Wrap']));
      expect(archived.body.data.every((p: { deleted_at: string | null }) => STAMP.test(p.deleted_at ?? ''))).toBe(true);
      expect(names(await list('manager', '?archived=1&q=echo').expect(200))).toEqual(['Echo']);
      expect(names(await list('manager', '?archived=false&q=echo').expect(200))).toEqual([]);
    });

    it('filters by the teams whose unarchived rotas use a pattern, among the teams the caller sees', async () => {
      const { north, south } = org.teams;
      expect(names(await list('manager', `?teams=${org.teams['north-shop']}`).expect(200))).toEqual(['Bravo']);
      expect(names(await list('boss', `?teams=${north},${south}`).expect(200))).toEqual(['charlie ALPHA', 'Bravo']);
      // Delta's only rota is archived; South is not the manager's to see; an unknown team names nothing.
      expect(names(await list('manager', `?teams=${south},999999`).expect(200))).toEqual([]);
      expect(names(await list('boss', `?teams=${south}&q=bravo`).expect(200))).toEqual([]);
    });

    it('sorts by the first team’s name, patterns of no team last either way, ties by id', async () => {
      const teamsOf = async (who: string, o: string) =>
        names(await list(who, `?s=teams&o=${o}&per_page=100`).expect(200)).slice(0, 4);
      // Bravo: North, North shop (first: North); charlie ALPHA: South; the others by id.
      expect(await teamsOf('boss', 'asc')).toEqual(['Bravo', 'charlie ALPHA', 'Weekday shop', 'alpha rota']);
      expect(await teamsOf('boss', 'desc')).toEqual(['charlie ALPHA', 'Bravo', 'Delta', 'alpha rota']);
      // The manager does not see South: charlie ALPHA goes with the patterns of no team.
      expect(await teamsOf('manager', 'desc')).toEqual(['Bravo', 'Delta', 'charlie ALPHA', 'alpha rota']);
    });

    it('includes pattern, category, teams and rotas on request, teams and rotas only of teams the caller sees', async () => {
      const res = await list('boss', '?include=pattern,category,teams,rotas&q=a&s=name&o=asc').expect(200);
      const byName = Object.fromEntries(res.body.data.map((p: { name: string }) => [p.name, p]));
      expect(byName['alpha rota']).toMatchObject({
        category: { id: org.categories.care, name: 'Care' },
        teams: [],
        rotas: [],
        pattern: [{ weekday_start: 'wednesday', start_time: '10:00:00' }],
      });
      expect(byName['Bravo']).toMatchObject({
        category: null,
        rotas: [
          { id: rotas.north, name: 'A north rota' },
          { id: rotas.northShop, name: 'North shop weekdays' },
        ],
        teams: [
          {
            id: String(org.teams.north),
            parent_id: null,
            name: 'North',
            description: '',
            geo_location: '',
            catchment_area_id: '',
            icon: expect.any(String),
            show_on_public_site: false,
            ceiling_enabled: false,
            hidden: false,
            disabled: false,
          },
          { id: String(org.teams['north-shop']), parent_id: org.teams.north, name: 'North shop' },
        ],
      });
      expect(byName['charlie ALPHA']).toMatchObject({ teams: [{ name: 'South' }], rotas: [{ id: rotas.south }] });
      expect(byName['Delta']).toMatchObject({ teams: [], rotas: [] });
      expect(byName['Weekday shop']).toMatchObject({ category: { id: org.categories.retail, name: 'Retail' } });
      const hidden = (
        await http()
          .get(`/api/shift-patterns/${patterns['charlie ALPHA']!.id}?include=teams,rotas`)
          .set(as('manager'))
          .expect(200)
      ).body.data;
      expect(hidden).toMatchObject({ teams: [], rotas: [] });
      expect(
        Object.keys(
          (
            await http()
              .get(`/api/shift-patterns/${patterns['Bravo']!.id}?include=rotas`)
              .set(as('manager'))
              .expect(200)
          ).body.data,
        ).sort(),
      ).toEqual(['created_at', 'deleted_at', 'id', 'ideal', 'max', 'min', 'name', 'rotas', 'updated_at']);
    });

    it('refuses unknown includes, sorts, directions, booleans and team lists with a 422 naming them', async () => {
      for (const [query, key] of [
        ['?include=pattern,users', 'include'],
        ['?s=updated_at', 's'],
        ['?o=sideways', 'o'],
        ['?archived=maybe', 'archived'],
        ['?teams=1,x', 'teams'],
        ['?teams=0', 'teams'],
        ['?teams=', 'teams'],
        ['?per_page=101', 'per_page'],
        ['?page=0', 'page'],
      ]) {
        expect(Object.keys((await refused(() => list('manager', query!), 422))!)).toEqual([key]);
      }
      expect(
        Object.keys(
          (await refused(
            () => http().get(`/api/shift-patterns/${patterns['Bravo']!.id}?include=teams,foo`).set(as('manager')),
            422,
          ))!,
        ),
      ).toEqual(['include']);
    });

    it('gets one pattern, archived ones included; another organisation’s, an unknown or a malformed id is a 404', async () => {
      const bravo = (await http().get(`/api/shift-patterns/${patterns['Bravo']!.id}`).set(as('manager')).expect(200))
        .body;
      expect(bravo).toEqual({
        data: {
          id: patterns['Bravo']!.id,
          name: 'Bravo',
          min: 1,
          ideal: 1,
          max: 1,
          created_at: expect.stringMatching(STAMP),
          updated_at: expect.stringMatching(STAMP),
          deleted_at: null,
        },
      });
      const echo = (await http().get(`/api/shift-patterns/${patterns['Echo']!.id}`).set(as('manager')).expect(200)).body
        .data;
      expect(echo.deleted_at).toMatch(STAMP);
      expect(echo.updated_at).toBe(echo.deleted_at);
      await http().get(`/api/shift-patterns/${patterns['Bravo']!.id}`).set(as('other')).expect(404);
      for (const id of ['999999', 'abc', '0', '-1'])
        await http().get(`/api/shift-patterns/${id}`).set(as('manager')).expect(404);
    });

    it('archives with 204: out of the default list, deleted_at set; again a 204 that writes nothing; another organisation’s is a 404', async () => {
      await create('Foxtrot');
      const id = patterns['Foxtrot']!.id;
      await refused(() => http().delete(`/api/shift-patterns/${id}`).set(as('other')), 404);
      await refused(() => http().delete('/api/shift-patterns/999999').set(as('manager')), 404);
      const before = await eventCount(ds);
      const res = await http().delete(`/api/shift-patterns/${id}`).set(as('manager')).expect(204);
      expect(res.text).toBe('');
      expect(await eventCount(ds)).toBe(before + 1);
      const first = (await http().get(`/api/shift-patterns/${id}`).set(as('manager')).expect(200)).body.data.deleted_at;
      expect(first).toMatch(STAMP);
      await http().delete(`/api/shift-patterns/${id}`).set(as('manager')).expect(204);
      expect(await eventCount(ds)).toBe(before + 1);
      expect((await http().get(`/api/shift-patterns/${id}`).set(as('manager')).expect(200)).body.data.deleted_at).toBe(
        first,
      );
      expect(names(await list('manager', '?q=foxtrot').expect(200))).toEqual([]);
      expect(names(await list('manager', '?q=foxtrot&archived=true').expect(200))).toEqual(['Foxtrot']);
    });
  });

  it('needs manage-rotas on every route: a volunteer gets a 403, whatever the id, and nothing is written', async () => {
    const [{ id }] = await ds.query(`SELECT id FROM shift_patterns WHERE deleted_at IS NULL LIMIT 1`);
    for (const target of [id, '999999']) {
      await refused(() => http().get(`/api/shift-patterns/${target}`).set(as('vol')), 403);
      await refused(() => http().delete(`/api/shift-patterns/${target}`).set(as('vol')), 403);
    }
    await refused(() => list('vol'), 403);
    await refused(() => post('vol', { name: 'x', pattern: [slot('monday', '09:00', 'monday', '10:00')] }), 403);
    await refused(() => post('vol', {}), 403);
    await refused(() => http().get('/api/shift-patterns'), 401);
  });

  it('rebuilds the same shift_patterns rows from the log', async () => {
    const checksum = () => tableChecksum(ds, 'shift_patterns');
    const live = await checksum();
    expect(live.n).toBeGreaterThan(8);
    await ds.query(`DELETE FROM shift_patterns`);
    expect((await checksum()).n).toBe(0);
    const result = await app.get(ProjectionReplayer).replay(['rotas.shift-patterns']);
    expect(result.projections).toEqual(['rotas.shift-patterns']);
    expect(await checksum()).toEqual(live);
  });
});
