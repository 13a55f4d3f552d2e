import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, hillsideFile, logIn, logInAll, provision, userFile } from '../support/test-app.js';
import { eventCount, expectRefused, refusedFields } from '../support/nothing-written.js';

const ZONE = 'Europe/London';

/**
 * A rota's contacts over HTTP (docs/rota-domain.md#contacts): list (anyone who sees the rota), add
 * (201 new, 200 existing, one record under a race), remove (addition) and validate (advisory), with
 * 403 inside the organisation, 404 outside it, and nothing written by any refusal.
 */
describe('rota contacts (docs/rota-domain.md#contacts)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let org: ProvisionResult;
  let hill: ProvisionResult;
  const rotas: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const user = (key: string, permissions: string[], teams: string[], domain?: string) =>
    userFile(key, permissions, teams, { name: `${key} name`, domain });
  const refused = (send: () => request.Test, status: number) => expectRefused(ds, send, status);
  const fields = (send: () => request.Test) => refusedFields(ds, send);
  const list = (who: string, rota: number | string) => http().get(`/api/rotas/${rota}/contacts`).set(as(who));
  const add = (who: string, rota: number | string, body: object) =>
    http().post(`/api/rotas/${rota}/contacts`).set(as(who)).send(body);
  const remove = (who: string, rota: number | string, id: number | string) =>
    http().delete(`/api/rotas/${rota}/contacts/${id}`).set(as(who));
  const validate = (who: string, body: object) => http().post('/api/rotas/contacts/validate').set(as(who)).send(body);

  const patterns: Record<string, number> = {};

  /** A rota made over HTTP (`POST /api/rotas`, by `boss` or, in Hillside, `other`) on `team` from today on. */
  async function seedRota(of: ProvisionResult, team: string, name: string): Promise<number> {
    const who = of === hill ? 'other' : 'boss';
    const body = {
      name,
      start_date: todayIn(ZONE),
      pattern_id: patterns[of.organisation.slug],
      team: [{ id: of.teams[team] }],
    };
    return (await http().post('/api/rotas').set(as(who)).send(body).expect(201)).body.data[0].id;
  }

  /** A shift pattern of one Monday timeslot, made over HTTP. */
  const seedPattern = async (who: string) =>
    (
      await http()
        .post('/api/shift-patterns')
        .set(as(who))
        .send({
          name: 'Mondays',
          pattern: [{ weekday_start: 'monday', start_time: '09:00', weekday_end: 'monday', end_time: '17:00' }],
        })
        .expect(201)
    ).body.data.id;

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    ds = app.get(DataSource);
    org = await provision(app, {
      organisation: { name: 'Riverside', slug: 'riverside', timezone: ZONE, features: ['rota_v2'] },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'north-shop', name: 'North shop', parent: 'north' },
        { key: 'south', name: 'South' },
        // One rota a team: the race rounds and the archived rota get teams of their own.
        ...Array.from({ length: 5 }, (_, i) => ({ key: `north-${i + 1}`, name: `North ${i + 1}`, parent: 'north' })),
      ],
      users: [
        // Makes the rotas, in both regions.
        user('boss', ['manage-rotas'], ['north', 'south']),
        // manage-rotas over North and North shop.
        user('admin', ['manage-rotas'], ['north']),
        user('southadmin', ['manage-rotas'], ['south']),
        user('shifter', ['add-user-shifts'], ['north-shop']),
        user('vol', [], ['north-shop']),
        user('southvol', [], ['south']),
      ],
    });
    hill = await provision(
      app,
      hillsideFile([user('other', ['manage-rotas'], ['t'], 'hillside')], { timezone: ZONE, features: ['rota_v2'] }),
    );
    Object.assign(tokens, await logInAll(app, ['boss', 'admin', 'southadmin', 'shifter', 'vol', 'southvol']));
    tokens.other = await logIn(app, 'other@hillside.example');
    patterns.riverside = await seedPattern('boss');
    patterns.hillside = await seedPattern('other');
    rotas.shop = await seedRota(org, 'north-shop', 'Shop');
    rotas.north = await seedRota(org, 'north', 'North rota');
    rotas.south = await seedRota(org, 'south', 'South rota');
    rotas.theirs = await seedRota(hill, 't', 'Theirs');
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  describe('list, add and remove', () => {
    it('adds a contact (201), answers the same record when added again (200), lists it for anyone who sees the rota, and removes it (204)', async () => {
      expect((await list('vol', rotas.shop!).expect(200)).body).toEqual({ data: [] });
      const before = await eventCount(ds);
      const created = (await add('admin', rotas.shop!, { user_id: org.users.shifter }).expect(201)).body;
      expect(created).toEqual({
        data: {
          id: expect.any(Number),
          user_id: org.users.shifter,
          user: expect.objectContaining({
            id: org.users.shifter,
            display_name: 'shifter name',
            status: expect.objectContaining({ id: 'active' }),
          }),
        },
      });
      expect(await eventCount(ds)).toBe(before + 1);
      expect((await add('admin', rotas.shop!, { user_id: org.users.shifter }).expect(200)).body).toEqual(created);
      expect(await eventCount(ds)).toBe(before + 1);
      const second = (await add('admin', rotas.shop!, { user_id: org.users.vol }).expect(201)).body.data;
      for (const who of ['vol', 'shifter', 'admin']) {
        expect(
          (await list(who, rotas.shop!).expect(200)).body.data.map((c: { id: number; user_id: number }) => [
            c.id,
            c.user_id,
          ]),
        ).toEqual([
          [created.data.id, org.users.shifter],
          [second.id, org.users.vol],
        ]);
      }
      await remove('admin', rotas.shop!, created.data.id).expect(204);
      expect((await list('vol', rotas.shop!).expect(200)).body.data.map((c: { user_id: number }) => c.user_id)).toEqual(
        [org.users.vol],
      );
      const [{ type, data }] = await ds.query(
        `SELECT type, data FROM events WHERE stream_id = $1 ORDER BY stream_version DESC LIMIT 1`,
        [`rotas.Rota-${rotas.shop}`],
      );
      expect({ type, data }).toEqual({
        type: 'rotas.RotaContactRemoved',
        data: {
          id: created.data.id,
          organisationId: org.organisation.id,
          rotaId: rotas.shop,
          userId: org.users.shifter,
        },
      });
      // Removed once; again, an unknown contact id, or another rota's contact through this rota: 404.
      await refused(() => remove('admin', rotas.shop!, created.data.id), 404);
      await refused(() => remove('admin', rotas.shop!, 99_999_999), 404);
      await refused(() => remove('admin', rotas.north!, second.id), 404);
      // Added again after its removal: a new record.
      const again = (await add('admin', rotas.shop!, { user_id: org.users.shifter }).expect(201)).body.data;
      expect(again.id).not.toBe(created.data.id);
    });

    it('refuses a user of another organisation, an unknown user or a malformed user_id with a 422 naming user_id', async () => {
      for (const body of [
        { user_id: hill.users.other },
        { user_id: 99_999_999 },
        {},
        { user_id: 'x' },
        { user_id: 0 },
        { user_id: null },
      ]) {
        expect(await fields(() => add('admin', rotas.north!, body))).toEqual(['user_id']);
      }
    });

    it('requests adding the same user at once make one record: one answers 201, the others 200 with the same record (the stream version decides)', async () => {
      for (let round = 0; round < 3; round++) {
        const rota = await seedRota(org, `north-${round + 1}`, `Race ${round}`);
        const before = await eventCount(ds);
        const answers = await Promise.all(
          Array.from({ length: 6 }, () => add('admin', rota, { user_id: org.users.vol })),
        );
        expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
        for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
        expect(await eventCount(ds)).toBe(before + 1);
        expect(await ds.query(`SELECT user_id::int FROM rota_contacts WHERE rota_id = $1`, [rota])).toEqual([
          { user_id: org.users.vol },
        ]);
      }
    });

    it('an archived rota refuses new contacts and removals (409); a contact already there is still answered (200)', async () => {
      const rota = await seedRota(org, 'north-4', 'Archived');
      const kept = (await add('admin', rota, { user_id: org.users.vol }).expect(201)).body;
      await http()
        .post('/api/rotas/bulk')
        .set(as('admin'))
        .send({ action: 'archive_rotas', rota_ids: [rota] })
        .expect(204);
      await refused(() => add('admin', rota, { user_id: org.users.shifter }), 409);
      await refused(() => remove('admin', rota, kept.data.id), 409);
      expect((await add('admin', rota, { user_id: org.users.vol }).expect(200)).body).toEqual(kept);
      expect((await list('admin', rota).expect(200)).body).toEqual({ data: [kept.data] });
    });
  });

  describe('who may', () => {
    it('listing: anyone who sees the rota; hidden by the hierarchy 403; another organisation’s or unknown 404', async () => {
      await list('shifter', rotas.shop!).expect(200);
      await list('admin', rotas.north!).expect(200);
      await refused(() => list('southvol', rotas.shop!), 403);
      await refused(() => list('vol', rotas.north!), 403);
      for (const who of ['other', 'admin'])
        await refused(() => list(who, who === 'other' ? rotas.shop! : rotas.theirs!), 404);
      await refused(() => list('admin', 99_999_999), 404);
      await refused(() => list('admin', 'abc'), 404);
    });

    it('a volunteer (no manage-rotas) gets a 403 on every contact change and on validate, whatever the body', async () => {
      const [contact] = (await list('admin', rotas.shop!).expect(200)).body.data;
      for (const who of ['vol', 'shifter', 'southvol']) {
        await refused(() => add(who, rotas.shop!, { user_id: org.users.vol }), 403);
        await refused(() => add(who, rotas.shop!, { nonsense: true }), 403);
        await refused(() => remove(who, rotas.shop!, contact.id), 403);
        await refused(() => validate(who, { user_ids: [org.users.vol], rota_ids: [rotas.shop] }), 403);
      }
    });

    it(
      'changing needs manage-rotas over the rota’s team: a rota the caller does not see is a 403; another ' +
        'organisation’s rota a 404, before the body',
      async () => {
        const [contact] = (await list('admin', rotas.shop!).expect(200)).body.data;
        await refused(() => add('southadmin', rotas.shop!, { user_id: org.users.southvol }), 403);
        await refused(() => remove('southadmin', rotas.shop!, contact.id), 403);
        await refused(() => add('other', rotas.shop!, { user_id: hill.users.other }), 404);
        await refused(() => remove('other', rotas.shop!, contact.id), 404);
        await refused(() => add('admin', rotas.theirs!, { user_id: org.users.vol }), 404);
        await refused(() => add('admin', 99_999_999, { user_id: org.users.vol }), 404);
        await refused(() => remove('admin', rotas.theirs!, 1), 404);
      },
    );
  });

  describe('validate', () => {
    const failure = (key: string, missing: boolean, unseen: [number, string][]) => ({
      user_id: org.users[key],
      display_name: `${key} name`,
      missing_permission: missing,
      unseen_targets: unseen.map(([id, name]) => ({ id, name })),
    });

    it('reports exactly the users who cannot see each rota, and those holding neither add-user-shifts nor manage-rotas, writing nothing', async () => {
      const before = await eventCount(ds);
      const res = await validate('admin', {
        user_ids: [org.users.vol, org.users.shifter, org.users.admin, org.users.southvol, org.users.vol],
        rota_ids: [rotas.shop, rotas.north, rotas.shop],
      }).expect(200);
      expect(res.body).toEqual({
        data: {
          valid: false,
          failures: [
            failure('vol', true, [[rotas.north!, 'North rota']]),
            failure('shifter', false, [[rotas.north!, 'North rota']]),
            failure('southvol', true, [
              [rotas.shop!, 'Shop'],
              [rotas.north!, 'North rota'],
            ]),
          ],
        },
      });
      expect(await eventCount(ds)).toBe(before);
      expect(
        (
          await validate('admin', { user_ids: [org.users.admin, org.users.shifter], rota_ids: [rotas.shop] }).expect(
            200,
          )
        ).body,
      ).toEqual({ data: { valid: true, failures: [] } });
      expect((await validate('admin', { user_ids: [], rota_ids: [rotas.shop] }).expect(200)).body).toEqual({
        data: { valid: true, failures: [] },
      });
    });

    it('with team_ids, the targets are the teams', async () => {
      const res = await validate('admin', {
        user_ids: [org.users.vol, org.users.shifter, org.users.admin],
        team_ids: [org.teams['north-shop'], org.teams.north],
        rota_ids: null,
      }).expect(200);
      expect(res.body.data).toEqual({
        valid: false,
        failures: [
          failure('vol', true, [[org.teams.north!, 'North']]),
          failure('shifter', false, [[org.teams.north!, 'North']]),
        ],
      });
    });

    it('refuses both or neither of rota_ids and team_ids, unknown ids (listed once) and lists over their limits, each a 422 naming the list', async () => {
      expect(
        await fields(() =>
          validate('admin', { user_ids: [org.users.vol], rota_ids: [rotas.shop], team_ids: [org.teams.north] }),
        ),
      ).toEqual(['rota_ids', 'team_ids']);
      expect(await fields(() => validate('admin', { user_ids: [org.users.vol] }))).toEqual(['rota_ids', 'team_ids']);
      const unknown = await refused(
        () =>
          validate('admin', {
            user_ids: [org.users.vol, hill.users.other, 99_999_999, hill.users.other],
            rota_ids: [rotas.shop, rotas.south, rotas.theirs, rotas.theirs],
          }),
        422,
      );
      expect(unknown.errors).toEqual({
        user_ids: [expect.stringMatching(new RegExp(`: ${hill.users.other}, 99999999\\.$`))],
        rota_ids: [expect.stringMatching(new RegExp(`: ${rotas.south}, ${rotas.theirs}\\.$`))],
      });
      expect(
        (
          await refused(
            () => validate('admin', { user_ids: [org.users.vol], team_ids: [org.teams.south, hill.teams.t] }),
            422,
          )
        ).errors,
      ).toEqual({
        team_ids: [expect.stringMatching(new RegExp(`: ${org.teams.south}, ${hill.teams.t}\\.$`))],
      });
      const many = (n: number, id: number) => Array.from({ length: n }, () => id);
      expect(
        await fields(() => validate('admin', { user_ids: many(51, org.users.vol!), rota_ids: [rotas.shop] })),
      ).toEqual(['user_ids']);
      expect(
        await fields(() => validate('admin', { user_ids: [org.users.vol], rota_ids: many(501, rotas.shop!) })),
      ).toEqual(['rota_ids']);
      expect(
        await fields(() => validate('admin', { user_ids: [org.users.vol], team_ids: many(101, org.teams.north!) })),
      ).toEqual(['team_ids']);
      expect(await fields(() => validate('admin', { rota_ids: [rotas.shop] }))).toEqual(['user_ids']);
      expect(await fields(() => validate('admin', { user_ids: ['x'], rota_ids: [rotas.shop] }))).toEqual(['user_ids']);
    });
  });
});
