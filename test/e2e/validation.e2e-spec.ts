import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import sharp from 'sharp';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { ProvisionResult } from '#app/identity';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import {
  bootStandalone,
  logIn,
  logInAll,
  organisationFile,
  provision,
  subscribeWebhooks,
} from '../support/test-app.js';
import { eventCount, expectRefused } from '../support/nothing-written.js';

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/**
 * Issue 10: input the database cannot take (unstorable text, dates that do not exist, nulls for
 * non-nullable columns, arrays for references, missing bodies) is refused at the edge with a 4xx
 * naming the field, and changes nothing; an update that changes nothing records nothing
 * (docs/http-conventions.md#the-error-body).
 */
describe('validation at the edge (a 422 naming the field; bad input never changes stored data)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let org: ProvisionResult;
  const tokens: Record<string, string> = {};
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const events = () => eventCount(app.get(DataSource));
  let type: { id: number; name: string; order_id: number };
  let rate: Record<string, unknown> & { id: number };
  let expense: Record<string, unknown> & { id: number };
  let claim: { id: number };
  let logo: number;

  /** Sends a request that must be refused with `status` naming exactly `fields`, and checks that no event was appended. */
  async function refused(send: () => request.Test, status: number, fields?: string[]) {
    const body = await expectRefused(app.get(DataSource), send, status);
    if (fields) expect(Object.keys(body.errors ?? {}).sort()).toEqual([...fields].sort());
    return body;
  }

  /** Sends an update that changes nothing: a 200 with the current record, and no event. */
  async function unchanged(send: () => request.Test) {
    const before = await events();
    const res = await send();
    expect(res.status).toBe(200);
    expect(await events()).toBe(before);
    return res.body;
  }

  beforeAll(async () => {
    // As an operator runs it, every optional feature on (test-config.ts).
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' }, { operatorFeatures: true });
    app = await bootStandalone(env.config);
    org = await provision(
      app,
      organisationFile('riverside', [
        {
          key: 'admin',
          email: 'admin@riverside.example',
          permissions: [
            'edit-expense-settings',
            'create-expenses',
            'manage-organisation',
            'approve-claims',
            'manage-integrations',
          ],
        },
        {
          key: 'vol',
          email: 'vol@riverside.example',
          permissions: ['create-expenses'],
          roles: [{ team: 'north-shop', role_profile: 'shop' }],
        },
      ]),
    );
    Object.assign(tokens, await logInAll(app, ['admin', 'vol']));
    await subscribeWebhooks(app, tokens.admin!, env.webhookReceiver);
    type = (await http().post('/api/expenses/types').set(as('admin')).send({ name: 'Travel', position: 1 }).expect(201))
      .body;
    rate = (
      await http()
        .post('/api/expenses/rates')
        .set(as('admin'))
        .send({ short_name: 'Car', rate: 0.45, start_date: daysAgo(400), max_miles: 100 })
        .expect(201)
    ).body;
    expense = (
      await http()
        .post('/api/expenses')
        .set(as('vol'))
        .send({ type: { id: type.id }, date: daysAgo(3), amount: 4.5, description: 'bus' })
        .expect(201)
    ).body;
    const other = (
      await http()
        .post('/api/expenses')
        .set(as('vol'))
        .send({ type: { id: type.id }, date: daysAgo(3), amount: 1 })
        .expect(201)
    ).body;
    claim = (
      await http()
        .post('/api/claims')
        .set(as('vol'))
        .send({ assignedTo: { id: org.users.admin }, expenses: [{ id: other.id }] })
        .expect(201)
    ).body;
    logo = (
      await http()
        .post('/api/files')
        .set(as('admin'))
        .attach(
          'file',
          await sharp({ create: { width: 20, height: 20, channels: 3, background: '#336699' } })
            .png()
            .toBuffer(),
          'logo.png',
        )
        .expect(201)
    ).body.data.id;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  describe('text the database cannot store (NUL, unpaired surrogates): 422 naming the field', () => {
    const BAD = { nul: 'a\u0000b', high: 'car \ud800', low: '\udc00 car' };

    it.each(Object.entries(BAD))('refuses %s in expense type, rate and expense text', async (_, text) => {
      await refused(() => http().post('/api/expenses/types').set(as('admin')).send({ name: text, position: 1 }), 422, [
        'name',
      ]);
      await refused(() => http().put(`/api/expenses/types/${type.id}`).set(as('admin')).send({ name: text }), 422, [
        'name',
      ]);
      await refused(
        () =>
          http()
            .post('/api/expenses/rates')
            .set(as('admin'))
            .send({ short_name: 'Bike', rate: 0.2, description: text }),
        422,
        ['description'],
      );
      await refused(
        () => http().put(`/api/expenses/rates/${rate.id}`).set(as('admin')).send({ short_name: text }),
        422,
        ['short_name'],
      );
      await refused(
        () =>
          http()
            .post('/api/expenses')
            .set(as('vol'))
            .send({ type: { id: type.id }, date: daysAgo(1), amount: 1, description: text }),
        422,
        ['description'],
      );
      await refused(
        () =>
          http().put(`/api/users/${org.users.vol}/expenses/${expense.id}`).set(as('vol')).send({ description: text }),
        422,
        ['description'],
      );
      await refused(
        () => http().put(`/api/users/${org.users.vol}/claims/${claim.id}`).set(as('vol')).send({ notes: text }),
        422,
        ['notes'],
      );
    });

    it.each(Object.entries(BAD))('refuses %s in organisation fields, naming each', async (_, text) => {
      const body = await refused(
        () =>
          http()
            .put('/api/organisation')
            .set(as('admin'))
            .send({ name: text, login_text: text, support_email: `x${text}@r.example` }),
        422,
        ['name', 'login_text', 'support_email'],
      );
      expect(body.errors!.name).toEqual([expect.stringMatching(/NUL|surrogate/)]);
    });

    it.each(Object.entries(BAD))('refuses %s in the pre-authentication e-mail', async (_, text) => {
      await refused(
        () =>
          http()
            .post('/auth/api/pre-auth-token')
            .send({ email: `vol${text}@riverside.example`, password: 'whatever it is' }),
        422,
        ['email'],
      );
    });

    it('refuses NUL in a query (an unpaired surrogate has no URL form: it arrives as U+FFFD)', async () => {
      await refused(() => http().get('/api/claims?from=%00').set(as('admin')), 422, ['from']);
      await refused(() => http().get(`/api/users/${org.users.vol}/expenses?page=1%00`).set(as('vol')), 422, ['page']);
    });

    it('names a nested field by its path and an element by its index', async () => {
      await refused(
        () =>
          http()
            .post('/api/claims')
            .set(as('vol'))
            .send({ assignedTo: { id: org.users.admin }, expenses: [{ id: expense.id }, { id: 'x\u0000' }] }),
        422,
        ['expenses.1.id'],
      );
    });

    it('accepts surrogate pairs (an emoji) and stores them intact', async () => {
      const created = await http()
        .post('/api/expenses/types')
        .set(as('admin'))
        .send({ name: 'Taxi 🚕', position: 2 })
        .expect(201);
      expect(created.body.name).toBe('Taxi 🚕');
      const { body } = await http()
        .put('/api/organisation')
        .set(as('admin'))
        .send({ login_text: 'Welcome 👋' })
        .expect(200);
      expect(body.data.login_text).toBe('Welcome 👋');
    });
  });

  describe('dates that do not exist: 422 naming the field', () => {
    it.each(['2026-02-30', '2026-13-01', '0000-00-00', '2025-02-29', '2026-04-31', '0000-01-01'])(
      'refuses %s as a rate, expense and claims-list date',
      async (date) => {
        await refused(
          () =>
            http()
              .post('/api/expenses/rates')
              .set(as('admin'))
              .send({ short_name: 'Van', rate: 0.5, start_date: date, end_date: date }),
          422,
          ['start_date', 'end_date'],
        );
        await refused(
          () => http().put(`/api/expenses/rates/${rate.id}`).set(as('admin')).send({ end_date: date }),
          422,
          ['end_date'],
        );
        await refused(
          () =>
            http()
              .post('/api/expenses')
              .set(as('vol'))
              .send({ type: { id: type.id }, date, submitted: date, amount: 1 }),
          422,
          ['date', 'submitted'],
        );
        await refused(
          () => http().put(`/api/users/${org.users.vol}/expenses/${expense.id}`).set(as('vol')).send({ date }),
          422,
          ['date'],
        );
        await refused(() => http().get(`/api/claims?from=${date}`).set(as('admin')), 422, ['from']);
        await refused(() => http().get(`/api/users/${org.users.vol}/claims?to=${date}`).set(as('vol')), 422, ['to']);
      },
    );

    it('refuses a claim submission date-time on a day that does not exist', async () => {
      await refused(
        () =>
          http()
            .put(`/api/users/${org.users.vol}/claims/${claim.id}`)
            .set(as('vol'))
            .send({ submitted: true, submitted_date: '2026-02-30T09:00:00Z' }),
        422,
        ['submitted_date'],
      );
      await refused(
        () =>
          http()
            .put(`/api/users/${org.users.vol}/claims/${claim.id}`)
            .set(as('vol'))
            .send({ submitted: true, submitted_date: '2026-W01' }),
        422,
        ['submitted_date'],
      );
    });

    it('accepts a leap day', async () => {
      const leap = await http()
        .post('/api/expenses/rates')
        .set(as('admin'))
        .send({ short_name: 'Leap', rate: 0.1, start_date: '2024-02-29', end_date: '2028-02-29' })
        .expect(201);
      expect(leap.body).toMatchObject({ start_date: '2024-02-29', end_date: '2028-02-29' });
      await http().get('/api/claims?from=2024-02-29&to=2028-02-29').set(as('admin')).expect(200);
    });
  });

  describe('one message a field, naming the one thing wrong (issue 12)', () => {
    it('says a word for an amount must be a number, not that it is out of range', async () => {
      const body = await refused(
        () =>
          http()
            .post('/api/expenses')
            .set(as('vol'))
            .send({ type: { id: type.id }, date: daysAgo(1), amount: 'twelve' }),
        422,
        ['amount'],
      );
      expect(body.errors!.amount).toEqual([expect.stringMatching(/must be a number/)]);
    });

    it('says a missing field is required, not that it is too long or of the wrong type', async () => {
      const body = await refused(
        () => http().post('/auth/api/pre-auth-token').send({ password: 'whatever it is' }),
        422,
        ['email'],
      );
      expect(body.errors).toEqual({ email: ['The email field is required.'] });
      const expense = await refused(() => http().post('/api/expenses').set(as('vol')).send({ amount: 1 }), 422, [
        'date',
        'type',
      ]);
      expect(expense.errors).toEqual({ date: ['The date field is required.'], type: ['The type field is required.'] });
    });

    it('keeps "must not be null" for a null required field', async () => {
      const body = await refused(
        () => http().post('/auth/api/pre-auth-token').send({ email: null, password: 'whatever it is' }),
        422,
        ['email'],
      );
      expect(body.errors).toEqual({ email: ['The email field must not be null.'] });
    });
  });

  describe('null for a field that cannot be null: 422 "must not be null"', () => {
    it.each(['description', 'passenger_rate', 'order_id'])('refuses %s: null when a rate is created', async (field) => {
      const body = await refused(
        () =>
          http()
            .post('/api/expenses/rates')
            .set(as('admin'))
            .send({ short_name: 'Bike', rate: 0.2, [field]: null }),
        422,
        [field],
      );
      expect(body.errors![field]).toEqual([expect.stringMatching(/must not be null/)]);
    });

    it.each(['short_name', 'rate', 'description', 'passenger_rate', 'order_id'])(
      'refuses %s: null when a rate is updated',
      async (field) => {
        await refused(
          () =>
            http()
              .put(`/api/expenses/rates/${rate.id}`)
              .set(as('admin'))
              .send({ [field]: null }),
          422,
          [field],
        );
      },
    );

    it('refuses null names and positions of types, and null amount, date, type or description of expenses', async () => {
      await refused(
        () => http().put(`/api/expenses/types/${type.id}`).set(as('admin')).send({ name: null, position: null }),
        422,
        ['name', 'position'],
      );
      for (const field of ['amount', 'date', 'type', 'description']) {
        const body = await refused(
          () =>
            http()
              .put(`/api/users/${org.users.vol}/expenses/${expense.id}`)
              .set(as('vol'))
              .send({ [field]: null }),
          422,
          [field],
        );
        expect(body.errors![field]).toEqual([`The ${field} field must not be null.`]);
      }
      await refused(
        () =>
          http()
            .post('/api/expenses')
            .set(as('vol'))
            .send({ type: null, date: daysAgo(1), amount: 1 }),
        422,
        ['type'],
      );
      await refused(
        () =>
          http()
            .put(`/api/users/${org.users.vol}/expenses/${expense.id}`)
            .set(as('vol'))
            .send({ type: { id: null } }),
        422,
        ['type.id'],
      );
    });

    it('refuses null notes, rejection notes and switches on a claim', async () => {
      for (const field of ['notes', 'rejection_note', 'approved', 'submitted', 'assignedTo']) {
        await refused(
          () =>
            http()
              .put(`/api/users/${org.users.vol}/claims/${claim.id}`)
              .set(as(field === 'rejection_note' || field === 'approved' ? 'admin' : 'vol'))
              .send({ [field]: null }),
          422,
          [field],
        );
      }
    });

    it('still takes null where the field is nullable', async () => {
      const { body } = await http()
        .put(`/api/expenses/rates/${rate.id}`)
        .set(as('admin'))
        .send({ max_miles: null, end_date: null })
        .expect(200);
      expect(body).toMatchObject({ max_miles: null, end_date: null });
    });

    it('clears an organisation logo with null only; { id } must be a positive id', async () => {
      await http()
        .put('/api/organisation')
        .set(as('admin'))
        .send({ header_logo: { id: logo } })
        .expect(200);
      for (const ref of [
        { id: null },
        { id: 0 },
        { id: -1 },
        { id: '1' },
        { id: 1.5 },
        [{ id: logo }],
        {},
        { id: logo, extra: 1 },
      ]) {
        await refused(() => http().put('/api/organisation').set(as('admin')).send({ header_logo: ref }), 422, [
          'header_logo',
        ]);
      }
      expect(
        (await http().get('/api/organisation/detailed').set(as('admin')).expect(200)).body.data.header_logo,
      ).toMatchObject({ id: logo });
      const cleared = await http().put('/api/organisation').set(as('admin')).send({ header_logo: null }).expect(200);
      expect(cleared.body.data.header_logo).toBeNull();
    });
  });

  describe('structure: arrays where { id } is expected, missing bodies', () => {
    it('refuses an array (or a scalar) where a reference { id } is expected', async () => {
      const mileage = { type: { id: type.id }, date: daysAgo(1), miles: 10 };
      await refused(
        () =>
          http()
            .post('/api/expenses')
            .set(as('vol'))
            .send({ ...mileage, rate: [{ id: rate.id }] }),
        422,
        ['rate'],
      );
      await refused(
        () =>
          http()
            .post('/api/expenses')
            .set(as('vol'))
            .send({ ...mileage, rate: { id: rate.id }, type: [{ id: type.id }] }),
        422,
        ['type'],
      );
      await refused(
        () =>
          http()
            .post('/api/expenses')
            .set(as('vol'))
            .send({ ...mileage, rate: rate.id }),
        422,
        ['rate'],
      );
      await refused(
        () =>
          http()
            .put(`/api/users/${org.users.vol}/expenses/${expense.id}`)
            .set(as('vol'))
            .send({ role: [{ id: org.roles.vol![0] }] }),
        422,
        ['role'],
      );
      await refused(
        () =>
          http()
            .post('/api/claims')
            .set(as('vol'))
            .send({ assignedTo: [{ id: org.users.admin }], expenses: [{ id: expense.id }] }),
        422,
        ['assignedTo'],
      );
      await refused(
        () =>
          http()
            .post('/api/claims')
            .set(as('vol'))
            .send({ assignedTo: { id: org.users.admin }, expenses: [[{ id: expense.id }]] }),
        422,
        ['expenses'],
      );
    });

    it.each<[string, string, string]>([
      ['PUT', '/api/expenses/types/:type', 'admin'],
      ['PUT', '/api/expenses/rates/:rate', 'admin'],
      ['PUT', '/api/users/:vol/expenses/:expense', 'vol'],
      ['PUT', '/api/users/:vol/claims/:claim', 'vol'],
      ['PUT', '/api/organisation', 'admin'],
      ['POST', '/api/expenses', 'vol'],
    ])('%s %s without a body, or with a multipart one, is a 400', async (method, template, who) => {
      const path = template
        .replace(':type', String(type.id))
        .replace(':rate', String(rate.id))
        .replace(':vol', String(org.users.vol))
        .replace(':expense', String(expense.id))
        .replace(':claim', String(claim.id));
      const send = () => (method === 'PUT' ? http().put(path) : http().post(path)).set(as(who));
      expect((await refused(() => send(), 400)).message).toBe('A JSON object body is required.');
      expect((await refused(() => send().field('name', 'x'), 400)).message).toBe('A JSON object body is required.');
    });

    it('leaves routes that take no body alone (log-out)', async () => {
      const token = await logIn(app, 'vol@riverside.example');
      await http()
        .post('/auth/api/logout')
        .set({ authorization: `Bearer ${token}` })
        .expect(204);
    });
  });

  describe('an update that changes nothing records nothing', () => {
    it('expense type: {} and its own values', async () => {
      expect(await unchanged(() => http().put(`/api/expenses/types/${type.id}`).set(as('admin')).send({}))).toEqual(
        type,
      );
      expect(
        await unchanged(() =>
          http()
            .put(`/api/expenses/types/${type.id}`)
            .set(as('admin'))
            .send({ name: type.name, position: type.order_id }),
        ),
      ).toEqual(type);
    });

    it('expense rate: {} and its own values', async () => {
      const current = (await http().get(`/api/expenses/rates/${rate.id}`).set(as('admin')).expect(200)).body;
      expect(await unchanged(() => http().put(`/api/expenses/rates/${rate.id}`).set(as('admin')).send({}))).toEqual(
        current,
      );
      const same = {
        short_name: current.short_name,
        rate: current.rate,
        start_date: current.start_date,
        end_date: current.end_date,
        max_miles: current.max_miles,
        description: current.description,
      };
      expect(await unchanged(() => http().put(`/api/expenses/rates/${rate.id}`).set(as('admin')).send(same))).toEqual(
        current,
      );
    });

    it('expense: {} and its own values', async () => {
      const current = (
        await http().get(`/api/users/${org.users.vol}/expenses/${expense.id}`).set(as('vol')).expect(200)
      ).body;
      const path = `/api/users/${org.users.vol}/expenses/${expense.id}`;
      expect(await unchanged(() => http().put(path).set(as('vol')).send({}))).toEqual(current);
      expect(
        await unchanged(() =>
          http()
            .put(path)
            .set(as('vol'))
            .send({
              amount: current.amount,
              date: current.date,
              description: current.description,
              type: { id: type.id },
            }),
        ),
      ).toEqual(current);
    });

    it('organisation: {} and its own values', async () => {
      const { name } = (await http().get('/api/organisation').set(as('admin')).expect(200)).body.data;
      await unchanged(() => http().put('/api/organisation').set(as('admin')).send({}));
      await unchanged(() => http().put('/api/organisation').set(as('admin')).send({ name }));
    });

    it('a real change still records one event', async () => {
      const before = await events();
      await http().put(`/api/expenses/types/${type.id}`).set(as('admin')).send({ name: 'Travel costs' }).expect(200);
      expect(await events()).toBe(before + 1);
    });
  });
});
