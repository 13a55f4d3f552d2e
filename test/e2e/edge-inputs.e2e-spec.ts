import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { ProvisionResult } from '#app/identity';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logInAll, provision, subscribeWebhooks, userFile } from '../support/test-app.js';
import { expectRefused, tableChecksum } from '../support/nothing-written.js';

/** Tokyo is ahead of UTC (a late instant is past the calendar there first); New York behind it. */
const ZONE = 'Asia/Tokyo';
const PAST_CALENDAR = /between 0001-01-01 and 9999-12-31, in UTC and in the organisation's time zone/;
/** superagent would send a Buffer as JSON (`{ type: 'Buffer', data }`): these go out byte for byte. */
const asIs = ((raw: Buffer) => raw) as unknown as (body: unknown) => string;
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/**
 * Inputs at the calendar's edge and bytes that are not text (docs/rota-domain.md#times-in-requests,
 * docs/http-conventions.md#status-codes): a shift or series outside 0001-01-01–9999-12-31 is a 422
 * naming the field, a body that is not UTF-8 a 400; neither writes anything.
 */
describe('edge inputs: the calendar’s last day and bodies that are not UTF-8', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let org: ProvisionResult;
  let rota: number;
  let shiftId: number;
  const tokens: Record<string, string> = {};
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const shift = (start: string, end: string, extra: object = {}) => ({
    rota: { id: rota },
    user: { id: org.users.boss },
    start_datetime: start,
    end_datetime: end,
    ...extra,
  });
  const book = (body: object) => http().post('/api/rota/shifts').set(as('boss')).send(body);
  const refusedFields = async (send: () => request.Test) => {
    const body = await expectRefused(ds, send, 422, ['rota_shifts', 'rotas']);
    return body.errors!;
  };

  /** An organisation in `zone` whose manager `boss` has a rota covering every day, from 2020. */
  async function organisationWithRota(slug: string, zone: string): Promise<{ org: ProvisionResult; rota: number }> {
    const provisioned = await provision(app, {
      organisation: { name: slug, slug, timezone: zone, features: ['rota_v2'] },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [{ key: 'north', name: 'North' }],
      users: [userFile('boss', ['manage-rotas', 'manage-integrations'], ['north'], { domain: slug })],
    });
    const token = (await logInAll(app, ['boss'], slug)).boss!;
    await subscribeWebhooks(app, token, env.webhookReceiver);
    const pattern = DAYS.map((d) => ({
      weekday_start: d,
      start_time: '00:00',
      weekday_end: d,
      end_time: '23:59',
      min: 0,
      ideal: 1,
      max: 5,
    }));
    const auth = { authorization: `Bearer ${token}` };
    const patternId = (
      await http().post('/api/shift-patterns').set(auth).send({ name: 'All day', pattern }).expect(201)
    ).body.data.id;
    const body = {
      name: slug,
      start_date: '2020-01-06',
      pattern_id: patternId,
      team: [{ id: provisioned.teams.north }],
    };
    tokens[slug] = token;
    return {
      org: provisioned,
      rota: (await http().post('/api/rotas').set(auth).send(body).expect(201)).body.data[0].id,
    };
  }

  beforeAll(async () => {
    env = await testEnvironment({}, { operatorFeatures: true });
    app = await bootStandalone(env.config);
    ds = app.get(DataSource);
    ({ org, rota } = await organisationWithRota('edge', ZONE));
    tokens.boss = tokens.edge!;
    shiftId = (await book(shift('9999-12-30 09:00', '9999-12-30 10:00')).expect(201)).body.data.id;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('books the calendar’s last day itself (23:00–23:59 in the zone)', async () => {
    const res = await book(shift('9999-12-31 23:00', '9999-12-31 23:59')).expect(201);
    expect(res.body.data).toMatchObject({ date: '9999-12-31', start_time: '23:00', end_time: '23:59' });
  });

  it('a single create past 9999-12-31 in the zone (an instant in UTC that is already 10000 in Tokyo) is a 422 naming the field', async () => {
    const errors = await refusedFields(() => book(shift('9999-12-31T14:30:00Z', '9999-12-31T15:30:00Z')));
    expect(Object.keys(errors)).toEqual(['end_datetime']);
    expect(errors.end_datetime![0]).toMatch(PAST_CALENDAR);
    const both = await refusedFields(() => book(shift('9999-12-31T20:00:00-05:00', '9999-12-31T21:00:00-05:00')));
    expect(Object.keys(both).sort()).toEqual(['end_datetime', 'start_datetime']);
  });

  it('a bulk item past it is a 422 naming shifts.n.<field>, and the bulk books nothing', async () => {
    const errors = await refusedFields(() =>
      book({
        shifts: [
          shift('9999-12-29 09:00', '9999-12-29 10:00'),
          shift('9999-12-31T23:00:00-12:00', '9999-12-31T23:30:00-12:00'),
        ],
      }),
    );
    expect(Object.keys(errors).sort()).toEqual(['shifts.1.end_datetime', 'shifts.1.start_datetime']);
    expect(errors['shifts.1.start_datetime']![0]).toMatch(PAST_CALENDAR);
  });

  it('an update past it is a 422 naming the field', async () => {
    const errors = await refusedFields(() =>
      http()
        .put(`/api/rota/shifts/${shiftId}`)
        .set(as('boss'))
        .send({ start_datetime: '9999-12-31 22:00', end_datetime: '9999-12-31T16:00:00Z', edit_mode: 'single' }),
    );
    expect(Object.keys(errors)).toEqual(['end_datetime']);
    expect(errors.end_datetime![0]).toMatch(PAST_CALENDAR);
  });

  it('a repeating shift whose series would run past it is a 422 naming recurrence_pattern.end_date', async () => {
    const weekly = (end_date: string | null) => ({ recurrence_period: 'week', recurrence_frequency: 1, end_date });
    // 9999-12-27 is a Monday: six months on is past the calendar.
    const open = await refusedFields(() =>
      book(shift('9999-12-27 09:00', '9999-12-27 10:00', { recurrence_pattern: weekly(null) })),
    );
    expect(open).toEqual({
      'recurrence_pattern.end_date': [expect.stringMatching(/open-ended series from 9999-12-27/)],
    });
    // An overnight shift whose last occurrence, on the last day, would end on 10000-01-01.
    const overnight = await refusedFields(() =>
      book({
        shifts: [shift('9999-12-20 22:00', '9999-12-21 02:00', { recurrence_pattern: weekly('9999-12-31') })],
      }),
    );
    expect(Object.keys(overnight)).toEqual(['shifts.0.recurrence_pattern.end_date']);
    const splitting = await refusedFields(() =>
      http()
        .put(`/api/rota/shifts/${shiftId}`)
        .set(as('boss'))
        .send({
          start_datetime: '9999-12-30 09:00',
          end_datetime: '9999-12-30 10:00',
          edit_mode: 'recurring',
          recurrence_pattern: weekly(null),
        }),
    );
    expect(Object.keys(splitting)).toEqual(['recurrence_pattern.end_date']);
    // An end date that keeps it inside the calendar is booked.
    await book(shift('9999-12-06 09:00', '9999-12-06 10:00', { recurrence_pattern: weekly('9999-12-31') })).expect(201);
  });

  it('an instant in year 0001 that is 0000-12-31 in a London organisation is a 422 naming the field, on POST and PUT', async () => {
    const london = await organisationWithRota('london', 'Europe/London');
    const auth = { authorization: `Bearer ${tokens.london}` };
    const at = (start: string, end: string) => ({
      rota: { id: london.rota },
      user: { id: london.org.users.boss },
      start_datetime: start,
      end_datetime: end,
    });
    const post = await refusedFields(() =>
      http().post('/api/rota/shifts').set(auth).send(at('0001-01-01T00:00:00Z', '0001-01-01T01:00:00Z')),
    );
    expect(Object.keys(post)).toEqual(['start_datetime']);
    expect(post.start_datetime![0]).toMatch(PAST_CALENDAR);
    // Before year 1 in UTC too, whatever the zone.
    const early = await refusedFields(() =>
      http().post('/api/rota/shifts').set(auth).send(at('0001-01-01T08:00:00+09:00', '0001-01-01T10:00:00+09:00')),
    );
    expect(Object.keys(early)).toEqual(['start_datetime']);
    const id = (
      await http().post('/api/rota/shifts').set(auth).send(at('2030-01-07 09:00', '2030-01-07 10:00')).expect(201)
    ).body.data.id;
    const put = await refusedFields(() =>
      http()
        .put(`/api/rota/shifts/${id}`)
        .set(auth)
        .send({ start_datetime: '0001-01-01T00:00:00Z', end_datetime: '2030-01-07 10:00', edit_mode: 'single' }),
    );
    expect(Object.keys(put)).toEqual(['start_datetime']);
    expect(put.start_datetime![0]).toMatch(PAST_CALENDAR);
  });

  it('a body that is not valid UTF-8 is a 400 in the error shape, and the rota keeps its name', async () => {
    const before = await tableChecksum(ds, 'rotas');
    const bytes = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
    const res = await http()
      .put(`/api/rotas/${rota}`)
      .set(as('boss'))
      .set('content-type', 'application/json')
      .serialize(asIs)
      .send(bytes)
      .expect(400);
    expect(res.body).toEqual({ message: 'The request body is not valid UTF-8.', status_code: 400 });
    expect(await tableChecksum(ds, 'rotas')).toEqual(before);
    // An overlong encoding of '"' (0xC0 0xA2) and a lone surrogate (0xED 0xA0 0x80) are not UTF-8 either.
    for (const bad of [
      [0xc0, 0xa2],
      [0xed, 0xa0, 0x80],
    ]) {
      const body = Buffer.concat([Buffer.from('{"name":"x'), Buffer.from(bad), Buffer.from('"}')]);
      await http()
        .put(`/api/rotas/${rota}`)
        .set(as('boss'))
        .set('content-type', 'application/json')
        .serialize(asIs)
        .send(body)
        .expect(400);
    }
    // Valid multi-byte text is stored as sent.
    const name = 'Früh — 早番 🌅';
    await http().put(`/api/rotas/${rota}`).set(as('boss')).send({ name }).expect(200);
    expect((await ds.query('SELECT name FROM rotas WHERE id = $1', [rota]))[0].name).toBe(name);
  });
});
