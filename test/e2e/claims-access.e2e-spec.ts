import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import type { ProvisionResult } from '#app/identity';
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

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/**
 * Who may see and act on a claim (docs/expense-rules.md#who-sees-whose-records: a refusal by
 * permission or hierarchy is a 403; an unknown id or another organisation's record a 404), and the
 * CSV export's media type.
 */
describe('claims: 403 within the organisation, 404 outside it; the CSV export answers text/csv', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let org: ProvisionResult;
  const tokens: Record<string, string> = {};
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const user = (key: string, permissions: string[], team: string) => userFile(key, permissions, [team]);
  let claim: { id: number };
  let vol: number;

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    org = await provision(
      app,
      riversideFile([
        user('vol', ['create-expenses'], 'north-shop'),
        user('approver', ['approve-claims'], 'north'),
        // approve-claims, but over the south team only: vol is not theirs to approve.
        user('southern', ['approve-claims', 'edit-expense-settings'], 'south'),
        user('selfie', ['create-expenses', 'self-approve-claims'], 'north-shop'),
        user('noperm', [], 'north-shop'),
      ]),
    );
    await provision(
      app,
      hillsideFile([{ ...user('other', ['approve-claims', 'create-expenses'], 't'), email: 'other@hillside.example' }]),
    );
    Object.assign(tokens, await logInAll(app, ['vol', 'approver', 'southern', 'selfie', 'noperm']));
    tokens.other = await logIn(app, 'other@hillside.example');
    vol = org.users.vol!;
    const type = (
      await http().post('/api/expenses/types').set(as('southern')).send({ name: 'Travel', position: 1 }).expect(201)
    ).body;
    const expense = (
      await http()
        .post('/api/expenses')
        .set(as('vol'))
        .send({ type: { id: type.id }, date: daysAgo(2), amount: 12 })
        .expect(201)
    ).body;
    claim = (
      await http()
        .post('/api/claims')
        .set(as('vol'))
        .send({ assignedTo: { id: org.users.approver }, expenses: [{ id: expense.id }] })
        .expect(201)
    ).body;
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  const update = (who: string, owner: number, id: number, body: Record<string, unknown>) =>
    http().put(`/api/users/${owner}/claims/${id}`).set(as(who)).send(body);

  it('approving needs approve-claims over the owner: 403 for users of the organisation without it, 404 outside it', async () => {
    for (const who of ['selfie', 'southern', 'noperm']) {
      const res = await update(who, vol, claim.id, { approved: true }).expect(403);
      expect(res.body).toEqual({ message: expect.stringMatching(/approve-claims/), status_code: 403 });
    }
    await update('southern', vol, claim.id, { notes: 'mine now' }).expect(403);
    await update('southern', vol, claim.id, { rejection_note: 'no' }).expect(403);
    await update('other', vol, claim.id, { approved: true }).expect(404);
    await update('approver', vol, 999_999, { approved: true }).expect(404);
    await update('approver', 999_999, claim.id, { approved: true }).expect(404);
    await update('approver', org.users.selfie!, claim.id, { approved: true }).expect(404); // not selfie's claim
    const fresh = await http().get(`/api/users/${vol}/claims/${claim.id}`).set(as('vol')).expect(200);
    expect(fresh.body).toMatchObject({ approved: false, notes: '', rejection_note: null });
    expect((await update('approver', vol, claim.id, { approved: true }).expect(200)).body).toMatchObject({
      approved: true,
      approved_by_id: org.users.approver,
    });
  });

  it('reading a claim or a user’s claims: 403 within the organisation, 404 for another organisation or an unknown user', async () => {
    for (const who of ['selfie', 'southern', 'noperm']) {
      await http().get(`/api/users/${vol}/claims/${claim.id}`).set(as(who)).expect(403);
      await http().get(`/api/users/${vol}/claims`).set(as(who)).expect(403);
    }
    await http().get(`/api/users/${vol}/claims/${claim.id}`).set(as('other')).expect(404);
    await http().get(`/api/users/${vol}/claims`).set(as('other')).expect(404);
    await http().get('/api/users/999999/claims').set(as('approver')).expect(404);
    await http().get(`/api/users/${vol}/claims/999999`).set(as('approver')).expect(404);
    await http().get(`/api/users/${vol}/claims/${claim.id}`).set(as('approver')).expect(200);
    expect((await http().get(`/api/users/${vol}/claims`).set(as('vol')).expect(200)).body.data).toHaveLength(1);
  });

  it('the CSV export answers text/csv for Accept text/csv, text/*, */* or none, and 406 for a list naming only JSON', async () => {
    for (const accept of [
      'text/csv',
      'text/csv; charset=utf-8',
      'text/*',
      '*/*',
      'application/json;q=0.9, text/csv',
      undefined,
    ]) {
      const req = http().get('/api/claims/export.csv').set(as('approver'));
      const res = await (accept === undefined ? req : req.set('accept', accept)).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.text.split('\r\n')[0]).toMatch(/^claim_id,claimant,/);
    }
    for (const accept of ['application/json', 'application/x.uvol.v3+json', 'text/html']) {
      const res = await http().get('/api/claims/export.csv').set(as('approver')).set('accept', accept).expect(406);
      expect(res.body).toEqual({ message: 'This route produces text/csv only.', status_code: 406 });
    }
    await http().get('/api/claims').set(as('approver')).set('accept', 'text/csv').expect(406); // the JSON list stays JSON
  });
});
