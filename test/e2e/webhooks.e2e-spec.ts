import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ProjectionReplayer } from '#app/event-store';
import { Metrics, todayIn } from '#app/platform';
import { eventually } from '../support/eventually.js';
import { expectRefused, refusedFields, tableChecksum } from '../support/nothing-written.js';
import { bootStandalone, hillsideFile, logInAll, provision, riversideFile, userFile } from '../support/test-app.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request had come in whole. */
  arrivedAt: number;
}

/**
 * A real HTTP receiver on 127.0.0.1: records every request; `/fail-once…` answers 500 to a
 * webhook-id's first attempt, `/down…` 500 while `down`, `/hold…` never answers while `holding`
 * (then 204), `/slow…` 204 after 2.5 s, anything else 204.
 */
async function startReceiver() {
  const received: Received[] = [];
  const state = { holding: true, down: true };
  const open = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const seen = received.some((r) => r.path === path && r.headers['webhook-id'] === req.headers['webhook-id']);
      received.push({ path, headers: req.headers, body, arrivedAt: Date.now() });
      if (path.startsWith('/fail-once') && !seen) res.writeHead(500).end('no');
      else if (path.startsWith('/down') && state.down) res.writeHead(500).end('down');
      else if (path.startsWith('/hold') && state.holding) open.add(res);
      else if (path.startsWith('/slow')) setTimeout(() => res.writeHead(204).end(), 2_500);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    state,
    at: (path: string) => received.filter((r) => r.path === path),
    async stop() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const plusDays = (date: string, n: number) => DateTime.fromISO(date).plus({ days: n }).toISODate()!;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/**
 * docs/webhooks.md end to end, against a real receiver: endpoints and their refusals, signatures
 * that standardwebhooks verifies, retries with the same webhook-id, nothing for disabled,
 * unsubscribed or other organisations' endpoints, what a disabled endpoint is owed held back until
 * it is enabled, both secrets after a rotation, a ping, a replay of the endpoints projection, and a
 * delivery in flight when the worker stops that a new worker still delivers.
 */
/** A delivery's body, as far as the attendance test reads it. */
interface Delivered {
  type: string;
  data: { id: number; attendance: { status: string; recorded_by: unknown } | null };
}

describe('webhooks', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let tokens: Record<string, string>;
  let hillside: Record<string, string>;
  let teamId: number;
  let patternId: number;
  let org: Awaited<ReturnType<typeof provision>>;
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who] ?? hillside[who]}` });
  const ds = () => app.get(DataSource);
  const today = todayIn('Europe/London');
  // One rota per team per day: each new one starts a day after the last.
  let rotas = 0;

  const createEndpoint = async (who: string, path: string, events: string[] = ['*'], extra: object = {}) =>
    (
      await http()
        .post('/api/webhooks')
        .set(as(who))
        .send({ url: `${receiver.base}${path}`, events, ...extra })
        .expect(201)
    ).body.data as { id: number; secret: string; url: string };
  const createRota = async (name: string) =>
    (
      await http()
        .post('/api/rotas')
        .set(as('boss'))
        .send({ name, start_date: plusDays(today, ++rotas), pattern_id: patternId, team: [{ id: teamId }] })
        .expect(201)
    ).body.data[0] as { id: number; name: string };
  /** A rota of the team above (north) from `rotaStart`, and the boss's shift on it on `day`, 09:00–12:00. */
  const bookOnNewRota = async (name: string, rotaStart: string, day: string, extra: object = {}) => {
    const rota = (
      await http()
        .post('/api/rotas')
        .set(as('boss'))
        .send({ name, start_date: rotaStart, pattern_id: patternId, team: [{ id: org.teams.north! }] })
        .expect(201)
    ).body.data[0] as { id: number };
    const shift = (
      await http()
        .post('/api/rota/shifts')
        .set(as('boss'))
        .send({
          rota: { id: rota.id },
          user: { id: org.users.boss! },
          start_datetime: `${day} 09:00`,
          end_datetime: `${day} 12:00`,
          ...extra,
        })
        .expect(201)
    ).body.data as { id: number; recurrence_pattern: { id: number } | null };
    return { rota, shift };
  };
  /** The deliveries to `path` of the event whose body names `rotaName`. */
  const deliveriesOf = (path: string, rotaName: string) =>
    receiver.at(path).filter((r) => (JSON.parse(r.body) as { data: { name?: string } }).data.name === rotaName);

  beforeAll(async () => {
    receiver = await startReceiver();
    env = await testEnvironment({
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_SECOND_MS: '10',
      AUTH_RATE_LIMIT_PER_ADDRESS: '100000',
    });
    app = await bootStandalone(env.config);
    const organisation = await provision(
      app,
      riversideFile([
        userFile(
          'boss',
          ['manage-rotas', 'manage-integrations', 'create-expenses', 'edit-expense-settings'],
          ['north'],
        ),
        userFile('plain', ['manage-rotas'], ['north']),
        userFile('approver', ['approve-claims'], ['north']),
      ]),
    );
    org = organisation;
    teamId = org.teams['north-shop']!;
    await provision(app, hillsideFile([userFile('hilda', ['manage-integrations'], ['t'], { domain: 'hillside' })]));
    tokens = await logInAll(app, ['boss', 'plain', 'approver']);
    hillside = await logInAll(app, ['hilda'], 'hillside');
    const pattern = WEEKDAYS.map((d) => ({
      weekday_start: d,
      start_time: '09:00',
      weekday_end: d,
      end_time: '17:00',
      min: 1,
      ideal: 1,
      max: 5,
    }));
    patternId = (await http().post('/api/shift-patterns').set(as('boss')).send({ name: 'Days', pattern }).expect(201))
      .body.data.id;
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await receiver?.stop();
  });

  it('creates, shows, lists, changes and deletes endpoints; the secret is shown on create only', async () => {
    const created = await createEndpoint('boss', '/crud', ['rota.created'], { description: 'CRM' });
    expect(created).toEqual({
      id: expect.any(Number),
      url: `${receiver.base}/crud`,
      events: ['rota.created'],
      description: 'CRM',
      enabled: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    const { secret: _s, ...record } = created;
    expect((await http().get(`/api/webhooks/${created.id}`).set(as('boss')).expect(200)).body.data).toEqual(record);
    expect((await http().get('/api/webhooks').set(as('boss')).expect(200)).body.data[0]).toEqual(record);
    const changed = (
      await http()
        .put(`/api/webhooks/${created.id}`)
        .set(as('boss'))
        .send({ enabled: false, events: ['*'] })
        .expect(200)
    ).body.data;
    expect(changed).toEqual({ ...record, enabled: false, events: ['*'], updated_at: expect.any(String) });
    expect(
      JSON.stringify(
        await ds().query(`SELECT data FROM events WHERE stream_id = $1`, [`webhooks.Endpoint-${created.id}`]),
      ),
    ).not.toContain(created.secret.slice(6));
    await http().delete(`/api/webhooks/${created.id}`).set(as('boss')).expect(204);
    await http().get(`/api/webhooks/${created.id}`).set(as('boss')).expect(404);
  });

  it('refuses: 403 without manage-integrations, 404 for another organisation’s endpoint, 422 naming url or events', async () => {
    const theirs = await createEndpoint('hilda', '/theirs', ['ping']);
    await expectRefused(ds(), () => http().get('/api/webhooks').set(as('plain')), 403);
    await expectRefused(
      ds(),
      () =>
        http()
          .post('/api/webhooks')
          .set(as('plain'))
          .send({ url: `${receiver.base}/x`, events: ['*'] }),
      403,
    );
    for (const send of [
      () => http().get(`/api/webhooks/${theirs.id}`).set(as('boss')),
      () => http().put(`/api/webhooks/${theirs.id}`).set(as('boss')).send({ enabled: false }),
      () => http().delete(`/api/webhooks/${theirs.id}`).set(as('boss')),
      () => http().post(`/api/webhooks/${theirs.id}/secret`).set(as('boss')),
      () => http().post(`/api/webhooks/${theirs.id}/ping`).set(as('boss')),
      () => http().get(`/api/webhooks/${theirs.id}/deliveries`).set(as('boss')),
      () => http().post(`/api/webhooks/${theirs.id}/deliveries/msg_x/retry`).set(as('boss')),
    ])
      await expectRefused(ds(), send, 404, ['webhook_endpoints', 'webhook_deliveries']);
    const post = (body: object) => () => http().post('/api/webhooks').set(as('boss')).send(body);
    expect(await refusedFields(ds(), post({ url: 'ftp://hooks.example/x', events: ['*'] }))).toEqual(['url']);
    expect(
      await refusedFields(ds(), post({ url: `https://hooks.example/${'a'.repeat(2050)}`, events: ['*'] })),
    ).toEqual(['url']);
    expect(await refusedFields(ds(), post({ url: `${receiver.base}/x`, events: [] }))).toEqual(['events']);
    expect(await refusedFields(ds(), post({ url: `${receiver.base}/x`, events: ['shift.exploded'] }))).toEqual([
      'events',
    ]);
    expect(await refusedFields(ds(), post({ url: 42, events: 'all' }))).toEqual(['events', 'url']);
    await expectRefused(
      ds(),
      () => http().get(`/api/webhooks/${theirs.id}/deliveries?status=lost`).set(as('hilda')),
      422,
    );
  });

  it(
    'delivers each subscribed event, signed so that standardwebhooks verifies it, with the record as the API answers it; ' +
      'nothing to disabled, unsubscribed or other organisations’ endpoints',
    async () => {
      const main = await createEndpoint('boss', '/main', ['rota.created', 'rota.changed']);
      await createEndpoint('boss', '/disabled', ['*'], { enabled: false });
      await createEndpoint('boss', '/unsubscribed', ['claim.created', 'shift.booked']);
      await createEndpoint('hilda', '/other-org', ['*']);
      const rota = await createRota('Signed');
      await eventually(() => deliveriesOf('/main', 'Signed').length > 0, 60_000);
      const [got] = deliveriesOf('/main', 'Signed');
      const payload = new Webhook(main.secret).verify(got!.body, got!.headers as Record<string, string>);
      expect(payload).toEqual({ type: 'rota.created', timestamp: expect.stringMatching(/^\d{4}-.*Z$/), data: rota });
      expect(got!.headers['content-type']).toBe('application/json');
      expect(got!.headers['webhook-id']).toMatch(/^msg_/);
      expect(() =>
        new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
          got!.body,
          got!.headers as Record<string, string>,
        ),
      ).toThrow();
      // The fan-out of an event writes every endpoint's delivery at once: none was written for these.
      await new Promise((r) => setTimeout(r, 500));
      for (const path of ['/disabled', '/unsubscribed', '/other-org'])
        expect([path, receiver.at(path)]).toEqual([path, []]);
      const list = (
        await http().get(`/api/webhooks/${main.id}/deliveries?status=delivered`).set(as('boss')).expect(200)
      ).body;
      expect(list.data).toContainEqual({
        id: got!.headers['webhook-id'],
        event_type: 'rota.created',
        created_at: expect.any(String),
        status: 'delivered',
        attempts: 1,
        last_attempt_at: expect.any(String),
        next_attempt_at: null,
        response_status: 204,
      });
    },
  );

  it('attendance.recorded carries the Shift with its attendance, for a record and for a clear', async () => {
    await createEndpoint('boss', '/attendance', ['attendance.recorded']);
    // A rota of the team above, started in the past: a manager records attendance on a started shift.
    const yesterday = plusDays(today, -1);
    const { shift } = await bookOnNewRota('Worked', plusDays(today, -2), yesterday);
    const put = (body: object) =>
      http().put(`/api/rota/shifts/${shift.id}/attendance`).set(as('boss')).send(body).expect(200);
    await put({ status: 'no_show' });
    const recorded = (await http().get(`/api/rota/shifts/${shift.id}`).set(as('boss')).expect(200)).body.data;
    const received = () => receiver.at('/attendance').map((r) => JSON.parse(r.body) as Delivered);
    // A delivery reads the record when it is prepared: the clear waits for the first to go.
    await eventually(() => received().length >= 1, 60_000);
    await put({ status: null });
    await eventually(() => received().length >= 2, 60_000);
    const [first, second] = received();
    expect(first!.type).toBe('attendance.recorded');
    // The record as the API answers it (user summaries carry can_manage: false in a delivery).
    expect(first!.data.attendance).toEqual({
      ...recorded.attendance,
      recorded_by: expect.objectContaining({ id: org.users.boss }),
    });
    expect(first!.data.attendance!.status).toBe('no_show');
    expect(second).toMatchObject({ type: 'attendance.recorded', data: { id: shift.id, attendance: null } });
  });

  it('shift.booked, shift.changed and shift.cancelled carry the Shift; the last as it was, plus cancelled: true', async () => {
    await createEndpoint('boss', '/shifts', ['shift.booked', 'shift.changed', 'shift.cancelled']);
    const day = plusDays(today, 60);
    const { shift } = await bookOnNewRota('Shifty', plusDays(today, 59), day);
    const received = () =>
      receiver
        .at('/shifts')
        .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> & { id: number } })
        .filter((b) => b.data.id === shift.id);
    const shown = async () => (await http().get(`/api/rota/shifts/${shift.id}`).set(as('boss')).expect(200)).body.data;
    const booked = await shown();
    // A delivery reads the record when it is prepared: each change waits for the one before to go.
    await eventually(() => received().length >= 1, 60_000);
    await http()
      .put(`/api/rota/shifts/${shift.id}`)
      .set(as('boss'))
      .send({ start_datetime: `${day} 10:00`, end_datetime: `${day} 13:00`, edit_mode: 'single' })
      .expect(200);
    const changed = await shown();
    await eventually(() => received().length >= 2, 60_000);
    await http().delete(`/api/rota/shifts/${shift.id}`).set(as('boss')).expect(204);
    await eventually(() => received().length >= 3, 60_000);
    const [first, second, third] = received();
    const record = (data: unknown) => ({ ...(data as object), user: expect.objectContaining({ id: org.users.boss }) });
    expect(first).toEqual({ type: 'shift.booked', timestamp: expect.any(String), data: record(booked) });
    expect(second).toEqual({ type: 'shift.changed', timestamp: expect.any(String), data: record(changed) });
    expect(third).toEqual({
      type: 'shift.cancelled',
      timestamp: expect.any(String),
      data: { ...record(changed), cancelled: true },
    });
  }, 240_000);

  it('a shift taken over is shift.changed, carrying the Shift now the taker’s (docs/rota-domain.md#stand-ins-and-take-overs)', async () => {
    await createEndpoint('boss', '/handed', ['shift.changed']);
    const { shift } = await bookOnNewRota('Handed', plusDays(today, 69), plusDays(today, 70));
    await http().put(`/api/rota/shifts/${shift.id}/stand-in`).set(as('boss')).send({}).expect(200);
    await http()
      .post(`/api/rota/shifts/${shift.id}/take-over`)
      .set(as('boss'))
      .send({ user: { id: org.users.plain } })
      .expect(200);
    const received = () =>
      receiver
        .at('/handed')
        .map(
          (r) => JSON.parse(r.body) as { type: string; data: { id: number; user: { id: number }; stand_in: unknown } },
        )
        .filter((b) => b.data.id === shift.id);
    await eventually(() => received().length >= 1, 60_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(received().map((b) => [b.type, b.data.user.id, b.data.stand_in])).toEqual([
      ['shift.changed', org.users.plain, null],
    ]);
  }, 240_000);

  it('expense.created, expense.updated and expense.deleted carry the Expense; the last as it was, plus deleted: true', async () => {
    await createEndpoint('boss', '/expenses', ['expense.created', 'expense.updated', 'expense.deleted']);
    const type = (await http().post('/api/expenses/types').set(as('boss')).send({ name: 'Hooks' }).expect(201))
      .body as {
      id: number;
    };
    const created = (
      await http()
        .post('/api/expenses')
        .set(as('boss'))
        .send({ type: { id: type.id }, date: plusDays(today, -1), amount: 12.5 })
        .expect(201)
    ).body as { id: number };
    const path = `/api/users/${org.users.boss}/expenses/${created.id}`;
    const received = () =>
      receiver
        .at('/expenses')
        .map((r) => JSON.parse(r.body) as { type: string; data: { id: number } })
        .filter((b) => b.data.id === created.id);
    await eventually(() => received().length >= 1, 60_000);
    const updated = (await http().put(path).set(as('boss')).send({ amount: 7.5, description: 'lunch' }).expect(200))
      .body;
    await eventually(() => received().length >= 2, 60_000);
    await http().delete(path).set(as('boss')).expect(204);
    await eventually(() => received().length >= 3, 60_000);
    const [first, second, third] = received();
    expect(first).toEqual({ type: 'expense.created', timestamp: expect.any(String), data: created });
    expect(second).toEqual({ type: 'expense.updated', timestamp: expect.any(String), data: updated });
    expect(third).toEqual({
      type: 'expense.deleted',
      timestamp: expect.any(String),
      data: { ...updated, deleted: true },
    });
  }, 240_000);

  it('claim.created, claim.approved and claim.rejected carry the Claim with its id and user_id', async () => {
    await createEndpoint('boss', '/claims', ['claim.created', 'claim.approved', 'claim.rejected']);
    const type = (await http().post('/api/expenses/types').set(as('boss')).send({ name: 'Claimed' }).expect(201))
      .body as { id: number };
    const claimOf = async (amount: number) => {
      const expense = (
        await http()
          .post('/api/expenses')
          .set(as('boss'))
          .send({ type: { id: type.id }, date: plusDays(today, -1), amount })
          .expect(201)
      ).body as { id: number };
      return (
        await http()
          .post('/api/claims')
          .set(as('boss'))
          .send({ assignedTo: { id: org.users.approver }, notes: 'hooks', expenses: [{ id: expense.id }] })
          .expect(201)
      ).body as { id: number; user_id: number };
    };
    const received = (id: number) =>
      receiver
        .at('/claims')
        .map((r) => JSON.parse(r.body) as { type: string; data: { id: number } })
        .filter((b) => b.data.id === id);
    const shown = async (id: number) =>
      (await http().get(`/api/users/${org.users.boss}/claims/${id}`).set(as('boss')).expect(200)).body;
    const approved = await claimOf(10);
    expect(approved).toMatchObject({ id: expect.any(Number), user_id: org.users.boss });
    const asCreated = await shown(approved.id);
    await eventually(() => received(approved.id).length >= 1, 60_000);
    await http()
      .put(`/api/users/${org.users.boss}/claims/${approved.id}`)
      .set(as('approver'))
      .send({ approved: true, approval_note: 'ok' })
      .expect(200);
    const asApproved = await shown(approved.id);
    await eventually(() => received(approved.id).length >= 2, 60_000);
    expect(received(approved.id)).toEqual([
      { type: 'claim.created', timestamp: expect.any(String), data: asCreated },
      { type: 'claim.approved', timestamp: expect.any(String), data: asApproved },
    ]);
    const rejected = await claimOf(11);
    await eventually(() => received(rejected.id).length >= 1, 60_000);
    await http()
      .put(`/api/users/${org.users.boss}/claims/${rejected.id}`)
      .set(as('approver'))
      .send({ rejection_note: 'no receipt' })
      .expect(200);
    const asRejected = await shown(rejected.id);
    await eventually(() => received(rejected.id).length >= 2, 60_000);
    expect(received(rejected.id)[1]).toEqual({
      type: 'claim.rejected',
      timestamp: expect.any(String),
      data: asRejected,
    });
  }, 240_000);

  it('repeating_shift.started and repeating_shift.ended carry { id, user_id, rota_id, period, frequency, start_date, end_date }', async () => {
    await createEndpoint('boss', '/series', ['repeating_shift.started', 'repeating_shift.ended']);
    const day = plusDays(today, 80);
    const { rota, shift } = await bookOnNewRota('Series', plusDays(today, 79), day, {
      recurrence_pattern: { recurrence_period: 'week', recurrence_frequency: 2, end_date: plusDays(day, 27) },
    });
    const seriesId = shift.recurrence_pattern!.id;
    const received = () =>
      receiver
        .at('/series')
        .map((r) => JSON.parse(r.body) as { type: string; data: { id: number } })
        .filter((b) => b.data.id === seriesId);
    const series = (await http().get(`/api/rota/repeating-shifts/${seriesId}`).set(as('boss')).expect(200)).body
      .data as Record<string, unknown>;
    await eventually(() => received().length >= 1, 60_000);
    await http().delete(`/api/rota/repeating-shifts/${seriesId}`).set(as('boss')).expect(204);
    await eventually(() => received().length >= 2, 60_000);
    const [started, ended] = received();
    const fields = ['id', 'user_id', 'rota_id', 'period', 'frequency', 'start_date', 'end_date'];
    expect(started).toEqual({
      type: 'repeating_shift.started',
      timestamp: expect.any(String),
      data: Object.fromEntries(fields.map((f) => [f, series[f]])),
    });
    expect(started!.data).toMatchObject({ user_id: org.users.boss, rota_id: rota.id, period: 'week', frequency: 2 });
    expect(ended!.type).toBe('repeating_shift.ended');
    expect(Object.keys(ended!.data).sort()).toEqual([...fields].sort());
  }, 240_000);

  it('retries a 500 with the same webhook-id, and a manual retry sends it once more with that id', async () => {
    const flaky = await createEndpoint('boss', '/fail-once', ['rota.created']);
    await createRota('Flaky');
    await eventually(() => deliveriesOf('/fail-once', 'Flaky').length >= 2, 60_000);
    const [first, second] = deliveriesOf('/fail-once', 'Flaky');
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    const id = first!.headers['webhook-id'] as string;
    await eventually(async () => {
      const [d] = (await http().get(`/api/webhooks/${flaky.id}/deliveries`).set(as('boss')).expect(200)).body.data;
      return d.status === 'delivered' && d.attempts === 2 && d.response_status === 204;
    });
    const retried = await http().post(`/api/webhooks/${flaky.id}/deliveries/${id}/retry`).set(as('boss')).expect(202);
    expect(retried.body.data).toMatchObject({ id, status: 'pending' });
    await eventually(() => deliveriesOf('/fail-once', 'Flaky').length === 3, 60_000);
    expect(deliveriesOf('/fail-once', 'Flaky')[2]!.headers['webhook-id']).toBe(id);
  });

  it('last_attempt_at is when the attempt started (its webhook-timestamp), not when the slow answer came', async () => {
    const endpoint = await createEndpoint('boss', '/slow', ['ping']);
    await http().post(`/api/webhooks/${endpoint.id}/ping`).set(as('boss')).expect(202);
    let delivery: { status: string; last_attempt_at: string } | undefined;
    await eventually(async () => {
      [delivery] = (await http().get(`/api/webhooks/${endpoint.id}/deliveries`).set(as('boss')).expect(200)).body.data;
      return delivery?.status === 'delivered';
    });
    const [request] = receiver.at('/slow');
    const lastAttempt = Date.parse(delivery!.last_attempt_at);
    expect(lastAttempt / 1000).toBe(Number(request!.headers['webhook-timestamp']));
    expect(lastAttempt).toBeLessThanOrEqual(request!.arrivedAt);
  });

  it('counts attempts in uvol_webhook_deliveries_total by outcome: a 500 retried, then delivered', async () => {
    const outcomes = async () => {
      const metric = app.get(Metrics).registry.getSingleMetric('uvol_webhook_deliveries_total')!;
      const { values } = await metric.get();
      return Object.fromEntries(values.map((v) => [v.labels.outcome, v.value])) as Record<string, number>;
    };
    const before = await outcomes();
    const endpoint = await createEndpoint('boss', '/fail-once-counted', ['rota.created']);
    await createRota('Counted');
    await eventually(async () => {
      const [d] = (await http().get(`/api/webhooks/${endpoint.id}/deliveries`).set(as('boss')).expect(200)).body.data;
      return d?.status === 'delivered';
    }, 60_000);
    const after = await outcomes();
    expect(after.retried).toBeGreaterThanOrEqual((before.retried ?? 0) + 1);
    expect(after.delivered).toBeGreaterThanOrEqual((before.delivered ?? 0) + 1);
  });

  it('after a rotation both the old and the new secret verify; a ping reaches a disabled endpoint', async () => {
    const endpoint = await createEndpoint('boss', '/rotated', ['rota.created']);
    const rotated = (await http().post(`/api/webhooks/${endpoint.id}/secret`).set(as('boss')).expect(200)).body.data
      .secret as string;
    expect(rotated).not.toBe(endpoint.secret);
    await createRota('Rotated');
    await eventually(() => deliveriesOf('/rotated', 'Rotated').length > 0, 60_000);
    const [got] = deliveriesOf('/rotated', 'Rotated');
    expect((got!.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated])
      expect(new Webhook(secret).verify(got!.body, got!.headers as Record<string, string>)).toMatchObject({
        type: 'rota.created',
      });
    await http().put(`/api/webhooks/${endpoint.id}`).set(as('boss')).send({ enabled: false }).expect(200);
    const ping = (await http().post(`/api/webhooks/${endpoint.id}/ping`).set(as('boss')).expect(202)).body.data;
    expect(ping).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      event_type: 'ping',
      status: 'pending',
      attempts: 0,
    });
    await eventually(() => receiver.at('/rotated').some((r) => r.headers['webhook-id'] === ping.id), 60_000);
    const body = receiver.at('/rotated').find((r) => r.headers['webhook-id'] === ping.id)!;
    expect(new Webhook(rotated).verify(body.body, body.headers as Record<string, string>)).toEqual({
      type: 'ping',
      timestamp: expect.any(String),
      data: { endpoint_id: endpoint.id },
    });
  });

  it('what a disabled endpoint is owed is not sent (nor counted) while it is disabled, and goes once it is enabled', async () => {
    const endpoint = await createEndpoint('boss', '/down', ['rota.created']);
    await createRota('Owed');
    await eventually(() => deliveriesOf('/down', 'Owed').length > 0, 60_000);
    await http().put(`/api/webhooks/${endpoint.id}`).set(as('boss')).send({ enabled: false }).expect(200);
    // An attempt on the wire during the change has been answered (500) by now.
    await new Promise((r) => setTimeout(r, 500));
    const attempts = deliveriesOf('/down', 'Owed').length;
    const id = deliveriesOf('/down', 'Owed')[0]!.headers['webhook-id'];
    receiver.state.down = false;
    // At WEBHOOK_RETRY_SECOND_MS=10 the retries after a first and second failure come 50 ms and 3 s
    // later, and the sweep runs every 5 s: by now an enabled endpoint would have had the next one.
    await new Promise((r) => setTimeout(r, 6_000));
    expect(deliveriesOf('/down', 'Owed')).toHaveLength(attempts);
    const listed = async () =>
      (await http().get(`/api/webhooks/${endpoint.id}/deliveries`).set(as('boss')).expect(200)).body.data[0];
    expect(await listed()).toMatchObject({ id, status: 'pending', attempts, response_status: 500 });
    await http().put(`/api/webhooks/${endpoint.id}`).set(as('boss')).send({ enabled: true }).expect(200);
    await eventually(() => deliveriesOf('/down', 'Owed').length === attempts + 1, 60_000);
    expect(deliveriesOf('/down', 'Owed')[attempts]!.headers['webhook-id']).toBe(id);
    await eventually(async () => (await listed()).status === 'delivered');
    expect(await listed()).toMatchObject({ id, status: 'delivered', attempts: attempts + 1, response_status: 204 });
  });

  it('replaying the endpoints projection gives the same rows (checksum)', async () => {
    const live = await tableChecksum(ds(), 'webhook_endpoints');
    expect(live.n).toBeGreaterThan(3);
    expect(
      (await ds().query(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE previous_secret IS NOT NULL`))[0].n,
    ).toBeGreaterThan(0);
    await app.get(ProjectionReplayer).replay(['webhooks.endpoints']);
    expect(await tableChecksum(ds(), 'webhook_endpoints')).toEqual(live);
  });

  it('a delivery in flight when the worker stops cleanly is delivered by the next worker, with the same webhook-id', async () => {
    await createEndpoint('boss', '/hold', ['rota.created']);
    await createRota('Held');
    await eventually(() => deliveriesOf('/hold', 'Held').length > 0, 60_000);
    const id = deliveriesOf('/hold', 'Held')[0]!.headers['webhook-id'];
    await app.close();
    receiver.state.holding = false;
    app = await bootStandalone(env.config);
    await eventually(() => deliveriesOf('/hold', 'Held').length >= 2, 60_000);
    expect(deliveriesOf('/hold', 'Held').map((r) => r.headers['webhook-id'])).toEqual(
      deliveriesOf('/hold', 'Held').map(() => id),
    );
    const [row] = await ds().query(`SELECT status FROM webhook_deliveries WHERE id = $1`, [id]);
    await eventually(
      async () =>
        (await ds().query(`SELECT status FROM webhook_deliveries WHERE id = $1`, [id]))[0].status === 'delivered',
    );
    expect(row).toBeDefined();
  });
});

/**
 * docs/webhooks.md#addresses without WEBHOOK_ALLOW_PRIVATE: a url whose host is not public unicast,
 * in any of its forms, is refused before anything is written, on create and on change. Every host
 * here is an address literal or a local name, so the check asks no DNS and sends nothing. The
 * endpoints created (public address literals) are disabled and subscribe to pings only: nothing is
 * sent to them.
 */
describe('webhooks without WEBHOOK_ALLOW_PRIVATE', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let token: string;
  const http = () => request(app.getHttpServer());
  const ds = () => app.get(DataSource);
  const TABLES = ['webhook_endpoints', 'webhook_deliveries'];
  const PRIVATE_URLS = [
    'http://127.0.0.1:9/x',
    'http://10.0.0.1/',
    'http://[::1]/',
    'http://169.254.169.254/',
    'http://localhost/',
    'http://localhost./',
    'http://hooks.localhost/',
    'http://198.18.0.1/', // benchmarking
    'http://192.0.2.10/', // documentation
    'http://[::ffff:127.0.0.1]/', // IPv4-mapped
    'http://[::ffff:0:127.0.0.1]/', // IPv4-translated
    'http://[64:ff9b::127.0.0.1]/', // NAT64
    'http://[::127.0.0.1]/', // IPv4-compatible
    'http://224.0.0.1/', // multicast
    'http://[ff02::1]/',
    'http://255.255.255.255/', // broadcast
  ];
  /** Public unicast literals: accepted, never called (disabled, pings only). */
  const PUBLIC_URLS = [
    'https://93.184.216.34/hooks',
    'https://[2606:4700::1111]/hooks',
    'https://[64:ff9b::808:808]/x',
  ];

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    expect(env.config.webhooks.allowPrivate).toBe(false);
    app = await bootStandalone(env.config);
    await provision(app, riversideFile([userFile('boss', ['manage-integrations'], ['north'])]));
    token = (await logInAll(app, ['boss'])).boss!;
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('refuses a url whose host is not public unicast, in every form, with a 422 naming url, writing nothing', async () => {
    for (const url of PRIVATE_URLS) {
      const body = await expectRefused(
        ds(),
        () =>
          http()
            .post('/api/webhooks')
            .set({ authorization: `Bearer ${token}` })
            .send({ url, events: ['*'] }),
        422,
        TABLES,
      );
      expect([url, Object.keys(body.errors ?? {})]).toEqual([url, ['url']]);
    }
  });

  it('accepts a public unicast address, also as the NAT64 form of one', async () => {
    for (const url of PUBLIC_URLS) {
      const created = await http()
        .post('/api/webhooks')
        .set({ authorization: `Bearer ${token}` })
        .send({ url, events: ['ping'], enabled: false });
      expect([url, created.status, created.body.data?.url]).toEqual([url, 201, url]);
    }
  });

  it('refuses a change of url to one of them likewise; the endpoint keeps its url', async () => {
    const created = (
      await http()
        .post('/api/webhooks')
        .set({ authorization: `Bearer ${token}` })
        .send({ url: PUBLIC_URLS[0], events: ['ping'], enabled: false })
        .expect(201)
    ).body.data as { id: number; url: string };
    for (const url of PRIVATE_URLS) {
      const body = await expectRefused(
        ds(),
        () =>
          http()
            .put(`/api/webhooks/${created.id}`)
            .set({ authorization: `Bearer ${token}` })
            .send({ url }),
        422,
        TABLES,
      );
      expect([url, Object.keys(body.errors ?? {})]).toEqual([url, ['url']]);
    }
    const shown = await http()
      .get(`/api/webhooks/${created.id}`)
      .set({ authorization: `Bearer ${token}` });
    expect(shown.body.data.url).toBe(PUBLIC_URLS[0]);
    expect((await ds().query(`SELECT count(*)::int AS n FROM webhook_deliveries`))[0].n).toBe(0);
  });
});

/** A free port on 127.0.0.1 for a child process to listen on. */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The must-show: a worker killed (SIGKILL, no shutdown) while the receiver holds a delivery's
 * request open, then started again on the same data, still delivers it, with the same webhook-id.
 * The service runs as an operator runs it: the built standalone (api + worker) in a child process,
 * on the test's database and Redis, or in the embedded mode on its PGlite data folder, which the
 * restart must open again after the crash. The dead attempt's lease (15 s) runs out, then the sweep
 * (every 5 s) offers the delivery again.
 */
describe('a worker killed while a delivery is in flight', () => {
  let env: TestEnvironment;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let child: ChildProcess | undefined;
  let base = '';
  let token: string;
  let patternId: number;
  let teamId: number;
  let endpointId: number;
  let stderr = '';
  const today = todayIn('Europe/London');

  const start = async (): Promise<void> => {
    const port = await freePort();
    const childEnv: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://api.test',
      DATA_DIR: env.config.dataDir,
      DATABASE_URL: env.config.database.url ?? '',
      REDIS_URL: env.config.queue.redisUrl ?? '',
      QUEUE_PREFIX: env.config.queue.prefix,
      JWT_SECRET: env.config.auth.jwtSecret,
      REACTOR_POLL_MS: '50',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    };
    const started = spawn(process.execPath, [join(process.cwd(), 'dist/apps/standalone/src/main.js')], {
      env: childEnv as NodeJS.ProcessEnv,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    started.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-8000)));
    child = started;
    base = `http://127.0.0.1:${port}`;
    await eventually(async () => {
      if (started.exitCode !== null) throw new Error(`the service exited (${started.exitCode}): ${stderr}`);
      return (await fetch(`${base}/health`).catch(() => undefined))?.status === 200;
    }, 90_000);
  };
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  };
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    receiver = await startReceiver();
    env = await testEnvironment({ WEBHOOK_ALLOW_PRIVATE: 'true', AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    // Set up in this process, then closed: in the embedded mode the child must have the data folder to itself.
    const app = await bootStandalone(env.config);
    try {
      const org = await provision(
        app,
        riversideFile([userFile('boss', ['manage-rotas', 'manage-integrations'], ['north'])]),
      );
      teamId = org.teams['north-shop']!;
      token = (await logInAll(app, ['boss'])).boss!;
      const auth = { authorization: `Bearer ${token}` };
      const pattern = WEEKDAYS.map((d) => ({
        weekday_start: d,
        start_time: '09:00',
        weekday_end: d,
        end_time: '17:00',
        min: 1,
        ideal: 1,
        max: 5,
      }));
      patternId = (
        await request(app.getHttpServer())
          .post('/api/shift-patterns')
          .set(auth)
          .send({ name: 'Days', pattern })
          .expect(201)
      ).body.data.id;
      endpointId = (
        await request(app.getHttpServer())
          .post('/api/webhooks')
          .set(auth)
          .send({ url: `${receiver.base}/hold-kill`, events: ['rota.created'] })
          .expect(201)
      ).body.data.id;
    } finally {
      await app.close();
    }
  }, 120_000);
  afterAll(async () => {
    await stop('SIGTERM');
    await env?.cleanup();
    await receiver?.stop();
  });

  it('is delivered after a restart on the same data, with the same webhook-id', async () => {
    await start();
    const created = await api('POST', '/api/rotas', {
      name: 'Killed',
      start_date: plusDays(today, 1),
      pattern_id: patternId,
      team: [{ id: teamId }],
    });
    expect(created.status).toBe(201);
    const held = () =>
      receiver
        .at('/hold-kill')
        .filter((r) => (JSON.parse(r.body) as { data: { name?: string } }).data.name === 'Killed');
    await eventually(() => held().length > 0, 60_000);
    const id = held()[0]!.headers['webhook-id'];
    await stop('SIGKILL');
    receiver.state.holding = false;
    await start();
    await eventually(() => held().length >= 2, 90_000);
    expect(held().map((r) => r.headers['webhook-id'])).toEqual(held().map(() => id));
    await eventually(async () => {
      // The restarted service may still answer an error (503 while it connects): ask again.
      const list = (await (await api('GET', `/api/webhooks/${endpointId}/deliveries`)).json()) as {
        data?: { id: string; status: string }[];
      };
      return Array.isArray(list.data) && list.data.some((d) => d.id === id && d.status === 'delivered');
    }, 30_000);
  }, 240_000);
});
