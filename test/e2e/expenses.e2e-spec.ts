import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { ProvisionResult } from '#app/identity';
import { mailText, startMailCatcher } from '../support/mail-catcher.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import {
  bootStandalone,
  hillsideFile,
  logIn,
  logInAll,
  provision,
  riversideFile,
  userFile,
} from '../support/test-app.js';

const today = new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

function riverside() {
  return riversideFile(
    [
      userFile('vol', ['create-expenses'], ['north-shop'], {
        roles: [
          { team: 'north-shop', role_profile: 'shop' },
          { team: 'north-shop', role_profile: 'driver' },
        ],
      }),
      userFile('approver', ['approve-claims', 'create-expenses'], ['north']),
      userFile('selfie', ['create-expenses', 'self-approve-claims'], ['north-shop']),
      userFile('admin', ['edit-expense-settings', 'create-expenses'], ['south']),
      userFile('noperm', [], ['north-shop']),
    ],
    {
      roleProfiles: [{ key: 'driver', name: 'Driver' }],
      organisation: { settings: { expenses_submission_email: 'finance@riverside.example' } },
    },
  );
}

describe('expenses and claims (docs/expense-rules.md#expenses, #claims)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let org: ProvisionResult;
  const tokens: Record<string, string> = {};
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  let travel: number;
  let mileage: number;

  beforeAll(async () => {
    mail = await startMailCatcher();
    env = await testEnvironment({ SMTP_URL: mail.url, AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    org = await provision(app, riverside());
    await provision(
      app,
      hillsideFile([
        userFile('other', ['create-expenses', 'approve-claims', 'edit-expense-settings'], ['t'], {
          domain: 'hillside',
        }),
      ]),
    );
    Object.assign(tokens, await logInAll(app, ['vol', 'approver', 'selfie', 'admin', 'noperm']));
    tokens.other = await logIn(app, 'other@hillside.example');
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await mail?.stop();
  });

  const expense = async (who: string, body: Record<string, unknown>) =>
    (
      await http()
        .post('/api/expenses')
        .set(as(who))
        .send({ type: { id: travel }, date: daysAgo(2), ...body })
        .expect(201)
    ).body;
  const claim = (who: string, expenseIds: number[], assignedTo = org.users.approver) =>
    http()
      .post('/api/claims')
      .set(as(who))
      .send({ assignedTo: { id: assignedTo }, notes: 'trip', expenses: expenseIds.map((id) => ({ id })) });
  const updateClaim = (who: string, owner: number, id: number, body: Record<string, unknown>) =>
    http().put(`/api/users/${owner}/claims/${id}`).set(as(who)).send(body);

  describe('expense types and rates', () => {
    it('are managed with edit-expense-settings and listed by position with create-expenses', async () => {
      const a = (
        await http().post('/api/expenses/types').set(as('admin')).send({ name: 'Travel', position: 2 }).expect(201)
      ).body;
      const b = (
        await http().post('/api/expenses/types').set(as('admin')).send({ name: 'Parking', position: 1 }).expect(201)
      ).body;
      expect(a).toEqual({ id: expect.any(Number), name: 'Travel', order_id: 2 });
      travel = a.id;
      const list = await http().get('/api/expenses/types').set(as('vol')).expect(200);
      expect(list.body.data.map((t: { name: string }) => t.name)).toEqual(['Parking', 'Travel']);
      expect(list.body.meta.pagination.total).toBe('2');
      await http().post('/api/expenses/types').set(as('vol')).send({ name: 'x', position: 0 }).expect(403);
      await http().get('/api/expenses/types').set(as('noperm')).expect(403);
      expect(
        (await http().put(`/api/expenses/types/${b.id}`).set(as('admin')).send({ position: 5 }).expect(200)).body
          .order_id,
      ).toBe(5);
      await http().put(`/api/expenses/types/${b.id}`).set(as('other')).send({ position: 5 }).expect(404);
    });

    it('a type created without a position is at position 0; a null position is refused', async () => {
      const type = (await http().post('/api/expenses/types').set(as('admin')).send({ name: 'Meals' }).expect(201)).body;
      expect(type).toEqual({ id: expect.any(Number), name: 'Meals', order_id: 0 });
      const nulled = await http()
        .post('/api/expenses/types')
        .set(as('admin'))
        .send({ name: 'Meals', position: null })
        .expect(422);
      expect(Object.keys(nulled.body.errors)).toEqual(['position']);
      await http().delete(`/api/expenses/types/${type.id}`).set(as('admin')).expect(204);
    });

    it('rates check short_name and dates and show the YYYY-MM-DD HH:MM:SS stamps', async () => {
      const bad = await http()
        .post('/api/expenses/rates')
        .set(as('admin'))
        .send({ short_name: 'x'.repeat(256), rate: 'fast' })
        .expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['rate', 'short_name']);
      await http()
        .post('/api/expenses/rates')
        .set(as('admin'))
        .send({ short_name: 'Car', rate: 0.45, start_date: '2026-06-01', end_date: '2026-05-01' })
        .expect(422);
      const rate = (
        await http()
          .post('/api/expenses/rates')
          .set(as('admin'))
          .send({
            short_name: 'Car',
            description: 'Own car',
            rate: 0.45,
            passenger_rate: 0.05,
            max_miles: 200,
            order_id: 1,
            start_date: daysAgo(300),
            end_date: null,
          })
          .expect(201)
      ).body;
      expect(rate).toMatchObject({
        short_name: 'Car',
        rate: 0.45,
        passenger_rate: 0.05,
        max_miles: 200,
        end_date: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      });
      mileage = rate.id;
      expect((await http().get(`/api/expenses/rates/${rate.id}`).set(as('vol')).expect(200)).body.id).toBe(rate.id);
      expect(
        (
          await http()
            .put(`/api/expenses/rates/${rate.id}`)
            .set(as('admin'))
            .send({ description: 'Own vehicle' })
            .expect(200)
        ).body.description,
      ).toBe('Own vehicle');
      const temp = (
        await http().post('/api/expenses/rates').set(as('admin')).send({ short_name: 'Old', rate: 0.3 }).expect(201)
      ).body;
      await http().delete(`/api/expenses/rates/${temp.id}`).set(as('admin')).expect(204);
      await http().get(`/api/expenses/rates/${temp.id}`).set(as('vol')).expect(404);
    });
  });

  describe('expenses', () => {
    it('computes the mileage amount and checks dates, miles, roles and types', async () => {
      const e = await expense('vol', { rate: { id: mileage }, miles: 12.5, passengers: 2, description: 'to the shop' });
      expect(e).toMatchObject({
        amount: 6.88,
        claimed: false,
        miles: 12.5,
        passengers: 2,
        user_id: org.users.vol,
        type_id: travel,
        rate_id: mileage,
      });
      // The create answers from the data it wrote (no read-back): it must be what a read shows.
      expect(
        (await http().get(`/api/users/${org.users.vol}/expenses/${e.id}`).set(as('vol')).expect(200)).body,
      ).toEqual(e);
      const plain = await expense('vol', { amount: 12.3, submitted: daysAgo(1), role: { id: org.roles.vol![0] } });
      expect(
        (await http().get(`/api/users/${org.users.vol}/expenses/${plain.id}`).set(as('vol')).expect(200)).body,
      ).toEqual(plain);
      const bad = await http()
        .post('/api/expenses')
        .set(as('vol'))
        .send({
          type: { id: travel },
          date: '2999-01-01',
          rate: { id: mileage },
          miles: 500,
          role: { id: org.roles.approver![0] },
        })
        .expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['date', 'miles', 'role.id']);
      const old = await http()
        .post('/api/expenses')
        .set(as('vol'))
        .send({ type: { id: travel }, date: daysAgo(200), amount: 5 })
        .expect(422);
      expect(Object.keys(old.body.errors)).toEqual(['date']);
      const noType = await http().post('/api/expenses').set(as('vol')).send({ date: today, amount: 5 }).expect(422);
      expect(Object.keys(noType.body.errors)).toEqual(['type']);
      const noRateName = await http().post('/api/expenses/rates').set(as('admin')).send({ rate: 0.2 }).expect(422);
      expect(Object.keys(noRateName.body.errors)).toEqual(['short_name']);
      await http()
        .post('/api/expenses')
        .set(as('noperm'))
        .send({ type: { id: travel }, date: today, amount: 5 })
        .expect(403);
    });

    it('a deleted type leaves the list and cannot be chosen, while expenses keep it', async () => {
      const type = (
        await http().post('/api/expenses/types').set(as('admin')).send({ name: 'Gone', position: 9 }).expect(201)
      ).body;
      const kept = await expense('vol', { type: { id: type.id }, amount: 3 });
      await http().delete(`/api/expenses/types/${type.id}`).set(as('admin')).expect(204);
      await http()
        .post('/api/expenses')
        .set(as('vol'))
        .send({ type: { id: type.id }, date: today, amount: 5 })
        .expect(422);
      const got = await http()
        .get(`/api/users/${org.users.vol}/expenses/${kept.id}?include=type,user,role.roleProfile`)
        .set(as('vol'))
        .expect(200);
      expect(got.body.type).toEqual({ id: type.id, name: 'Gone', order_id: 9 });
      expect(got.body.user).toMatchObject({ id: org.users.vol, display_name: 'vol' });
      expect(
        (await http().get('/api/expenses/types').set(as('vol'))).body.data.map((t: { id: number }) => t.id),
      ).not.toContain(type.id);
    });

    it('joins a repeated list parameter and refuses any other repeated one (issue 25, item 7)', async () => {
      const url = `/api/users/${org.users.vol}/expenses`;
      // include=user&include=type, as openapi-fetch sends an array: both, as include=user,type.
      const both = await http().get(`${url}?include=user&include=type`).set(as('vol')).expect(200);
      expect(both.body.data[0]).toEqual(
        expect.objectContaining({ user: expect.any(Object), type: expect.any(Object) }),
      );
      const bogus = await http().get(`${url}?include=bogus&include=user`).set(as('vol')).expect(422);
      expect(Object.keys(bogus.body.errors)).toEqual(['include']);
      for (const query of ['page=1&page=2', 'per_page=5&per_page=5', 'o=a&o=d', 'claimed=true&claimed=false']) {
        const name = query.split('=')[0]!;
        const res = await http().get(`${url}?${query}`).set(as('vol'));
        expect([query, res.status, res.body.errors]).toEqual([
          query,
          422,
          { [name]: [`The ${name} field may be given only once.`] },
        ]);
      }
      // An id list joins too (claims by user), and the magic-link page's one key may not be repeated.
      await http().get(`/api/claims?user=${org.users.vol}&user=${org.users.vol}`).set(as('approver')).expect(200);
      const key = await http().get('/auth/magic-link?key=a&key=b').expect(422);
      expect(key.body.errors).toEqual({ key: ['The key field may be given only once.'] });
    });

    it('lists one user’s expenses newest first with the claimed filter, and refuses unknown parameters', async () => {
      const list = await http()
        .get(`/api/users/${org.users.vol}/expenses?o=d&include=type,rate,attachments`)
        .set(as('vol'))
        .expect(200);
      expect(list.body.data.length).toBeGreaterThan(0);
      expect(list.body.data[0]).toHaveProperty('attachments');
      // Newest first by default (docs/api-guide.md): by date, then id, descending; an explicit o=a is the reverse.
      const older = await expense('vol', { amount: 1, date: daysAgo(10) });
      const byDefault = (
        await http().get(`/api/users/${org.users.vol}/expenses?per_page=100`).set(as('vol')).expect(200)
      ).body.data as { id: number; date: string }[];
      const newestFirst = [...byDefault].sort((x, y) => y.date.localeCompare(x.date) || y.id - x.id);
      expect(byDefault.length).toBeGreaterThan(2);
      expect(byDefault.map((e) => e.id)).toEqual(newestFirst.map((e) => e.id));
      expect(byDefault.at(-1)!.id).toBe(older.id);
      const ascending = (
        await http().get(`/api/users/${org.users.vol}/expenses?per_page=100&o=a`).set(as('vol')).expect(200)
      ).body.data as { id: number }[];
      expect(ascending.map((e) => e.id)).toEqual(byDefault.map((e) => e.id).reverse());
      await http().get(`/api/users/${org.users.vol}/expenses?s=amount`).set(as('vol')).expect(422);
      await http().get(`/api/users/${org.users.vol}/expenses?include=secrets`).set(as('vol')).expect(422);
      await http().get(`/api/users/${org.users.vol}/expenses?claimed=maybe`).set(as('vol')).expect(422);
      // A user of the same organisation the hierarchy refuses: 403; another organisation: 404
      // (docs/http-conventions.md#tenancy).
      await http().get(`/api/users/${org.users.vol}/expenses`).set(as('selfie')).expect(403);
      await http().get(`/api/users/${org.users.vol}/expenses`).set(as('approver')).expect(200);
      await http().get(`/api/users/${org.users.vol}/expenses`).set(as('other')).expect(404);
    });

    it('updates and deletes an unclaimed expense', async () => {
      const e = await expense('vol', { amount: 4 });
      const changed = await http()
        .put(`/api/users/${org.users.vol}/expenses/${e.id}`)
        .set(as('vol'))
        .send({ amount: 7.5, description: 'lunch' })
        .expect(200);
      expect(changed.body).toMatchObject({ amount: 7.5, description: 'lunch' });
      await http()
        .put(`/api/users/${org.users.vol}/expenses/${e.id}`)
        .set(as('approver'))
        .send({ amount: 1 })
        .expect(403);
      await http().delete(`/api/users/${org.users.vol}/expenses/${e.id}`).set(as('vol')).expect(204);
      await http().get(`/api/users/${org.users.vol}/expenses/${e.id}`).set(as('vol')).expect(404);
    });

    it('records the organisation, the user and the request of each change in its events’ metadata', async () => {
      const created = (
        await http()
          .post('/api/expenses')
          .set(as('vol'))
          .set('x-request-id', 'expense-metadata-1')
          .send({ type: { id: travel }, date: daysAgo(2), amount: 2 })
          .expect(201)
      ).body;
      await http()
        .put(`/api/users/${org.users.vol}/expenses/${created.id}`)
        .set(as('vol'))
        .set('x-request-id', 'expense-metadata-2')
        .send({ amount: 3 })
        .expect(200);
      const rows: { type: string; metadata: unknown }[] = await app
        .get(DataSource)
        .query(`SELECT type, metadata FROM events WHERE stream_id = $1 ORDER BY stream_version`, [
          `expenses.Expense-${created.id}`,
        ]);
      const by = { organisationId: org.organisation.id, actor: { kind: 'user', userId: org.users.vol } };
      expect(rows).toEqual([
        { type: 'expenses.ExpenseRecorded', metadata: { ...by, correlationId: 'expense-metadata-1' } },
        { type: 'expenses.ExpenseChanged', metadata: { ...by, correlationId: 'expense-metadata-2' } },
      ]);
    });

    it('attaches files the caller uploaded, with fresh signed URLs', async () => {
      const e = await expense('vol', { amount: 2 });
      const file = (await http().post('/api/files').set(as('vol')).attach('file', PDF, 'receipt.pdf').expect(201)).body
        .data;
      const att = await http()
        .put(`/api/users/${org.users.vol}/expenses/${e.id}/attachments/${file.id}`)
        .set(as('vol'))
        .expect(200);
      expect(att.body).toMatchObject({
        id: file.id,
        original_name: 'receipt.pdf',
        mime: 'application/pdf',
        signed_url: expect.any(String),
      });
      const list = await http()
        .get(`/api/users/${org.users.vol}/expenses/${e.id}/attachments`)
        .set(as('vol'))
        .expect(200);
      expect(list.body.data.map((a: { id: number }) => a.id)).toEqual([file.id]);
      const theirs = (await http().post('/api/files').set(as('selfie')).attach('file', PDF, 'x.pdf').expect(201)).body
        .data;
      await http()
        .put(`/api/users/${org.users.vol}/expenses/${e.id}/attachments/${theirs.id}`)
        .set(as('vol'))
        .expect(403);
      const foreign = (await http().post('/api/files').set(as('other')).attach('file', PDF, 'y.pdf').expect(201)).body
        .data;
      await http()
        .put(`/api/users/${org.users.vol}/expenses/${e.id}/attachments/${foreign.id}`)
        .set(as('vol'))
        .expect(404);
      await http()
        .delete(`/api/users/${org.users.vol}/expenses/${e.id}/attachments/${file.id}`)
        .set(as('vol'))
        .expect(204);
      await http()
        .get(`/api/users/${org.users.vol}/expenses/${e.id}/attachments/${file.id}`)
        .set(as('vol'))
        .expect(404);
    });

    it('lists the authorisers of a user: approve-claims holders above their teams', async () => {
      const { body } = await http().get(`/api/users/${org.users.vol}/expenses/authorisers`).set(as('vol')).expect(200);
      expect(body.data.map((u: { id: number }) => u.id)).toEqual([org.users.approver]);
    });
  });

  describe('claims', () => {
    it('creates a claim of the caller’s unclaimed expenses, claiming them in the same step', async () => {
      const a = await expense('vol', { amount: 10, role: { id: org.roles.vol![0] } });
      const b = await expense('vol', { amount: 2.5, role: { id: org.roles.vol![0] } });
      const res = await claim('vol', [a.id, b.id]).expect(201);
      expect(res.body).toMatchObject({
        id: expect.any(Number),
        amount: 12.5,
        approved: false,
        submitted: false,
        notes: 'trip',
        rejection_note: null,
      });
      expect(res.headers.location).toBe(`http://api.test/api/users/${org.users.vol}/claims/${res.body.id}`);
      const got = await http()
        .get(`/api/users/${org.users.vol}/claims/${res.body.id}?include=expenses,user,assignedTo,role.roleProfile`)
        .set(as('vol'))
        .expect(200);
      expect(got.body.expenses.map((e: { id: number; claimed: boolean }) => [e.id, e.claimed])).toEqual([
        [a.id, true],
        [b.id, true],
      ]);
      expect(got.body.assignedTo).toMatchObject({ id: org.users.approver });
      expect(got.body.role).toMatchObject({ id: org.roles.vol![0], roleProfile: { name: 'Shop volunteer' } });
      // A claimed expense cannot be changed, deleted or given attachments.
      await http().put(`/api/users/${org.users.vol}/expenses/${a.id}`).set(as('vol')).send({ amount: 1 }).expect(409);
      await http().delete(`/api/users/${org.users.vol}/expenses/${a.id}`).set(as('vol')).expect(409);
      await claim('vol', [a.id]).expect(409);
    });

    it('refuses mixed roles, foreign expenses and an assignee who cannot authorise, changing nothing', async () => {
      const shop = await expense('vol', { amount: 1, role: { id: org.roles.vol![0] } });
      const drive = await expense('vol', { amount: 1, role: { id: org.roles.vol![1] } });
      const other = await expense('selfie', { amount: 1 });
      expect(Object.keys((await claim('vol', [shop.id, drive.id]).expect(422)).body.errors)).toEqual(['expenses']);
      expect(Object.keys((await claim('vol', [shop.id, other.id]).expect(422)).body.errors)).toEqual(['expenses.1.id']);
      expect(Object.keys((await claim('vol', [shop.id], org.users.selfie).expect(422)).body.errors)).toEqual([
        'assignedTo.id',
      ]);
      const bad = await http().post('/api/claims').set(as('vol')).send({ expenses: [] }).expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['assignedTo', 'expenses']);
      const after = await http().get(`/api/users/${org.users.vol}/expenses/${shop.id}`).set(as('vol')).expect(200);
      expect(after.body.claimed).toBe(false);
    });

    it('names assignedTo.id when an update assigns someone who cannot authorise, as a create does', async () => {
      const e = await expense('vol', { amount: 1 });
      const c = (await claim('vol', [e.id]).expect(201)).body;
      const res = await updateClaim('vol', org.users.vol, c.id, { assignedTo: { id: org.users.selfie } }).expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['assignedTo.id']);
      const same = await http().get(`/api/users/${org.users.vol}/claims/${c.id}`).set(as('vol')).expect(200);
      expect(same.body.assigned_to_id).toBe(org.users.approver);
    });

    it('of 50 concurrent claims naming one expense, exactly one is created', async () => {
      const e = await expense('vol', { amount: 9 });
      const results = await Promise.all(Array.from({ length: 50 }, () => claim('vol', [e.id])));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([]);
      const [{ n }] = await app
        .get(DataSource)
        .query(`SELECT count(*)::int AS n FROM expenses WHERE id = $1 AND claim_id IS NOT NULL`, [e.id]);
      expect(n).toBe(1);
      const claims = await http().get(`/api/users/${org.users.vol}/claims?include=expenses`).set(as('vol')).expect(200);
      expect(
        claims.body.data.filter((c: { expenses: { id: number }[] }) => c.expenses.some((x) => x.id === e.id)),
      ).toHaveLength(1);
    });

    it('walks open → approved → submitted, refusing the moves the state table forbids, and mails finance once', async () => {
      const e = await expense('vol', { amount: 20 });
      const file = (await http().post('/api/files').set(as('vol')).attach('file', PDF, 'ticket.pdf').expect(201)).body
        .data;
      await http()
        .put(`/api/users/${org.users.vol}/expenses/${e.id}/attachments/${file.id}`)
        .set(as('vol'))
        .expect(200);
      const c = (await claim('vol', [e.id]).expect(201)).body;
      await updateClaim('vol', org.users.vol, c.id, { submitted: true }).expect(409); // not approved yet
      await updateClaim('vol', org.users.vol, c.id, { approved: true }).expect(403); // no self-approve-claims
      const approved = await updateClaim('approver', org.users.vol, c.id, {
        approved: true,
        approval_note: 'ok',
      }).expect(200);
      expect(approved.body).toMatchObject({
        approved: true,
        approved_by_id: org.users.approver,
        approved_at: expect.any(String),
        approval_note: 'ok',
      });
      await updateClaim('approver', org.users.vol, c.id, { approved: true }).expect(409);
      await updateClaim('approver', org.users.vol, c.id, { rejection_note: 'too late' }).expect(409);
      const submitted = await updateClaim('vol', org.users.vol, c.id, {
        submitted: true,
        submitted_date: '2026-11-20T09:00:00Z',
      }).expect(200);
      expect(submitted.body).toMatchObject({ submitted: true, submitted_at: '2026-11-20T09:00:00Z' });
      await updateClaim('vol', org.users.vol, c.id, { submitted: true }).expect(409);
      const message = await mail.waitFor('finance@riverside.example');
      const body = mailText(message.raw);
      expect(body).toContain(`Claim ${c.id} has been submitted.`);
      expect(message.raw).toMatch(/filename="?claim-\d+\.csv/);
      expect(body).toMatch(/ticket\.pdf: http:\/\/api\.test\/api\/files\/\d+\/content\?/);
      await new Promise((r) => setTimeout(r, 1000));
      expect(mail.mails.filter((m) => m.to.includes('finance@riverside.example'))).toHaveLength(1);
    });

    it('rejects an open claim, releasing its expenses; a rejected claim cannot be approved', async () => {
      const e = await expense('vol', { amount: 3 });
      const c = (await claim('vol', [e.id]).expect(201)).body;
      await updateClaim('vol', org.users.vol, c.id, { rejection_note: 'mine' }).expect(403);
      const rejected = await updateClaim('approver', org.users.vol, c.id, { rejection_note: 'no receipt' }).expect(200);
      expect(rejected.body).toMatchObject({ rejection_note: 'no receipt', approved: false });
      await updateClaim('approver', org.users.vol, c.id, { approved: true }).expect(409);
      await updateClaim('approver', org.users.vol, c.id, { rejection_note: 'again' }).expect(409);
      expect((await http().get(`/api/users/${org.users.vol}/expenses/${e.id}`).set(as('vol'))).body.claimed).toBe(
        false,
      );
      await claim('vol', [e.id]).expect(201);
    });

    it('refuses a rejection without a reason (an empty or blank rejection_note), leaving the claim open', async () => {
      const e = await expense('vol', { amount: 2 });
      const c = (await claim('vol', [e.id]).expect(201)).body;
      for (const note of ['', '   ']) {
        const res = await updateClaim('approver', org.users.vol, c.id, { rejection_note: note }).expect(422);
        expect(Object.keys(res.body.errors)).toEqual(['rejection_note']);
      }
      const open = await http().get(`/api/users/${org.users.vol}/claims/${c.id}`).set(as('vol')).expect(200);
      expect(open.body).toMatchObject({ rejection_note: null, approved: false, submitted: false });
      expect((await http().get(`/api/users/${org.users.vol}/expenses/${e.id}`).set(as('vol'))).body.claimed).toBe(true);
    });

    it('lets a holder of self-approve-claims approve their own claim', async () => {
      const e = await expense('selfie', { amount: 4 });
      const c = (
        await http()
          .post('/api/claims')
          .set(as('selfie'))
          .send({ assignedTo: { id: org.users.approver }, expenses: [{ id: e.id }] })
          .expect(201)
      ).body;
      expect(
        (await updateClaim('selfie', org.users.selfie, c.id, { approved: true }).expect(200)).body.approved_by_id,
      ).toBe(org.users.selfie);
    });

    it('approves at once without required authorisation, and refuses submission without a valid finance address (422)', async () => {
      const type = (
        await http().post('/api/expenses/types').set(as('other')).send({ name: 'T', position: 1 }).expect(201)
      ).body;
      const me = (await http().get('/api/users/me').set(as('other'))).body.data.id;
      const x = (
        await http()
          .post('/api/expenses')
          .set(as('other'))
          .send({ type: { id: type.id }, date: today, amount: 1 })
          .expect(201)
      ).body;
      const open = (
        await http()
          .post('/api/claims')
          .set(as('other'))
          .send({ assignedTo: { id: me }, expenses: [{ id: x.id }] })
          .expect(201)
      ).body;
      expect(open.approved).toBe(false);
      await updateClaim('other', me, open.id, { approved: true }).expect(403); // own claim, no self-approve-claims
      await http().put('/api/organisation').set(as('other')).send({ expenses_require_authorisation: '0' }).expect(200);
      const y = (
        await http()
          .post('/api/expenses')
          .set(as('other'))
          .send({ type: { id: type.id }, date: today, amount: 2 })
          .expect(201)
      ).body;
      const auto = (
        await http()
          .post('/api/claims')
          .set(as('other'))
          .send({ assignedTo: { id: me }, expenses: [{ id: y.id }] })
          .expect(201)
      ).body;
      expect(auto).toMatchObject({ approved: true, approved_by_id: null });
      const res = await updateClaim('other', me, auto.id, { submitted: true }).expect(422);
      expect(res.body.errors).toEqual({ submitted: [expect.stringMatching(/expenses_submission_email/)] });
      expect((await http().get(`/api/users/${me}/claims/${auto.id}`).set(as('other'))).body.submitted).toBe(false);
    });

    it('lists managed users’ claims with filters and sorts, exports CSV, and keeps organisations apart', async () => {
      const all = await http().get('/api/claims?include=user&s=amount&o=a').set(as('approver')).expect(200);
      const amounts = all.body.data.map((c: { amount: number }) => c.amount);
      expect(amounts).toEqual([...amounts].sort((x: number, y: number) => x - y));
      expect(
        all.body.data.every((c: { user: { id: number } }) => [org.users.vol, org.users.selfie].includes(c.user.id)),
      ).toBe(true);
      const approved = await http().get('/api/claims?approved=true&submitted=false').set(as('approver')).expect(200);
      expect(
        approved.body.data.every((c: { approved: boolean; submitted: boolean }) => c.approved && !c.submitted),
      ).toBe(true);
      const byUser = await http().get(`/api/claims?user=${org.users.selfie}`).set(as('approver')).expect(200);
      expect(byUser.body.data.every((c: { user_id: number }) => c.user_id === org.users.selfie)).toBe(true);
      await http().get('/api/claims?s=colour').set(as('approver')).expect(422);
      await http().get('/api/claims').set(as('vol')).expect(403);
      const csv = await http().get('/api/claims/export.csv?submitted=true').set(as('approver')).expect(200);
      expect(csv.headers['content-type']).toMatch(/text\/csv/);
      expect(csv.text.split('\r\n')[0]).toBe(
        'claim_id,claimant,authoriser,approved,approved_at,submitted,submitted_at,claim_amount,expense_id,date,type,description,miles,passengers,amount',
      );
      const someClaim = all.body.data[0];
      await http().get(`/api/users/${someClaim.user_id}/claims/${someClaim.id}`).set(as('other')).expect(404);
      await updateClaim('other', someClaim.user_id, someClaim.id, { approved: true }).expect(404);
    });
  });
});
