import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ProjectionRegistry, ProjectionReplayer } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { eventually } from '../support/eventually.js';
import { mailText, startMailCatcher } from '../support/mail-catcher.js';
import { eventCount, expectRefused, refusedFields } from '../support/nothing-written.js';
import { querySql, runCli } from '../support/run-cli.js';
import {
  bootStandalone,
  hillsideFile,
  logIn,
  provision,
  subscribeWebhooks,
  TEST_PASSWORD,
  userFile,
} from '../support/test-app.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';

const ZONE = 'Europe/London';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const NEXT = Object.fromEntries(WEEKDAYS.map((d, i) => [d, WEEKDAYS[(i + 1) % 7]!]));
const plusDays = (date: string, n: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days: n }).toISODate()!;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const address = (key: string) => `${key}@riverside.example`;
/** Every read table an anonymisation writes: a refused request leaves each as it was. */
const TABLES = ['users', 'sessions', 'rota_shifts', 'rota_repeating_shifts', 'rota_contacts', 'expenses', 'claims'];
const ANONYMISED_STATUS = { id: 'anonymised', name: 'Anonymised', contactable: false };

/**
 * docs/privacy.md#anonymising-a-user over HTTP and the CLI, in both modes: a volunteer with past and
 * future shifts, a series, attendance with a note, an expense with a description and an attachment, a
 * claim with notes and a calendar feed is anonymised by their data-protection officer; every effect
 * is checked right after the answer (read-your-writes). The refusals (403, 404, 409, 422) change
 * nothing; a user's own request needs their password; `users:anonymise` and `privacy:anonymised`.
 */
