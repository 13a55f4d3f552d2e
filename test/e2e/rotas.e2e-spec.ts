import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ProjectionReplayer } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, hillsideFile, logIn, logInAll, provision, userFile } from '../support/test-app.js';
import { eventCount, expectRefused, refusedFields, tableChecksums } from '../support/nothing-written.js';

const ZONE = 'Europe/London';
type Slot = {
  weekday_start: string;
  start_time: string;
  weekday_end: string;
  end_time: string;
  min: number;
  ideal: number;
  max: number;
};
type RotaTimeslot = Slot & { id: number };
/** `date` plus `days` (calendar arithmetic, no zone involved). */
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const MONDAY: Slot = {
  weekday_start: 'monday',
  start_time: '09:00',
  weekday_end: 'monday',
  end_time: '12:00',
  min: 1,
  ideal: 2,
  max: 3,
};
const WEDNESDAY: Slot = {
  weekday_start: 'wednesday',
  start_time: '22:00',
  weekday_end: 'thursday',
  end_time: '02:00',
  min: 0,
  ideal: 1,
  max: 1,
};
type Timeline = { from: string; to: string | null; timeslots: RotaTimeslot[] }[];

/**
 * Rota administration over HTTP (docs/rota-domain.md#rotas): create (one rota per team, all or
 * nothing, one rota per team per day), list (includes, filters, sorts, visibility), update
 * (settings, contacts replaced, archived rotas refused), update timeslots, and rotas by team.
 * Every refusal leaves the log and the rota tables as they were; 403 within the organisation,
 * 404 outside it; concurrent creates for one team never leave two rotas on one day; replaying the
 * projection gives the same rows.
 */
