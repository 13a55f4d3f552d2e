import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import request from 'supertest';
import type { ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { mailText, startMailCatcher } from '../support/mail-catcher.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, provision, TEST_PASSWORD } from '../support/test-app.js';

/** A zone where it is about noon while the suite runs: tomorrow's 10:00 starts within a day (cover alerts). */
const ZONE = ((offset: number) => (offset >= 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`))(
  12 - new Date().getUTCHours(),
);
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const address = (key: string) => `${key}@names.example`;

/**
 * Names are free text and may hold line breaks; inside an e-mail's plain-text body each is one
 * line's part, with every break a space (libs/platform/src/messaging/one-line.ts). A user and a
 * rota (renamed) with CR LF and LF in their names, through the cover alert and the rota
 * notification, to a real SMTP server.
 */
describe('names with line breaks in e-mails', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let org: ProvisionResult;
  let rota: number;
  let token: string;
  const http = () => request(app.getHttpServer());
  const as = () => ({ authorization: `Bearer ${token}` });
  const today = todayIn(ZONE);
  const plusDays = (n: number) => DateTime.fromISO(today).plus({ days: n }).toISODate()!;
  /** The mail's plain text: quoted-printable undone (mailText gives bytes as characters), as UTF-8, CR LF as LF. */
  const textOf = (raw: string) => Buffer.from(mailText(raw), 'latin1').toString('utf8').replace(/\r\n/g, '\n');

  beforeAll(async () => {
    mail = await startMailCatcher();
    env = await testEnvironment({ SMTP_URL: mail.url, AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config);
    const user = (key: string, displayName: string, team: string, permissions: string[] = []) => ({
      key,
      email: address(key),
      password: TEST_PASSWORD,
      display_name: displayName,
      permissions,
      roles: [{ team, role_profile: 'helper' }],
    });
    org = await provision(app, {
      organisation: { name: 'Names', slug: 'names', timezone: ZONE },
      role_profiles: [{ key: 'helper', name: 'Helper' }],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'shop', name: 'Shop', parent: 'north' },
      ],
      users: [user('boss', 'Big\r\nBoss', 'north', ['manage-rotas']), user('vol', 'Val\r\nBreak\nHere', 'shop')],
    });
    token = await logIn(app, address('boss'));
    const pattern = WEEKDAYS.map((d) => ({
      weekday_start: d,
      start_time: '10:00',
      weekday_end: d,
      end_time: '12:00',
      min: 1,
      ideal: 1,
      max: 5,
    }));
    const patternId = (await http().post('/api/shift-patterns').set(as()).send({ name: 'Days', pattern }).expect(201))
      .body.data.id;
    const created = {
      name: 'Shop',
      start_date: plusDays(-1),
      pattern_id: patternId,
      team: [{ id: org.teams.shop }],
      self_manage: true,
    };
    rota = (await http().post('/api/rotas').set(as()).send(created).expect(201)).body.data[0].id;
    await http().put(`/api/rotas/${rota}`).set(as()).send({ name: 'Shop\r\nFloor' }).expect(200);
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await mail?.stop();
  });

  it('a cover alert names the volunteer and the rota each on one line', async () => {
    await http().put('/api/organisation').set(as()).send({ cover_alert_days: '1' }).expect(200);
    const alert = await mail.waitFor(address('vol'));
    const text = textOf(alert.raw);
    expect(text).toContain('Hello Val Break Here,\n');
    expect(text).toContain(`\nShop Floor needs 1 more volunteer on ${plusDays(1)}, 10:00 to 12:00.\n`);
  });

  it('a rota notification names the volunteer, the manager and the rota each on one line', async () => {
    const date = plusDays(3);
    const booked = {
      rota: { id: rota },
      user: { id: org.users.vol },
      start_datetime: `${date} 10:00`,
      end_datetime: `${date} 12:00`,
    };
    const before = mail.mails.filter((m) => m.to.includes(address('vol'))).length;
    await http().post('/api/rota/shifts').set(as()).send(booked).expect(201);
    const notice = await mail.waitFor(address('vol'), before + 1);
    const text = textOf(notice.raw);
    expect(text).toContain('Hello Val Break Here,\n');
    expect(text).toContain('\nBig Boss has changed your shifts:\n');
    expect(text).toMatch(/\n- Shop Floor \(Shop\): \w+ \d{4}-\d\d-\d\d, 10:00–12:00\n/);
  });
});