describe('anonymising a user (issue 32)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication | undefined;
  let ds: DataSource;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let org: ProvisionResult;
  let hill: ProvisionResult;
  let rota = 0;
  const tokens: Record<string, string> = {};
  const today = todayIn(ZONE);
  const http = () => request(app!.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const user = (key: string, permissions: string[], teams: string[]) =>
    userFile(key, permissions, teams, { name: `${key} name`, title: `${key} title`, phone: '+447700900123' });
  const anonymise = (who: string, id: number | string) => http().post(`/api/users/${id}/anonymise`).set(as(who));
  const refused = (send: () => request.Test, status: number) => expectRefused(ds, send, status, TABLES);

  const seen: {
    vol: number;
    past: number;
    future: number;
    series: number;
    seriesShifts: number[];
    expense: number;
    claim: number;
    file: number;
    feed: string;
    preAuth: string;
    refresh: string;
    anonymisedAt: string;
  } = {} as never;

  beforeAll(async () => {
    mail = await startMailCatcher();
    env = await testEnvironment(
      { SMTP_URL: mail.url, AUTH_RATE_LIMIT_PER_ADDRESS: '100000' },
      { operatorFeatures: true },
    );
    app = await bootStandalone(env.config);
    ds = app.get(DataSource);
    org = await provision(app, {
      organisation: { name: 'Riverside', slug: 'riverside', timezone: ZONE, features: ['rota_v2'] },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'shop', name: 'Shop', parent: 'north' },
        { key: 'south', name: 'South' },
      ],
      users: [
        user(
          'dpo',
          [
            'manage-data-protection',
            'manage-rotas',
            'add-user-shifts',
            'approve-claims',
            'edit-expense-settings',
            'manage-integrations',
          ],
          ['north'],
        ),
        user('shifter', ['add-user-shifts', 'manage-rotas'], ['north']),
        user('southdpo', ['manage-data-protection'], ['south']),
        user('contact', [], ['shop']),
        user('vol', ['create-expenses'], ['shop']),
        user('self', [], ['shop']),
        user('posted', [], ['shop']),
      ],
    });
    hill = await provision(app, hillsideFile([userFile('far', [], ['t'], { domain: 'hillside' })]));
    for (const key of ['dpo', 'shifter', 'southdpo', 'contact', 'vol', 'self', 'posted'])
      tokens[key] = await logIn(app, address(key));
    seen.vol = org.users.vol!;
    await subscribeWebhooks(app, tokens.dpo!, env.webhookReceiver);

    // A rota open all day every day, since a week ago, with `contact` as its contact.
    const pattern = WEEKDAYS.map((d) => ({
      weekday_start: d,
      start_time: '00:00',
      weekday_end: NEXT[d],
      end_time: '00:00',
      min: 1,
      ideal: 1,
      max: 5,
    }));
    const patternId = (
      await http().post('/api/shift-patterns').set(as('dpo')).send({ name: 'Days', pattern }).expect(201)
    ).body.data.id;
    rota = (
      await http()
        .post('/api/rotas')
        .set(as('dpo'))
        .send({
          name: 'Café',
          start_date: plusDays(today, -7),
          pattern_id: patternId,
          team: [{ id: org.teams.shop }],
          self_manage: true,
          contacts: [org.users.contact, org.users.vol],
        })
        .expect(201)
    ).body.data[0].id;
    const book = async (date: string, from: string, to: string, recurrence?: object) =>
      (
        await http()
          .post('/api/rota/shifts')
          .set(as('dpo'))
          .send({
            rota: { id: rota },
            user: { id: seen.vol },
            start_datetime: `${date} ${from}`,
            end_datetime: `${date} ${to}`,
            ...(recurrence && {
              recurrence_pattern: { recurrence_period: 'week', recurrence_frequency: 1, ...recurrence },
            }),
          })
          .expect(201)
      ).body.data;
    seen.past = (await book(plusDays(today, -2), '10:00', '12:00')).id;
    await http()
      .put(`/api/rota/shifts/${seen.past}/attendance`)
      .set(as('dpo'))
      .send({ status: 'attended', note: 'Opened up, spoke of their health' })
      .expect(200);
    seen.future = (await book(plusDays(today, 3), '10:00', '12:00')).id;
    const first = await book(plusDays(today, 2), '14:00', '16:00', { end_date: plusDays(today, 30) });
    seen.series = first.recurrence_pattern.id;
    // The worker books the series' other occurrences: wait until it has, so nothing moves under the refusals.
    await eventually(async () => {
      const [row] = await ds.query(`SELECT generated_until >= until AS done FROM rota_repeating_shifts WHERE id = $1`, [
        seen.series,
      ]);
      return row?.done === true;
    }, 60_000);
    seen.seriesShifts = (
      await ds.query(`SELECT id::int FROM rota_shifts WHERE series_id = $1 AND status = 'booked' ORDER BY id`, [
        seen.series,
      ])
    ).map((r: { id: number }) => r.id);
    expect(seen.seriesShifts.length).toBeGreaterThan(1);

    // An expense with a description and an attachment, claimed with notes.
    const type = (await http().post('/api/expenses/types').set(as('dpo')).send({ name: 'Travel' }).expect(201)).body;
    seen.expense = (
      await http()
        .post('/api/expenses')
        .set(as('vol'))
        .send({ type: { id: type.id }, date: plusDays(today, -1), amount: 12.5, description: 'Taxi to my doctor' })
        .expect(201)
    ).body.id;
    seen.file = (
      await http().post('/api/files').set(as('vol')).attach('file', PDF, 'receipt.pdf').expect(201)
    ).body.data.id;
    await http()
      .put(`/api/users/${seen.vol}/expenses/${seen.expense}/attachments/${seen.file}`)
      .set(as('vol'))
      .expect(200);
    seen.claim = (
      await http()
        .post('/api/claims')
        .set(as('vol'))
        .send({ assignedTo: { id: org.users.dpo }, notes: 'Please pay soon', expenses: [{ id: seen.expense }] })
        .expect(201)
    ).body.id;

    seen.feed = new URL(
      (await http().post('/api/users/me/calendar-feed').set(as('vol')).expect(201)).body.data.url,
    ).pathname;
    await http().get(seen.feed).expect(200);
    // A log-in half done (its pre-authentication token), and a refresh token: both must die.
    seen.preAuth = (
      await http()
        .post('/auth/api/pre-auth-token')
        .send({ email: address('vol'), password: TEST_PASSWORD })
        .expect(200)
    ).body.token;
    seen.refresh = tokens.vol!;
    // The mails of the bookings are out before the anonymisation is counted against.
    await eventually(() => mail.mails.filter((m) => m.to.includes(address('vol'))).length > 0, 30_000);
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await mail?.stop();
  });

  it('refuses, changing nothing: a holder not managing the user (403), another organisation’s user (404), oneself (422 naming id)', async () => {
    await refused(() => anonymise('shifter', seen.vol), 403);
    await refused(() => anonymise('southdpo', seen.vol), 403);
    await refused(() => anonymise('dpo', hill.users.far!), 404);
    await refused(() => anonymise('dpo', 999999), 404);
    expect((await refused(() => anonymise('dpo', org.users.dpo!), 422)).errors).toHaveProperty('id');
  });

  it('a user’s own request needs their password: wrong or missing is a 422 naming password, and nothing changes', async () => {
    const self = () => http().post('/api/users/me/anonymise').set(as('self'));
    expect(await refusedFields(ds, () => self().send({ password: 'not my password' }))).toEqual(['password']);
    expect(await refusedFields(ds, () => self().send({}))).toEqual(['password']);
    expect(await refusedFields(ds, () => self().send({ password: '' }))).toEqual(['password']);
    // No body at all is the conventions' 400 (docs/http-conventions.md), and changes nothing either.
    await expectRefused(ds, () => self(), 400, TABLES);
    const res = await self().send({ password: TEST_PASSWORD }).expect(200);
    expect(res.body).toEqual({ data: { id: org.users.self, anonymised_at: expect.any(String) } });
    await http().get('/api/users/me').set(as('self')).expect(401);
    const [event] = await ds.query(
      `SELECT data, metadata FROM events WHERE stream_id = $1 AND type = 'identity.UserAnonymised'`,
      [`identity.User-${org.users.self}`],
    );
    expect(event.data).toEqual({
      userId: org.users.self,
      organisationId: org.organisation.id,
      requestedBy: 'self',
      anonymisedAt: res.body.data.anonymised_at,
    });
  });

  it('anonymises the volunteer: answered 200 { id, anonymised_at }, every effect in place when it answers', async () => {
    const volMailsBefore = mail.mails.filter((m) => m.to.includes(address('vol'))).length;
    const before = Date.now();
    const res = await anonymise('dpo', seen.vol).expect(200);
    expect(res.body).toEqual({ data: { id: seen.vol, anonymised_at: expect.any(String) } });
    seen.anonymisedAt = res.body.data.anonymised_at;
    expect(Date.parse(seen.anonymisedAt)).toBeGreaterThanOrEqual(before - 1000);

    // 1. No log-in, and every token of theirs is dead.
    await http().get('/api/users/me').set(as('vol')).expect(401);
    await http().post('/auth/api/token/refresh').send({ token: seen.refresh }).expect(401);
    await http().post('/auth/api/token').send({ token: seen.preAuth }).expect(401);
    await http()
      .post('/auth/api/pre-auth-token')
      .send({ email: address('vol'), password: TEST_PASSWORD })
      .expect(401);
    await http().get(seen.feed).expect(404);

    // 2. Shifts not started are cancelled, the series ends today; the past shift stays, its note gone.
    const shift = async (id: number) =>
      (await http().get(`/api/rota/shifts/${id}`).set(as('dpo')).expect(200)).body.data;
    const rows = await ds.query(
      `SELECT id::int, status, cancel_reason, attendance_status, attendance_minutes, attendance_note FROM rota_shifts
        WHERE user_id = $1 ORDER BY id`,
      [seen.vol],
    );
    for (const r of rows) {
      if (r.id === seen.past)
        expect(r).toMatchObject({ status: 'booked', attendance_status: 'attended', attendance_note: null });
      else expect(r).toMatchObject({ status: 'cancelled', cancel_reason: 'user_anonymised' });
    }
    expect(rows.map((r: { id: number }) => r.id)).toEqual(
      expect.arrayContaining([seen.past, seen.future, ...seen.seriesShifts]),
    );
    const past = await shift(seen.past);
    expect(past.attendance).toMatchObject({ status: 'attended', note: null });
    expect(past.attendance.minutes).toBeGreaterThan(0);
    const [series] = await ds.query(`SELECT end_date::text FROM rota_repeating_shifts WHERE id = $1`, [seen.series]);
    expect(series.end_date).toBe(today);

    // 3. Expenses and claims stay, their texts "" and the attachment removed.
    const [expense] = await ds.query(`SELECT amount::text, description FROM expenses WHERE id = $1`, [seen.expense]);
    expect(expense).toEqual({ amount: '12.50', description: '' });
    expect(await ds.query(`SELECT * FROM expense_attachments WHERE expense_id = $1`, [seen.expense])).toEqual([]);
    const [claim] = await ds.query(`SELECT amount::text, notes FROM claims WHERE id = $1`, [seen.claim]);
    expect(claim).toEqual({ amount: '12.50', notes: '' });

    // 4. Wherever they appear: "Anonymised user", status anonymised; no longer a rota contact.
    const base = (await http().get(`/api/users/${seen.vol}`).set(as('dpo')).expect(200)).body.data;
    expect(base).toMatchObject({
      id: seen.vol,
      display_name: 'Anonymised user',
      title: '',
      profile_photo_url: null,
      status: ANONYMISED_STATUS,
      role_name: 'Shop volunteer',
      team_name: 'Shop',
    });
    expect(JSON.stringify(past)).not.toContain('vol name');
    const [row] = await ds.query(`SELECT email, phone, password_hash, anonymised_at FROM users WHERE id = $1`, [
      seen.vol,
    ]);
    expect(row).toEqual({ email: null, phone: null, password_hash: null, anonymised_at: expect.any(Date) });
    expect(await ds.query(`SELECT user_id::int FROM rota_contacts WHERE rota_id = $1`, [rota])).toEqual([
      { user_id: org.users.contact },
    ]);

    // 7. One event in their history: who asked and when, nothing personal.
    const events = await ds.query(`SELECT type, data, metadata FROM events WHERE stream_id = $1 ORDER BY position`, [
      `identity.User-${seen.vol}`,
    ]);
    expect(events.at(-1)).toEqual({
      type: 'identity.UserAnonymised',
      data: {
        userId: seen.vol,
        organisationId: org.organisation.id,
        requestedBy: 'manager',
        anonymisedAt: seen.anonymisedAt,
      },
      metadata: expect.objectContaining({ actor: { kind: 'user', userId: org.users.dpo } }),
    });

    // The contact is told as of the volunteer's own cancellation, naming them "Anonymised user"; they get nothing.
    await eventually(
      () => mail.mails.some((m) => m.to.includes(address('contact')) && mailText(m.raw).includes('Anonymised user')),
      30_000,
    );
    expect(mail.mails.filter((m) => m.to.includes(address('vol'))).length).toBe(volMailsBefore);
    // The webhook subscribers get user.anonymised with { id } only (`self` had theirs before).
    const bodies = async () =>
      (await ds.query(`SELECT body FROM webhook_deliveries WHERE event_type = 'user.anonymised'`)).map(
        (d: { body: string }) => JSON.parse(d.body),
      );
    await eventually(
      async () => (await bodies()).some((b: { data: { id: number } }) => b.data.id === seen.vol),
      30_000,
    );
    expect(await bodies()).toContainEqual({
      type: 'user.anonymised',
      timestamp: expect.any(String),
      data: { id: seen.vol },
    });
  }, 90_000);

  it('the database forgets: no table holds their strings (nor pg_dump, with a server) while others’ stay; a replay of every projection gives the same anonymised tables', async () => {
    // Their strings, and another user's that must still be there (the check can fail both ways).
    const theirs = [
      'vol name',
      'vol title',
      address('vol'),
      'Opened up, spoke of their health',
      'Taxi to my doctor',
      'Please pay soon',
      'receipt.pdf',
    ];
    const others = ['dpo name', 'dpo title', address('dpo')];
    // Owed file bytes and webhook deliveries are the worker's: wait until they have gone.
    await eventually(
      async () =>
        (await ds.query(`SELECT count(*)::int AS n FROM file_objects WHERE deletion_owed_since IS NOT NULL`))[0].n ===
        0,
      90_000,
    );
    const tables = (await ds.query(
      `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS t FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
    )) as { t: string }[];
    let text = '';
    for (const { t } of tables)
      text += (await ds.query(`SELECT coalesce(string_agg(x::text, E'\\n'), '') AS s FROM ${t} x`))[0].s + '\n';
    const found = (all: string, strings: string[]) =>
      strings.filter((s) => all.toLowerCase().includes(s.toLowerCase()));
    expect(found(text, theirs)).toEqual([]);
    expect(found(text, others)).toEqual(others);
    if (!env.embedded) {
      const dump = await promisify(execFile)('pg_dump', ['--data-only', env.config.database.url!], {
        maxBuffer: 256 * 1024 * 1024,
      });
      expect(found(dump.stdout, theirs)).toEqual([]);
      expect(found(dump.stdout, others)).toEqual(others);
    }

    // Replay: every projection's tables come back as they were, still anonymised.
    const checksums = async () => {
      const out: Record<string, string> = {};
      for (const t of app!
        .get(ProjectionRegistry)
        .select([])
        .flatMap((p) => p.tables))
        out[t] = (
          await ds.query(`SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS s FROM ${t} x`)
        )[0].s;
      return out;
    };
    const before = await checksums();
    expect(Object.keys(before).length).toBeGreaterThan(10);
    await app!.get(ProjectionReplayer).replay([]);
    expect(await checksums()).toEqual(before);
    const [row] = await ds.query(`SELECT display_name, email, status FROM users WHERE id = $1`, [seen.vol]);
    expect(row).toEqual({ display_name: 'Anonymised user', email: null, status: 'anonymised' });
  }, 180_000);

  it('a user anonymised already: 409, and nothing changes', async () => {
    const n = await eventCount(ds);
    await refused(() => anonymise('dpo', seen.vol), 409);
    expect(await eventCount(ds)).toBe(n);
  });

  it('the CLI: users:anonymise skips the anonymised, refuses (exit 2) a name that is nobody’s and anonymises no one; privacy:anonymised lists them oldest first', async () => {
    // In the embedded mode the CLI opens the data folder itself: the service stops first.
    await app!.close();
    app = undefined;
    const unknown = await runCli(env, ['users:anonymise', address('posted'), 'nobody@riverside.example']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('nobody@riverside.example');
    const [still] = await querySql<{ anonymised_at: Date | null }>(
      env,
      `SELECT anonymised_at FROM users WHERE id = $1`,
      [org.users.posted],
    );
    expect(still!.anonymised_at).toBeNull();

    const done = await runCli(env, ['users:anonymise', address('POSTED'), String(seen.vol)]);
    expect(done).toMatchObject({ code: 0 });
    expect(JSON.parse(done.stdout)).toEqual({ anonymised: [org.users.posted] });
    const again = await runCli(env, ['users:anonymise', String(org.users.posted)]);
    expect(again).toMatchObject({ code: 0 });
    expect(JSON.parse(again.stdout)).toEqual({ anonymised: [] });

    const list = await runCli(env, ['privacy:anonymised']);
    expect(list.code).toBe(0);
    const listed = JSON.parse(list.stdout) as { user_id: number; organisation: string; anonymised_at: string }[];
    expect(listed.map((u) => u.user_id)).toEqual([org.users.self, seen.vol, org.users.posted]);
    expect(listed[1]).toEqual({ user_id: seen.vol, organisation: 'riverside', anonymised_at: seen.anonymisedAt });
    const [event] = await querySql<{ data: { requestedBy: string } }>(
      env,
      `SELECT data FROM events WHERE stream_id = $1 AND type = 'identity.UserAnonymised'`,
      [`identity.User-${org.users.posted}`],
    );
    expect(event!.data.requestedBy).toBe('operator');
  }, 120_000);
});