describe('rotas: create, list, update, timeslots, rotas by team', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let org: ProvisionResult;
  let hill: ProvisionResult;
  let today: string;
  let pattern: number;
  let archivedPattern: number;
  let hillPattern: number;
  let hillRota: number;
  const tokens: Record<string, string> = {};
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  /** A refused request: its status, and nothing written (no event, the rota tables as they were). */
  const refused = (send: () => request.Test, status: number) =>
    expectRefused(ds, send, status, ['rotas', 'rota_contacts']);
  const errorKeys = (send: () => request.Test) => refusedFields(ds, send);
  const timeline = async (id: number): Promise<Timeline> =>
    (await ds.query('SELECT timeline FROM rotas WHERE id = $1', [id]))[0].timeline;

  const create = (who: string, body: object) => http().post('/api/rotas').set(as(who)).send(body);
  const update = (who: string, id: number | string, body: object) =>
    http().put(`/api/rotas/${id}`).set(as(who)).send(body);
  const timeslots = (who: string, id: number | string, body: object) =>
    http().put(`/api/rotas/${id}/timeslots`).set(as(who)).send(body);
  const list = async (who: string, query = '') =>
    (await http().get(`/api/rotas${query}`).set(as(who)).expect(200)).body.data as Record<string, unknown>[];
  /** A valid create body for `teams` (team keys of Riverside). */
  const body = (teams: string[], over: object = {}) => ({
    name: 'Mornings',
    start_date: '2090-01-06',
    pattern_id: pattern,
    team: teams.map((t) => ({ id: org.teams[t] })),
    ...over,
  });
  const createOne = async (team: string, over: object = {}) =>
    (await create('admin', body([team], over)).expect(201)).body.data[0] as { id: number } & Record<string, unknown>;

  /** A shift pattern of `who`'s organisation, through its route (archived through its DELETE). */
  async function seedPattern(who: string, slots: Slot[], archived = false): Promise<number> {
    const res = await http()
      .post('/api/shift-patterns')
      .set(as(who))
      .send({ name: `Pattern ${Math.random()}`, pattern: slots })
      .expect(201);
    if (archived) await http().delete(`/api/shift-patterns/${res.body.data.id}`).set(as(who)).expect(204);
    return res.body.data.id;
  }

  /** Archives a rota through the bulk action. */
  async function archive(id: number): Promise<void> {
    await http()
      .post('/api/rotas/bulk')
      .set(as('admin'))
      .send({ action: 'archive_rotas', rota_ids: [id] })
      .expect(204);
  }

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    ds = app.get(DataSource);
    today = todayIn(ZONE);
    org = await provision(app, {
      organisation: { name: 'Riverside', slug: 'riverside', timezone: ZONE },
      role_profiles: [
        { key: 'shop', name: 'Shop volunteer' },
        { key: 'cafe', name: 'Cafe volunteer' },
      ],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'north-shop', name: 'north shop', parent: 'north' },
        { key: 'north-cafe', name: 'North cafe', parent: 'north' },
        { key: 'south', name: 'South' },
        { key: 'race', name: 'Race' },
        { key: 'order', name: 'Order' },
        { key: 'free', name: 'Free' },
      ],
      users: [
        userFile('admin', ['manage-rotas'], ['north', 'south', 'race', 'order', 'free']),
        // manage-rotas over North shop only.
        userFile('shopadmin', ['manage-rotas'], ['north-shop']),
        userFile('vol', [], ['north-shop']),
        userFile('regional', ['add-user-shifts'], ['north']),
        userFile('c1', [], ['north-shop']),
        userFile('c2', [], ['south']),
        userFile('c3', [], ['north-cafe']),
      ],
    });
    hill = await provision(
      app,
      hillsideFile([userFile('other', ['manage-rotas'], ['t'], { domain: 'hillside' })], { timezone: ZONE }),
    );
    Object.assign(tokens, await logInAll(app, ['admin', 'shopadmin', 'vol', 'regional']));
    tokens.other = await logIn(app, 'other@hillside.example');
    pattern = await seedPattern('admin', [MONDAY, WEDNESDAY]);
    archivedPattern = await seedPattern('admin', [MONDAY], true);
    hillPattern = await seedPattern('other', [MONDAY]);
    hillRota = (
      await create('other', {
        name: 'Hill',
        start_date: '2090-01-06',
        pattern_id: hillPattern,
        team: [{ id: hill.teams.t }],
      }).expect(201)
    ).body.data[0].id;
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  describe('create', () => {
    it('makes one rota with the defaults, a palette colour and the pattern’s timeslots under new ids', async () => {
      const res = await create('admin', body(['north-shop'])).expect(201);
      expect(res.body.data).toHaveLength(1);
      const rota = res.body.data[0];
      expect(rota).toEqual({
        id: expect.any(Number),
        name: 'Mornings',
        start: '2090-01-06',
        end: null,
        team_id: org.teams['north-shop'],
        team_name: 'north shop',
        archived: false,
        colour: expect.stringMatching(/^#[0-9a-f]{6}$/),
        pattern_id: pattern,
        self_manage: false,
        allow_same_day_add: true,
        allow_same_day_cancel: false,
        allow_same_day_edit: false,
        restricted_by_role: false,
        role_profiles: [],
        require_full_timeslot: false,
      });
      const [version] = await timeline(rota.id);
      expect(version).toMatchObject({ from: '2090-01-06', to: null, timeslots: [{ ...MONDAY }, { ...WEDNESDAY }] });
      const patternIds = (
        await ds.query('SELECT timeslots FROM shift_patterns WHERE id = $1', [pattern])
      )[0].timeslots.map((t: RotaTimeslot) => t.id);
      expect(version!.timeslots.map((t) => t.id).some((id) => patternIds.includes(id))).toBe(false);
      const [{ type }] = await ds.query(`SELECT type FROM events WHERE stream_id = $1`, [
        `rotas.Team-${org.teams['north-shop']}`,
      ]);
      expect(type).toBe('rotas.TeamRotaAdded');
    });

    it('makes one rota per team, in the order of `team`, with every field, ids or { id } alike', async () => {
      const res = await create('admin', {
        name: 'Evenings',
        start_date: '2090-01-06',
        end_date: '2090-06-30',
        pattern_id: pattern,
        team: [org.teams.south, { id: org.teams.north }],
        self_manage: true,
        allow_same_day_add: false,
        allow_same_day_cancel: true,
        allow_same_day_edit: true,
        restricted_by_role: true,
        role_profiles: [org.role_profiles.cafe, { id: org.role_profiles.shop }],
        contacts: [{ id: org.users.c2 }, org.users.c1],
        colour: '#ABCDEF',
        require_full_timeslot: true,
      }).expect(201);
      const [south, north] = res.body.data;
      expect([south.team_id, north.team_id]).toEqual([org.teams.south, org.teams.north]);
      expect(south.id).not.toBe(north.id);
      for (const rota of [south, north]) {
        expect(rota).toMatchObject({
          name: 'Evenings',
          end: '2090-06-30',
          colour: '#abcdef',
          self_manage: true,
          allow_same_day_add: false,
          allow_same_day_cancel: true,
          allow_same_day_edit: true,
          restricted_by_role: true,
          role_profiles: [org.role_profiles.shop, org.role_profiles.cafe].sort((a, b) => a! - b!),
          require_full_timeslot: true,
        });
      }
      const [listed] = await list('admin', `?teams=${org.teams.south}&include=contacts`);
      expect((listed!.contacts as { user_id: number }[]).map((c) => c.user_id)).toEqual([org.users.c2, org.users.c1]);
    });

    it('is all or nothing: a refused team leaves the other teams without a rota', async () => {
      const before = (await list('admin')).length;
      const errors = (await refused(() => create('admin', body(['north-cafe', 'north-cafe'])), 422)).errors;
      expect(Object.keys(errors!)).toEqual(['team.1.id']);
      await refused(
        () => create('admin', { ...body(['north-cafe']), team: [{ id: org.teams['north-cafe'] }, hill.teams.t] }),
        422,
      );
      expect((await list('admin')).length).toBe(before);
    });

    it('refuses every broken rule with a 422 naming the field, writing nothing', async () => {
      const cases: [object, string[]][] = [
        [{}, ['name', 'pattern_id', 'start_date', 'team']],
        [body(['north-cafe'], { name: '' }), ['name']],
        [body(['north-cafe'], { name: '   ' }), ['name']],
        [body(['north-cafe'], { name: 'x'.repeat(256) }), ['name']],
        [body(['north-cafe'], { name: 7 }), ['name']],
        [body(['north-cafe'], { start_date: '2090-02-30' }), ['start_date']],
        [body(['north-cafe'], { end_date: '2090-01-05' }), ['end_date']],
        [body(['north-cafe'], { end_date: 'soon' }), ['end_date']],
        [body(['north-cafe'], { pattern_id: 999_999_999 }), ['pattern_id']],
        [body(['north-cafe'], { pattern_id: hillPattern }), ['pattern_id']],
        [body(['north-cafe'], { pattern_id: archivedPattern }), ['pattern_id']],
        [body(['north-cafe'], { pattern_id: 'one' }), ['pattern_id']],
        [body([], {}), ['team']],
        [body(['north-cafe'], { team: 'north' }), ['team']],
        [body(['north-cafe'], { team: [{ id: 0 }] }), ['team']],
        [body(['north-cafe'], { team: [{ id: 999_999_999 }] }), ['team.0.id']],
        [body(['north-cafe'], { team: [hill.teams.t] }), ['team.0']],
        [body(['north-cafe'], { restricted_by_role: true }), ['role_profiles']],
        [body(['north-cafe'], { restricted_by_role: true, role_profiles: [] }), ['role_profiles']],
        [
          body(['north-cafe'], { role_profiles: [999_999_999, { id: hill.role_profiles.shop }] }),
          ['role_profiles.0', 'role_profiles.1.id'],
        ],
        [body(['north-cafe'], { contacts: [{ id: hill.users.other }] }), ['contacts.0.id']],
        [body(['north-cafe'], { contacts: Array.from({ length: 51 }, () => org.users.c1) }), ['contacts']],
        [body(['north-cafe'], { colour: 'red' }), ['colour']],
        [body(['north-cafe'], { self_manage: 'yes' }), ['self_manage']],
        [body(['north-cafe'], { allow_same_day_add: null }), ['allow_same_day_add']],
        [body(['north-cafe'], { shoe_size: 9 }), ['shoe_size']],
      ];
      for (const [sent, keys] of cases)
        expect([sent, await errorKeys(() => create('admin', sent))]).toEqual([sent, keys]);
    });

    it('names a team of the organisation outside the caller’s manage-rotas reach as a 422 on its item', async () => {
      expect(
        await errorKeys(() => create('shopadmin', body(['north-shop', 'south'], { start_date: '2099-01-01' }))),
      ).toEqual(['team.1.id']);
    });
  });

  describe('one rota per team per day', () => {
    it(
      'ends the team’s running rota the day before a new one starts, in the same change; a later-starting ' +
        'rota clashes; archived rotas take no part',
      async () => {
        const first = await createOne('north-cafe', { start_date: '2090-01-01' });
        const before = await eventCount(ds);
        const second = await createOne('north-cafe', { start_date: '2090-03-01' });
        const cafe = async () =>
          Object.fromEntries(
            (await list('admin', `?teams=${org.teams['north-cafe']}&archived=false`)).map((r) => [r.id, r.end]),
          );
        expect(await cafe()).toEqual({ [first.id]: '2090-02-28', [second.id]: null });
        // One append: the new rota, the ended one and the team's record, in one transaction.
        expect(await eventCount(ds)).toBe(before + 3);
        const appended: { type: string; data: Record<string, unknown>; tx: string }[] = await ds.query(
          `SELECT type, data, transaction_id::text AS tx FROM events ORDER BY position DESC LIMIT 3`,
        );
        expect(appended.map((e) => e.type).sort()).toEqual([
          'rotas.RotaCreated',
          'rotas.RotaEnded',
          'rotas.TeamRotaAdded',
        ]);
        expect(new Set(appended.map((e) => e.tx)).size).toBe(1);
        expect(appended.find((e) => e.type === 'rotas.RotaEnded')!.data).toMatchObject({
          id: first.id,
          endDate: '2090-02-28',
          effectiveFrom: '2090-03-01',
          reason: 'superseded',
          supersededBy: second.id,
        });

        expect(await errorKeys(() => create('admin', body(['north-cafe'], { start_date: '2090-02-01' })))).toEqual([
          'team',
        ]);
        expect(
          await errorKeys(() =>
            create('admin', body(['north-cafe'], { start_date: '2090-03-01', end_date: '2090-03-01' })),
          ),
        ).toEqual(['team']);

        await archive(second.id);
        const third = await createOne('north-cafe', { start_date: '2090-02-15' });
        expect(await cafe()).toEqual({ [first.id]: '2090-02-14', [third.id]: null });
        expect(
          (await list('admin', `?teams=${org.teams['north-cafe']}&archived=true`)).map((r) => [r.id, r.end]),
        ).toEqual([[second.id, null]]);
      },
    );
  });

  describe('list', () => {
    let a: number;
    let b: number;
    let c: number;
    let archivedId: number;
    beforeAll(async () => {
      // Team "Order" gets rotas whose start and end dates and names sort differently.
      a = (await createOne('order', { name: 'beta', start_date: '2091-01-01', end_date: '2091-01-31' })).id;
      b = (
        await createOne('order', { name: 'Alpha', start_date: '2091-02-01', contacts: [org.users.c1, org.users.c3] })
      ).id;
      // North shop has a rota from 2090-01-06 on: this one ends it (one rota per team per day).
      c = (await createOne('north-shop', { name: 'gamma', start_date: '2098-05-05', end_date: '2098-12-31' })).id;
      archivedId = (await createOne('race', { name: 'Old', start_date: '2080-01-01' })).id;
      await archive(archivedId);
    });

    it(
      'lists what the caller sees, for everyone: a volunteer their team’s rotas, a regional user the teams ' +
        'below theirs, never another organisation’s',
      async () => {
        const teamsOf = async (who: string) => new Set((await list(who)).map((r) => r.team_id));
        expect(await teamsOf('vol')).toEqual(new Set([org.teams['north-shop']]));
        expect(await teamsOf('regional')).toEqual(
          new Set([org.teams.north, org.teams['north-shop'], org.teams['north-cafe']]),
        );
        expect(await teamsOf('shopadmin')).toEqual(new Set([org.teams['north-shop']]));
        expect((await teamsOf('admin')).has(org.teams.south)).toBe(true);
        expect((await list('other')).map((r) => r.id)).toEqual([hillRota]);
        expect((await list('admin')).map((r) => r.id)).not.toContain(hillRota);
      },
    );

    it('filters by teams (unseen teams left out) and archived (true: only archived; default: only the others)', async () => {
      expect((await list('admin', `?teams=${org.teams.order}`)).map((r) => r.id).sort()).toEqual([a, b].sort());
      expect(
        (await list('vol', `?teams=${org.teams.order},${org.teams['north-shop']}`)).every(
          (r) => r.team_id === org.teams['north-shop'],
        ),
      ).toBe(true);
      expect(await list('admin', `?teams=${hill.teams.t}`)).toEqual([]);
      expect((await list('admin', '?archived=true')).map((r) => r.id)).toContain(archivedId);
      expect((await list('admin', '?archived=true')).every((r) => r.archived === true)).toBe(true);
      expect((await list('admin')).map((r) => r.id)).not.toContain(archivedId);
      expect((await list('admin', '?archived=0')).map((r) => r.id)).not.toContain(archivedId);
    });

    it('sorts by each column in each direction, ties by id in the same direction; team_name desc by default', async () => {
      const ids = async (query: string) =>
        (await list('admin', `?teams=${org.teams.order},${org.teams['north-shop']}${query}`)).map(
          (r) => r.id as number,
        );
      const shop = (await list('admin', `?teams=${org.teams['north-shop']}`)).map((r) => r.id as number);
      const asc = [...shop].sort((x, y) => x - y);
      const desc = [...asc].reverse();
      // Teams "north shop" and "Order": names compare case-insensitively.
      expect(await ids('')).toEqual([...[b, a].sort((x, y) => y - x), ...desc]);
      expect(await ids('&s=team_name&o=asc')).toEqual([...asc, ...[a, b].sort((x, y) => x - y)]);
      const alpha = (await ids('&s=rota_title&o=asc')).filter((id) => [a, b, c].includes(id));
      expect(alpha).toEqual([b, a, c]);
      expect((await ids('&s=rota_title&o=d')).filter((id) => [a, b, c].includes(id))).toEqual([c, a, b]);
      expect((await ids('&s=start_date&o=asc')).filter((id) => [a, b, c].includes(id))).toEqual([a, b, c]);
      expect((await ids('&s=start_date&o=desc')).filter((id) => [a, b, c].includes(id))).toEqual([c, b, a]);
      // An open-ended rota sorts after every date.
      expect((await ids('&s=end_date&o=asc')).filter((id) => [a, b, c].includes(id))).toEqual([a, c, b]);
      expect((await ids('&s=end_date&o=desc')).filter((id) => [a, b, c].includes(id))).toEqual([b, c, a]);
    });

    it('includes the team, the caller’s permissions and the contacts on request', async () => {
      const [rota] = (
        await list('admin', `?teams=${org.teams.order}&include=team,permissions,contacts&s=rota_title&o=asc`)
      ).filter((r) => r.id === b);
      expect(rota!.team).toEqual({
        id: String(org.teams.order),
        parent_id: null,
        name: 'Order',
        description: '',
        geo_location: '',
        catchment_area_id: '',
        icon: '',
        show_on_public_site: false,
        ceiling_enabled: false,
        hidden: false,
        disabled: false,
      });
      expect(rota!.permissions).toEqual({
        can_view_rota: true,
        can_add_shifts_to_self: true,
        can_add_shifts_to_others: true,
        can_edit_other_shifts: true,
        can_cancel_other_shifts: true,
        can_override_rota: true,
        allowed_roles: [],
        allow_same_day_add: true,
        allow_same_day_cancel: false,
        allow_same_day_edit: false,
      });
      expect(rota!.contacts).toEqual([
        {
          id: expect.any(Number),
          user_id: org.users.c1,
          user: expect.objectContaining({ id: org.users.c1, display_name: 'c1' }),
        },
        {
          id: expect.any(Number),
          user_id: org.users.c3,
          user: expect.objectContaining({ id: org.users.c3, display_name: 'c3' }),
        },
      ]);
      const [volView] = await list('vol', `?include=permissions&teams=${org.teams['north-shop']}`);
      expect(volView!.permissions).toMatchObject({
        can_view_rota: true,
        can_add_shifts_to_self: false,
        can_add_shifts_to_others: false,
        can_override_rota: false,
      });
      const [plain] = await list('admin', `?teams=${org.teams.order}`);
      expect(Object.keys(plain!)).not.toEqual(expect.arrayContaining(['team']));
      expect(plain).not.toHaveProperty('permissions');
      expect(plain).not.toHaveProperty('contacts');
    });

    it('refuses unknown sorts, directions, includes, booleans and ids with a 422 naming the parameter', async () => {
      for (const [query, key] of [
        ['s=name', 's'],
        ['o=up', 'o'],
        ['include=team,users', 'include'],
        ['archived=maybe', 'archived'],
        ['teams=1,x', 'teams'],
      ]) {
        const res = await http().get(`/api/rotas?${query}`).set(as('vol')).expect(422);
        expect(Object.keys(res.body.errors)).toEqual([key]);
      }
    });
  });

  describe('update', () => {
    let rota: { id: number } & Record<string, unknown>;
    beforeAll(async () => {
      rota = await createOne('south', { start_date: '2092-01-01', contacts: [org.users.c1, org.users.c2] });
    });
    const contactsOf = async (id: number) =>
      (await list('admin', `?teams=${org.teams.south}&include=contacts`)).find((r) => r.id === id)!.contacts as {
        id: number;
        user_id: number;
      }[];

    it('answers the short rota after the change, and records only what changed', async () => {
      const res = await update('admin', rota.id, {
        name: 'Renamed',
        colour: '#00FF00',
        self_manage: true,
        allow_same_day_add: true,
        allow_same_day_edit: true,
      }).expect(200);
      expect(res.body).toEqual({
        data: {
          id: rota.id,
          name: 'Renamed',
          start: '2092-01-01',
          end: null,
          colour: '#00ff00',
          self_manage_allowed: true,
          allow_same_day_add: true,
          allow_same_day_cancel: false,
          allow_same_day_edit: true,
        },
      });
      const [changed] = await ds.query(
        `SELECT data FROM events WHERE stream_id = $1 AND type = 'rotas.RotaChanged' ORDER BY position DESC LIMIT 1`,
        [`rotas.Rota-${rota.id}`],
      );
      expect(changed.data.changes).toEqual({
        name: 'Renamed',
        colour: '#00ff00',
        selfManage: true,
        allowSameDayEdit: true,
      });
      const before = await eventCount(ds);
      await update('admin', rota.id, { name: 'Renamed', colour: null, self_manage: null, contacts: null }).expect(200);
      expect(await eventCount(ds)).toBe(before);
    });

    it(
      'replaces the contact set with `contacts`: users left out removed, new ones added, staying ones keep ' +
        'their record; null or absent leaves it',
      async () => {
        const [c1] = await contactsOf(rota.id);
        await update('admin', rota.id, { contacts: [{ id: org.users.c3 }, org.users.c1] }).expect(200);
        const now = await contactsOf(rota.id);
        expect(now.map((c) => c.user_id)).toEqual([org.users.c1, org.users.c3]);
        expect(now[0]!.id).toBe(c1!.id);
        await update('admin', rota.id, { name: 'Still' }).expect(200);
        expect((await contactsOf(rota.id)).map((c) => c.user_id)).toEqual([org.users.c1, org.users.c3]);
        await update('admin', rota.id, { contacts: [] }).expect(200);
        expect(await contactsOf(rota.id)).toEqual([]);
      },
    );

    it('sets role restriction and role profiles (ids or { id }); a restricted rota needs role profiles', async () => {
      expect(await errorKeys(() => update('admin', rota.id, { restricted_by_role: true }))).toEqual(['role_profiles']);
      await update('admin', rota.id, {
        restricted_by_role: true,
        role_profiles: [{ id: org.role_profiles.cafe }],
      }).expect(200);
      const [listed] = (await list('admin', `?teams=${org.teams.south}&include=permissions`)).filter(
        (r) => r.id === rota.id,
      );
      expect(listed).toMatchObject({
        restricted_by_role: true,
        role_profiles: [org.role_profiles.cafe],
        permissions: { allowed_roles: [org.role_profiles.cafe] },
      });
      expect(await errorKeys(() => update('admin', rota.id, { role_profiles: [] }))).toEqual(['role_profiles']);
    });

    it('refuses bad fields with a 422 naming them, writing nothing', async () => {
      const cases: [object, string[]][] = [
        [{ name: '' }, ['name']],
        [{ name: 'x'.repeat(256) }, ['name']],
        [{ colour: 'blue' }, ['colour']],
        [{ allow_same_day_add: 'no' }, ['allow_same_day_add']],
        [{ contacts: [hill.users.other] }, ['contacts.0']],
        [{ role_profiles: [{ id: 999_999_999 }] }, ['role_profiles.0.id']],
        [{ end_date: '2093-01-01' }, ['end_date']],
        [{ start_date: '2093-01-01' }, ['start_date']],
      ];
      for (const [sent, keys] of cases)
        expect([sent, await errorKeys(() => update('admin', rota.id, sent))]).toEqual([sent, keys]);
    });

    it('refuses every change of an archived rota with a 409', async () => {
      const old = await createOne('race', { start_date: '2093-01-01' });
      await archive(old.id);
      await refused(() => update('admin', old.id, { name: 'Back' }), 409);
      await refused(() => update('admin', old.id, { contacts: [org.users.c1] }), 409);
      await refused(() => update('admin', old.id, {}), 409);
      await refused(() => timeslots('admin', old.id, { from: '2093-02-01', weekdays: {} }), 409);
    });
  });

  describe('update timeslots', () => {
    let rota: { id: number };
    beforeAll(async () => {
      rota = await createOne('north', { start_date: '2094-01-04' });
    });

    it('writes the weekdays over [from, to] (204): the timeline has the new set with new ids, what stood after `to` stands again', async () => {
      const [old] = await timeline(rota.id);
      await timeslots('admin', rota.id, {
        from: '2094-02-01',
        to: '2094-02-28',
        weekdays: { tuesday: [{ start_time: '18:00', end_time: '02:00', min: 0, ideal: 1, max: 2 }], monday: [] },
      })
        .expect(204)
        .expect((res) => expect(res.text).toBe(''));
      const after = await timeline(rota.id);
      expect(after).toEqual([
        { ...old, to: '2094-01-31' },
        {
          from: '2094-02-01',
          to: '2094-02-28',
          timeslots: [
            {
              id: expect.any(Number),
              weekday_start: 'tuesday',
              start_time: '18:00',
              weekday_end: 'wednesday',
              end_time: '02:00',
              min: 0,
              ideal: 1,
              max: 2,
            },
          ],
        },
        { ...old, from: '2094-03-01' },
      ]);
      expect(old!.timeslots.map((t) => t.id)).not.toContain(after[1]!.timeslots[0]!.id);
      const [event] = await ds.query(
        `SELECT data FROM events WHERE stream_id = $1 AND type = 'rotas.RotaTimeslotsChanged'`,
        [`rotas.Rota-${rota.id}`],
      );
      expect(event.data).toMatchObject({
        id: rota.id,
        effectiveFrom: '2094-02-01',
        from: '2094-02-01',
        to: '2094-02-28',
        calendar: { startDate: '2094-01-04', timeline: after },
      });
    });

    it('without `to`, replaces everything from `from` on; an empty weekdays object closes every weekday', async () => {
      await timeslots('admin', rota.id, { from: '2094-02-15', weekdays: {} }).expect(204);
      const after = await timeline(rota.id);
      expect(after.map((v) => [v.from, v.to, v.timeslots.length])).toEqual([
        ['2094-01-04', '2094-01-31', 2],
        ['2094-02-01', '2094-02-14', 1],
        ['2094-02-15', null, 0],
      ]);
    });

    it('refuses a past `from`, a `to` before it and broken timeslots with one 422 naming each, writing nothing', async () => {
      const yesterday = addDays(today, -1);
      expect(await errorKeys(() => timeslots('admin', rota.id, { from: yesterday, weekdays: {} }))).toEqual(['from']);
      expect(
        await errorKeys(() => timeslots('admin', rota.id, { from: '2094-03-01', to: '2094-02-01', weekdays: {} })),
      ).toEqual(['to']);
      const weekdays = {
        monday: [{ start_time: '09:00', end_time: '25:00', min: 1, ideal: 1, max: 1 }],
        friday: [{ start_time: '09:00', end_time: '10:00', min: 2, ideal: 1, max: 3 }],
        someday: [],
      };
      expect(await errorKeys(() => timeslots('admin', rota.id, { from: yesterday, weekdays }))).toEqual([
        'from',
        'weekdays.friday.0.min',
        'weekdays.monday.0.end_time',
        'weekdays.someday',
      ]);
      expect(await errorKeys(() => timeslots('admin', rota.id, { from: '2094-03-01' }))).toEqual(['weekdays']);
      expect(await errorKeys(() => timeslots('admin', rota.id, { from: '2094-03-01', weekdays: [] }))).toEqual([
        'weekdays',
      ]);
      expect(await errorKeys(() => timeslots('admin', rota.id, { weekdays: {} }))).toEqual(['from']);
      const overlapping = {
        sunday: [{ start_time: '22:00', end_time: '06:00', min: 1, ideal: 1, max: 1 }],
        monday: [{ start_time: '05:00', end_time: '07:00', min: 1, ideal: 1, max: 1 }],
      };
      expect(await errorKeys(() => timeslots('admin', rota.id, { from: '2094-03-01', weekdays: overlapping }))).toEqual(
        ['weekdays.sunday.0'],
      );
    });
  });

  describe('who may', () => {
    let south: number;
    beforeAll(async () => {
      south = (await createOne('south', { start_date: '2095-01-01' })).id;
    });

    it('a user without manage-rotas gets a 403 on every administration route, whatever the body or id', async () => {
      for (const who of ['vol', 'regional']) {
        await refused(() => create(who, body(['north-shop'])), 403);
        await refused(() => create(who, {}), 403);
        await refused(() => update(who, south, { name: 'x' }), 403);
        await refused(() => update(who, 999_999_999, {}), 403);
        await refused(() => timeslots(who, south, { from: '2095-02-01', weekdays: {} }), 403);
      }
    });

    it('a manager whose reach does not cover the rota’s team gets a 403; another organisation’s rota or an unknown id is a 404', async () => {
      await refused(() => update('shopadmin', south, { name: 'x' }), 403);
      await refused(() => timeslots('shopadmin', south, { from: '2095-02-01', weekdays: {} }), 403);
      for (const id of [hillRota, 999_999_999, 'abc']) {
        await refused(() => update('admin', id, { name: 'x' }), 404);
        await refused(() => timeslots('admin', id, { from: '2095-02-01', weekdays: {} }), 404);
      }
      await refused(() => update('other', south, { name: 'x' }), 404);
      await refused(() => timeslots('other', south, { from: '2095-02-01', weekdays: {} }), 404);
    });
  });

  describe('rotas by team', () => {
    const byTeam = async (who: string, query = '') =>
      (await http().get(`/api/rota/teams${query}`).set(as(who)).expect(200)).body.data as {
        id: number;
        name: string;
        icon: string;
        rotas: { id: number }[];
      }[];
    let early: number;
    let late: number;
    beforeAll(async () => {
      early = (await createOne('race', { name: 'Early', start_date: '2096-01-01', end_date: '2096-01-31' })).id;
      late = (await createOne('race', { name: 'Late', start_date: '2096-03-01' })).id;
    });
    const raceRotas = async (query: string) =>
      (await byTeam('admin', query)).find((t) => t.id === org.teams.race)?.rotas.map((r) => r.id) ?? null;

    it('lists the teams the caller sees with their rotas active on active_on or on a day of active_between (inclusive), archived ones never', async () => {
      expect(await raceRotas('?active_on=2096-01-31')).toEqual([early]);
      expect(await raceRotas('?active_on=2096-02-15')).toBeNull();
      expect(await raceRotas('?active_on=2096-03-01')).toEqual([late]);
      expect(await raceRotas('?active_between=2096-01-31,2096-03-01')).toEqual([early, late]);
      expect(await raceRotas('?active_between=2096-02-01,2096-02-29')).toBeNull();
      expect(await raceRotas('?active_on=2096-01-15&active_between=2096-01-01,2096-01-20')).toEqual([early]);
      expect(await raceRotas('?active_on=2096-01-15&active_between=2096-03-01,2096-03-02')).toBeNull();
      const all = await raceRotas('');
      expect(all).toEqual(expect.arrayContaining([early, late]));
      const archivedIds = (await list('admin', '?archived=true')).map((r) => r.id);
      expect(
        (await byTeam('admin')).flatMap((t) => t.rotas.map((r) => r.id)).some((id) => archivedIds.includes(id)),
      ).toBe(false);
    });

    it('answers Rota team entries, teams by name then id, and only teams the caller sees', async () => {
      const teams = await byTeam('admin', '?active_on=2096-01-15');
      expect(teams.find((t) => t.id === org.teams.race)).toEqual({
        id: org.teams.race,
        name: 'Race',
        icon: '',
        rotas: [
          {
            id: early,
            name: 'Early',
            start: '2096-01-01',
            end: '2096-01-31',
            colour: expect.stringMatching(/^#[0-9a-f]{6}$/),
            self_manage_allowed: false,
            allow_same_day_add: true,
            allow_same_day_cancel: false,
            allow_same_day_edit: false,
          },
        ],
      });
      const names = (await byTeam('admin')).map((t) => t.name.toLowerCase());
      expect(names).toEqual([...names].sort());
      expect(new Set((await byTeam('vol')).map((t) => t.id))).toEqual(new Set([org.teams['north-shop']]));
      expect((await byTeam('other')).map((t) => t.id)).toEqual([hill.teams.t]);
    });

    it('refuses a malformed active_on or active_between with a 422 naming it', async () => {
      for (const [query, key] of [
        ['active_on=2096-02-30', 'active_on'],
        ['active_on=today', 'active_on'],
        ['active_between=2096-01-01', 'active_between'],
        ['active_between=2096-01-01,2096-13-01', 'active_between'],
        ['active_between=2096-02-01,2096-01-01', 'active_between'],
        ['active_between=2096-01-01,2096-01-02,2096-01-03', 'active_between'],
      ]) {
        const res = await http().get(`/api/rota/teams?${query}`).set(as('vol')).expect(422);
        expect([query, Object.keys(res.body.errors)]).toEqual([query, [key]]);
      }
    });
  });

  describe('concurrent creates for one team', () => {
    it('never leave two rotas of the team on one day: each request either makes its rota or is refused (409 or 422)', async () => {
      const starts = ['2097-01-01', '2097-01-01', '2097-03-01', '2097-02-01', '2097-05-01', '2097-01-01'];
      const before = await list('admin', `?teams=${org.teams.free}`);
      const results = await Promise.all(starts.map((start_date) => create('admin', body(['free'], { start_date }))));
      const statuses = results.map((r) => r.status);
      expect(statuses.every((s) => [201, 409, 422].includes(s))).toBe(true);
      const made = results.filter((r) => r.status === 201).map((r) => r.body.data[0].id as number);
      expect(made.length).toBeGreaterThanOrEqual(1);
      const after = (await list('admin', `?teams=${org.teams.free}`)).filter((r) => !before.some((b) => b.id === r.id));
      expect(after.map((r) => r.id).sort()).toEqual([...made].sort());
      const live = await list('admin', `?teams=${org.teams.free}`);
      for (const x of live) {
        for (const y of live) {
          if (x.id === y.id) continue;
          const overlap =
            (x.start as string) <= ((y.end as string | null) ?? '9999-12-31') &&
            (y.start as string) <= ((x.end as string | null) ?? '9999-12-31');
          expect([x.id, y.id, overlap]).toEqual([x.id, y.id, false]);
        }
      }
    });
  });

  it('replaying the rota projection gives the same rows (checksums)', async () => {
    const sums = () => tableChecksums(ds, ['rotas', 'rota_contacts']);
    const live = await sums();
    expect(live.rotas!.n).toBeGreaterThan(10);
    await app.get(ProjectionReplayer).replay(['rotas.rotas']);
    expect(await sums()).toEqual(live);
  });
});
