import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import ical, { type VEvent } from 'node-ical';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { todayIn, type AppConfig } from '#app/platform';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootApi } from '../support/test-http.js';
import { logIn, provision, TEST_PASSWORD } from '../support/test-app.js';
import { asText, openRota } from '../support/rota-client.js';

const ZONE = 'Europe/London';

/**
 * docs/adr/0012-calendar-uids.md over HTTP in both modes: the UIDs' host is recorded the first time
 * a UID is made (PUBLIC_URL's host then, which is what the old rule made, so an installation's
 * existing UIDs stay), and a later PUBLIC_URL changes no UID, so a subscribed calendar shows no shift
 * twice.
 */
describe('calendar UIDs do not change with PUBLIC_URL (issue 31)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let organisationId = 0;
  let shiftId = 0;
  let feedPath = '';
  const withPublicUrl = (publicUrl: string): AppConfig => ({
    ...env.config,
    http: { ...env.config.http, publicUrl },
  });
  const http = () => request(app.getHttpServer());
  const feed = async (headers: Record<string, string> = {}) => {
    const res = await asText(http().get(feedPath).set(headers));
    const text = res.body as string;
    const uids = Object.values(ical.sync.parseICS(text))
      .filter((c): c is VEvent => c?.type === 'VEVENT')
      .map((e) => e.uid);
    return { status: res.status, etag: res.headers.etag as string, text, uids };
  };
  const recordedDomain = async () =>
    ((await app.get(DataSource).query(`SELECT domain FROM rota_calendar_uid_domain`)) as { domain: string }[]).map(
      (r) => r.domain,
    );

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    // An installation upgraded to this version: the migration made the table, nothing recorded yet.
    app = await bootApi(withPublicUrl('https://uvol.old.example'));
    const user = (key: string, permissions: string[]) => ({
      key,
      email: `${key}@uids.example`,
      password: TEST_PASSWORD,
      display_name: key,
      permissions,
      roles: [{ team: 'shop', role_profile: 'shop' }],
    });
    const org = await provision(app, {
      organisation: { name: 'Uids', slug: 'uids', timezone: ZONE },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [{ key: 'shop', name: 'Shop floor' }],
      users: [user('boss', ['manage-rotas']), user('ann', [])],
    });
    organisationId = org.organisation.id;
    const boss = { authorization: `Bearer ${await logIn(app, 'boss@uids.example')}` };
    const ann = { authorization: `Bearer ${await logIn(app, 'ann@uids.example')}` };
    const today = todayIn(ZONE);
    const rota = await openRota(http, boss, { name: 'Shop', teamId: org.teams.shop, startDate: today });
    const date = DateTime.fromISO(today).plus({ days: 2 }).toISODate()!;
    shiftId = (
      await http()
        .post('/api/rota/shifts')
        .set(boss)
        .send({
          rota: { id: rota },
          user: { id: org.users.ann },
          start_datetime: `${date} 09:00`,
          end_datetime: `${date} 12:00`,
        })
        .expect(201)
    ).body.data.id;
    const url = (await http().post('/api/users/me/calendar-feed').set(ann).expect(201)).body.data.url as string;
    feedPath = new URL(url).pathname;
  });

  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('makes the first UIDs as the old rule did (PUBLIC_URL’s host), so existing subscribers keep theirs, and records that host', async () => {
    expect(await recordedDomain()).toEqual([]);
    const first = await feed();
    expect(first.status).toBe(200);
    expect(first.uids).toEqual([`shift-${organisationId}-${shiftId}@uvol.old.example`]);
    expect(await recordedDomain()).toEqual(['uvol.old.example']);
  });

  it('gives the same UIDs, and the same feed, under another PUBLIC_URL: a subscriber gets a 304, not every shift twice', async () => {
    const before = await feed();
    await app.close();
    app = await bootApi(withPublicUrl('https://volunteers.new.example:8443'));
    const after = await feed();
    expect(after.status).toBe(200);
    expect(after.uids).toEqual(before.uids);
    expect(after.text).toBe(before.text);
    expect((await feed({ 'if-none-match': before.etag })).status).toBe(304);
    expect(await recordedDomain()).toEqual(['uvol.old.example']);
    // The new PUBLIC_URL is where links point, not what names the events.
    const ann = { authorization: `Bearer ${await logIn(app, 'ann@uids.example')}` };
    const url = (await http().post('/api/users/me/calendar-feed').set(ann).expect(201)).body.data.url as string;
    expect(url).toMatch(/^https:\/\/volunteers\.new\.example:8443\/calendar\//);
    feedPath = new URL(url).pathname;
    expect((await feed()).uids).toEqual(before.uids);
  });
});
