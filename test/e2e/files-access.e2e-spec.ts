import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import sharp from 'sharp';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ProjectionReplayer } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { FileReferences1763700007200 } from '../../migrations/1763700007200-file-references.js';
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
import { eventCount } from '../support/nothing-written.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const png = () =>
  sharp({ create: { width: 80, height: 40, channels: 3, background: '#1e5ac8' } })
    .png()
    .toBuffer();
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

function riverside() {
  const user = (key: string, permissions: string[], team: string) => userFile(key, permissions, [team]);
  return riversideFile([
    user('a', ['create-expenses'], 'north-shop'),
    user('b', ['create-expenses'], 'north-shop'),
    // Approves claims for north and every team below it: a's and b's expenses.
    user('manager', ['approve-claims', 'create-expenses'], 'north'),
    // Runs the organisation, manages nobody's expenses.
    user('admin', ['manage-organisation', 'edit-expense-settings'], 'south'),
  ]);
}

describe('files: who may read a file (GET /api/files/{id}, issue 10, item 5)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let org: ProvisionResult;
  const tokens: Record<string, string> = {};
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const upload = async (who: string, content: Buffer, name: string): Promise<number> =>
    (await http().post('/api/files').set(as(who)).attach('file', content, name).expect(201)).body.data.id;
  const read = (who: string, id: number) => http().get(`/api/files/${id}`).set(as(who));
  /** Status of GET /api/files/{id} for each caller. */
  const statuses = async (id: number, who: string[]) =>
    Object.fromEntries(await Promise.all(who.map(async (w) => [w, (await read(w, id)).status])));

  let receipt: number;
  let note: number;
  let expenseId: number;
  let logo: number;

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '10000' });
    app = await bootStandalone(env.config);
    org = await provision(app, riverside());
    await provision(
      app,
      hillsideFile([userFile('other', ['manage-organisation', 'approve-claims'], ['t'], { domain: 'hillside' })]),
    );
    Object.assign(tokens, await logInAll(app, ['a', 'b', 'manager', 'admin']));
    tokens.other = await logIn(app, 'other@hillside.example');

    const type = (
      await http().post('/api/expenses/types').set(as('admin')).send({ name: 'Travel', position: 1 }).expect(201)
    ).body.id;
    receipt = await upload('a', PDF, 'receipt.pdf');
    note = await upload('a', PDF, 'note.pdf');
    expenseId = (
      await http()
        .post('/api/expenses')
        .set(as('a'))
        .send({ type: { id: type }, date: daysAgo(2), amount: 12 })
        .expect(201)
    ).body.id;
    await http().put(`/api/users/${org.users.a}/expenses/${expenseId}/attachments/${receipt}`).set(as('a')).expect(200);
    logo = await upload('admin', await png(), 'logo.png');
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('lets the uploader read both files, and nobody else the unattached one', async () => {
    expect((await read('a', receipt).expect(200)).body.data).toMatchObject({
      id: receipt,
      original_name: 'receipt.pdf',
      signed_url: expect.any(String),
    });
    expect(await statuses(note, ['a', 'b', 'manager', 'admin'])).toEqual({ a: 200, b: 403, manager: 403, admin: 403 });
  });

  it('lets whoever may read the expense read its attachment, as the attachment route does', async () => {
    expect(await statuses(receipt, ['a', 'b', 'manager', 'admin'])).toEqual({
      a: 200,
      b: 403,
      manager: 200,
      admin: 403,
    });
    const viaExpense = (who: string) =>
      http().get(`/api/users/${org.users.a}/expenses/${expenseId}/attachments/${receipt}`).set(as(who));
    expect({ manager: (await viaExpense('manager')).status, b: (await viaExpense('b')).status }).toEqual({
      manager: 200,
      b: 403,
    });
    const refused = await read('b', receipt);
    expect(refused.body).toEqual({ message: expect.any(String), status_code: 403 });
  });

  it('lets every member read an organisation image, once it is one', async () => {
    expect(await statuses(logo, ['a', 'b', 'manager', 'admin'])).toEqual({ a: 403, b: 403, manager: 403, admin: 200 });
    await http().put('/api/organisation').set(as('admin')).send({ header_logo: logo }).expect(200);
    expect(await statuses(logo, ['a', 'b', 'manager', 'admin'])).toEqual({ a: 200, b: 200, manager: 200, admin: 200 });
  });

  it('makes every id of another organisation, and an unknown id, a 404', async () => {
    for (const id of [receipt, note, logo]) {
      const res = await read('other', id);
      expect({ id, status: res.status, body: res.body }).toEqual({
        id,
        status: 404,
        body: { message: expect.any(String), status_code: 404 },
      });
    }
    await read('a', 999_999).expect(404);
    const theirs = await upload('other', PDF, 'theirs.pdf');
    expect(await statuses(theirs, ['a', 'manager', 'admin', 'other'])).toEqual({
      a: 404,
      manager: 404,
      admin: 404,
      other: 200,
    });
  });

  it('holds for every id in turn: b reads only its own files and the organisation image', async () => {
    const own = await upload('b', PDF, 'mine.pdf');
    const last = own + 2;
    const seen: Record<number, number> = {};
    for (let id = 1; id <= last; id++) seen[id] = (await read('b', id)).status;
    for (const [id, status] of Object.entries(seen)) {
      const expected =
        Number(id) === own || Number(id) === logo ? 200 : [receipt, note].includes(Number(id)) ? 403 : 404;
      expect({ id, status }).toEqual({ id, status: expected });
    }
  });

  it('follows the references as they go: a detached receipt and a replaced logo close again', async () => {
    await http()
      .delete(`/api/users/${org.users.a}/expenses/${expenseId}/attachments/${receipt}`)
      .set(as('a'))
      .expect(204);
    expect(await statuses(receipt, ['a', 'manager'])).toEqual({ a: 200, manager: 403 });
    await http().put(`/api/users/${org.users.a}/expenses/${expenseId}/attachments/${receipt}`).set(as('a')).expect(200);
    expect(await statuses(receipt, ['manager'])).toEqual({ manager: 200 });

    const next = await upload('admin', await png(), 'logo2.png');
    await http()
      .put('/api/organisation')
      .set(as('admin'))
      .send({ header_logo: next, logo: { id: logo } })
      .expect(200);
    expect({ next: await statuses(next, ['b']), logo: await statuses(logo, ['b']) }).toEqual({
      next: { b: 200 },
      logo: { b: 200 },
    });
    await http().put('/api/organisation').set(as('admin')).send({ logo: null }).expect(200);
    expect({ next: await statuses(next, ['b']), logo: await statuses(logo, ['b']) }).toEqual({
      next: { b: 200 },
      logo: { b: 403 },
    });

    const spare = await http()
      .post('/api/expenses')
      .set(as('a'))
      .send({
        type: { id: (await http().get('/api/expenses/types').set(as('a'))).body.data[0].id },
        date: daysAgo(1),
        amount: 3,
      })
      .expect(201);
    const slip = await upload('a', PDF, 'slip.pdf');
    await http()
      .put(`/api/users/${org.users.a}/expenses/${spare.body.id}/attachments/${slip}`)
      .set(as('a'))
      .expect(200);
    expect(await statuses(slip, ['manager'])).toEqual({ manager: 200 });
    await http().delete(`/api/users/${org.users.a}/expenses/${spare.body.id}`).set(as('a')).expect(204);
    expect(await statuses(slip, ['a', 'manager'])).toEqual({ a: 200, manager: 403 });
  });

  it('rebuilds the same answers from the event log', async () => {
    const before = await statuses(receipt, ['a', 'b', 'manager', 'admin']);
    const logoBefore = await statuses(logo, ['b']);
    const result = await app.get(ProjectionReplayer).replay(['files.references']);
    expect(result.projections).toEqual(['files.references']);
    expect(await statuses(receipt, ['a', 'b', 'manager', 'admin'])).toEqual(before);
    expect(await statuses(logo, ['b'])).toEqual(logoBefore);
    expect(before).toEqual({ a: 200, b: 403, manager: 200, admin: 403 });
  });

  it('is what the migration fills in for a site upgraded with references already made', async () => {
    const ds = app.get(DataSource);
    const rows = () =>
      ds.query(`SELECT organisation_id, referrer, referrer_id, file_id FROM file_references ORDER BY 1, 2, 3, 4`);
    const projected = await rows();
    expect(projected.map((r: { referrer: string }) => r.referrer)).toEqual(['expense', 'organisation']);
    const runner = ds.createQueryRunner();
    try {
      const migration = new FileReferences1763700007200();
      await migration.down(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await rows()).toEqual(projected);
  });

  it('refuses to make a member’s receipt the organisation’s logo, which would show it to everyone', async () => {
    const events = () => eventCount(app.get(DataSource));
    const photo = await upload('a', await png(), 'receipt-photo.png');
    const before = await events();
    const res = await http()
      .put('/api/organisation')
      .set(as('admin'))
      .send({ header_logo: { id: photo } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: expect.stringContaining('header_logo'), status_code: 403 });
    expect(await events()).toBe(before);
    expect(await statuses(photo, ['b'])).toEqual({ b: 403 });
  });
});
