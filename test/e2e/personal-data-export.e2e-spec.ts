import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { ProvisionResult } from '#app/identity';
import { openRota } from '../support/rota-client.js';
import { runCli } from '../support/run-cli.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, hillsideFile, logIn, provision, riversideFile, userFile } from '../support/test-app.js';

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

/** Every key of a JSON value, at any depth. */
const keysOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(keysOf)
    : value && typeof value === 'object'
      ? Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)])
      : [];

const withoutGeneratedAt = ({ generated_at, ...rest }: Record<string, unknown>) => {
  expect(generated_at).toMatch(ISO);
  return rest;
};

/**
 * docs/privacy.md#access-and-portability over HTTP and the CLI, in both modes: a user with shifts
 * (one cancelled, one with attendance recorded by a manager), an expense with an attachment, a
 * claim approved by someone else, a file and a calendar feed gets them all back, the records as the
 * routes render them, other people by id only and no secret; who else may read it (403 / 404); the
 * CLI's users:export prints the same data.
 */
describe('personal-data export (GET /api/users/me|{id}/personal-data, users:export)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication | undefined;
  let org: ProvisionResult;
  let hillside: ProvisionResult;
  const tokens: Record<string, string> = {};
  const http = () => request(app!.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const ids: { booked: number; cancelled: number; expense: number; claim: number; file: number } = {
    booked: 0,
    cancelled: 0,
    expense: 0,
    claim: 0,
    file: 0,
  };
  let feedToken = '';
  /** Just before and just after the cancellation. */
  const cancelling = [0, 0];
  let vol = 0;
  let boss = 0;

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    org = await provision(
      app,
      riversideFile([
        userFile('vol', ['create-expenses'], ['north-shop'], {
          name: 'Val Volunteer',
          title: 'Ms',
          phone: '+447700900123',
        }),
        userFile('boss', ['manage-rotas', 'add-user-shifts', 'approve-claims', 'edit-expense-settings'], ['north'], {
          name: 'Bertha Boss',
        }),
        userFile('dpo', ['manage-data-protection'], ['north'], { name: 'Dora Officer' }),
        userFile('southern', ['manage-data-protection'], ['south']),
        userFile('peer', [], ['north-shop']),
      ]),
    );
    hillside = await provision(
      app,
      hillsideFile([{ ...userFile('other', ['manage-data-protection'], ['t']), email: 'other@hillside.example' }]),
    );
    for (const who of ['vol', 'boss', 'dpo', 'southern', 'peer'])
      tokens[who] = await logIn(app, `${who}@riverside.example`);
    tokens.other = await logIn(app, 'other@hillside.example');
    vol = org.users.vol!;
    boss = org.users.boss!;

    const rota = await openRota(http, as('boss'), {
      name: 'Shop',
      teamId: org.teams['north-shop']!,
      startDate: day(-40),
    });
    const book = async (date: string) =>
      (
        await http()
          .post('/api/rota/shifts')
          .set(as('boss'))
          .send({
            rota: { id: rota },
            user: { id: vol },
            start_datetime: `${date} 09:00`,
            end_datetime: `${date} 12:00`,
          })
          .expect(201)
      ).body.data.id as number;
    ids.booked = await book(day(-2));
    await http()
      .put(`/api/rota/shifts/${ids.booked}/attendance`)
      .set(as('boss'))
      .send({ status: 'attended', note: 'Opened up' })
      .expect(200);
    ids.cancelled = await book(day(5));
    cancelling[0] = Date.now();
    await http().delete(`/api/rota/shifts/${ids.cancelled}`).set(as('boss')).expect(204);
    cancelling[1] = Date.now();

    const type = (
      await http().post('/api/expenses/types').set(as('boss')).send({ name: 'Travel', position: 1 }).expect(201)
    ).body;
    ids.file = (
      await http().post('/api/files').set(as('vol')).attach('file', PDF, 'ticket.pdf').expect(201)
    ).body.data.id;
    ids.expense = (
      await http()
        .post('/api/expenses')
        .set(as('vol'))
        .send({ type: { id: type.id }, date: day(-3), amount: 12.5, description: 'Bus to the shop' })
        .expect(201)
    ).body.id;
    await http().put(`/api/users/${vol}/expenses/${ids.expense}/attachments/${ids.file}`).set(as('vol')).expect(200);
    ids.claim = (
      await http()
        .post('/api/claims')
        .set(as('vol'))
        .send({ assignedTo: { id: boss }, expenses: [{ id: ids.expense }], notes: 'March' })
        .expect(201)
    ).body.id;
    await http()
      .put(`/api/users/${vol}/claims/${ids.claim}`)
      .set(as('boss'))
      .send({ approved: true, approval_note: 'ok' })
      .expect(200);
    const feedUrl: string = (await http().post('/api/users/me/calendar-feed').set(as('vol')).expect(201)).body.data.url;
    feedToken = /\/calendar\/([^/]+)\.ics$/.exec(new URL(feedUrl).pathname)![1]!;
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  const mine = async () => (await http().get('/api/users/me/personal-data').set(as('vol')).expect(200)).body;

  it('answers the caller’s record, roles, shifts (the cancelled one with cancelled_at), expenses, claims, files, log-ins and feeds', async () => {
    const { data } = await mine();
    expect(data.user).toEqual({
      id: vol,
      email: 'vol@riverside.example',
      display_name: 'Val Volunteer',
      title: 'Ms',
      phone: '+447700900123',
      status: { id: 'active', name: 'Active', contactable: true },
      two_factor: null,
      created_at: expect.stringMatching(ISO),
    });
    expect(data.roles).toEqual([
      {
        team: { id: org.teams['north-shop'], name: 'North shop' },
        role_profile: { id: org.role_profiles.shop, name: 'Shop volunteer' },
      },
    ]);
    // The records as the routes render them for the user (a manager's user summary only by id).
    const booked = (await http().get(`/api/rota/shifts/${ids.booked}`).set(as('vol')).expect(200)).body.data;
    expect(booked.attendance.recorded_by.id).toBe(boss);
    expect(data.shifts).toEqual([
      { ...booked, attendance: { ...booked.attendance, recorded_by: { id: boss } }, cancelled_at: null },
      expect.objectContaining({ id: ids.cancelled, user: booked.user, cancelled_at: expect.stringMatching(ISO) }),
    ]);
    await http().get(`/api/rota/shifts/${ids.cancelled}`).set(as('vol')).expect(404); // gone from the rota, not from the export
    const cancelledAt = Date.parse(data.shifts[1].cancelled_at);
    expect(cancelledAt).toBeGreaterThanOrEqual(cancelling[0]! - 1000);
    expect(cancelledAt).toBeLessThanOrEqual(cancelling[1]! + 1000);
    const expense = (await http().get(`/api/users/${vol}/expenses/${ids.expense}`).set(as('vol')).expect(200)).body;
    const claim = (await http().get(`/api/users/${vol}/claims/${ids.claim}`).set(as('vol')).expect(200)).body;
    expect(data.expenses).toEqual([expense]);
    expect(data.claims).toEqual([claim]);
    expect(data.claims[0]).toMatchObject({
      assigned_to_id: boss,
      approved_by_id: boss,
      approval_note: 'ok',
      notes: 'March',
    });
    expect(data.files).toEqual([
      { id: ids.file, name: 'ticket.pdf', size: PDF.length, created_at: expect.stringMatching(ISO) },
    ]);
    expect(data.logins).toEqual([{ at: expect.stringMatching(ISO) }]);
    expect(data.calendar_feeds).toEqual([{ created_at: expect.stringMatching(ISO) }]);
    expect(data.generated_at).toMatch(ISO);
  });

  it('names other people by id only, and holds no secret (password hash, feed token, second-factor key)', async () => {
    const { data } = await mine();
    const text = JSON.stringify(data);
    const [row] = await app!.get(DataSource).query(`SELECT password_hash FROM users WHERE id = $1`, [vol]);
    expect(row.password_hash).toMatch(/^\$argon2/);
    expect(text).not.toContain(row.password_hash);
    expect(text).not.toContain(feedToken);
    expect(text).not.toMatch(/argon2/);
    for (const key of keysOf(data)) expect(key).not.toMatch(/password|secret|token|totp|permissions/);
    for (const them of ['Bertha Boss', 'boss@riverside.example', 'Dora Officer']) expect(text).not.toContain(them);
    expect(text).toContain(`"recorded_by":{"id":${boss}}`);
  });

  it('GET /api/users/{id}/personal-data: the user’s own id as me; manage-data-protection over them; else 403, 404 outside', async () => {
    const me = withoutGeneratedAt((await mine()).data);
    const own = (await http().get(`/api/users/${vol}/personal-data`).set(as('vol')).expect(200)).body.data;
    expect(withoutGeneratedAt(own)).toEqual(me);
    const byOfficer = (await http().get(`/api/users/${vol}/personal-data`).set(as('dpo')).expect(200)).body.data;
    expect(withoutGeneratedAt(byOfficer)).toEqual(me);
    // The officer's own export: theirs, not the user's.
    expect(
      (await http().get(`/api/users/${org.users.dpo}/personal-data`).set(as('dpo')).expect(200)).body.data.user.id,
    ).toBe(org.users.dpo);
    // manage-data-protection over another team, or no permission: 403; the user's manager through other permissions: 403.
    for (const who of ['southern', 'peer', 'boss']) {
      const res = await http().get(`/api/users/${vol}/personal-data`).set(as(who)).expect(403);
      expect(res.body).toEqual({ message: expect.stringMatching(/manage-data-protection/), status_code: 403 });
    }
    await http().get(`/api/users/${vol}/personal-data`).set(as('other')).expect(404);
    await http().get(`/api/users/${hillside.users.other}/personal-data`).set(as('dpo')).expect(404);
    await http().get('/api/users/999999/personal-data').set(as('dpo')).expect(404);
    await http().get('/api/users/abc/personal-data').set(as('dpo')).expect(404);
    await http().get(`/api/users/${vol}/personal-data`).expect(401);
    await http().get('/api/users/me/personal-data').expect(401);
  });

  it('users:export <email or id> prints the same data as the route; an unknown user exits 2', async () => {
    const route = withoutGeneratedAt((await mine()).data);
    if (env.embedded) {
      // One process at a time may have the embedded database open.
      await app!.close();
      app = undefined;
    }
    for (const reference of ['VOL@riverside.example', String(vol)]) {
      const run = await runCli(env, ['users:export', reference]);
      expect({ code: run.code, lines: run.stdout.trimEnd().split('\n').length }).toEqual({ code: 0, lines: 1 });
      expect(withoutGeneratedAt(JSON.parse(run.stdout))).toEqual(route);
    }
    for (const reference of ['nobody@riverside.example', '999999']) {
      const run = await runCli(env, ['users:export', reference]);
      expect({ code: run.code, stdout: run.stdout, stderr: run.stderr.trim() }).toEqual({
        code: 2,
        stdout: '',
        stderr: `users:export: no user has the e-mail address or id "${reference}"`,
      });
    }
  }, 240_000);
});
