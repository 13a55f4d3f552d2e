import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import ical, { type VEvent } from 'node-ical';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EventStore, ProjectionReplayer } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { addCalendarMonths, todayIn } from '#app/platform';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootApi } from '../support/test-http.js';
import { logIn, provision, TEST_PASSWORD } from '../support/test-app.js';
import { eventCount, tableChecksum } from '../support/nothing-written.js';
import { asText } from '../support/rota-client.js';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const plusDays = (date: string, n: number) => DateTime.fromISO(date).plus({ days: n }).toISODate()!;
const offsetAt = (date: string, time: string, zone: string) => DateTime.fromISO(`${date}T${time}`, { zone }).offset;
/** The instant a wall-clock time shows in a zone, worked out here (luxon), not by the service. */
const utc = (date: string, time: string, zone: string) =>
  DateTime.fromISO(`${date}T${time}`, { zone }).toUTC().toISO({ suppressMilliseconds: false })!;

/**
 * The first date D after the next two days and before the feed's last date on which 09:00 local
 * on D−1 and on D+1 are an hour apart in UTC (a daylight-saving change between them), or null.
 */
function nextChange(zone: string, today: string, last: string): string | null {
  for (let d = plusDays(today, 3); d < last; d = plusDays(d, 1)) {
    if (offsetAt(plusDays(d, -1), '09:00', zone) !== offsetAt(plusDays(d, 1), '09:00', zone)) return d;
  }
  return null;
}

/**
 * The zone of the test's organisation. The feed only holds shifts from 30 days ago to six months
 * ahead of today, so the daylight-saving shifts must be booked on a real change date inside that
 * window. Europe/London (the example of issue 16: 2027-03-27 and 2027-03-29 09:00 → 09:00Z and
 * 08:00Z) has one within six months on most days of the year; from about 28 March to 25 April its
 * next change (late October) is further away, and then a zone whose change falls sooner is taken
 * (Chile changes in early September and early April, Sydney in early October and early April).
 * So a change date always exists; should none (a rule change in the zone data), the test says so
 * and checks the TZID, VTIMEZONE and UTC conversion on ordinary dates only.
 */
const CANDIDATE_ZONES = ['Europe/London', 'America/Santiago', 'Australia/Sydney', 'America/New_York'];

/**
 * docs/rota-domain.md#calendar-feeds, over HTTP in both modes: the secret URL (create, rotate,
 * revoke), the feed read back by a real iCalendar parser (node-ical), times across a
 * daylight-saving change, the window, cancelled shifts leaving it, ETag and 304, 404s that say
 * nothing, another user's token showing only that user's shifts, and a JWT never standing in for
 * the token.
 */
describe('calendar feeds (issue 16 item 1)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let org: ProvisionResult;
  let other: ProvisionResult;
  let zone = CANDIDATE_ZONES[0]!;
  let change: string | null = null;
  let today = '';
  let last = '';
  let rota = 0;
  const tokens: Record<string, string> = {};
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const pathOf = (url: string) => new URL(url).pathname;
  const uid = (shiftId: number, organisationId = org.organisation.id) => `shift-${organisationId}-${shiftId}@api.test`;
  const issue = async (who: string): Promise<string> => {
    const res = await http().post('/api/users/me/calendar-feed').set(as(who)).expect(201);
    return res.body.data.url as string;
  };
  const book = async (
    who: string,
    date: string,
    from = '09:00',
    to = '12:00',
    onRota = rota,
    by = 'boss',
  ): Promise<number> =>
    (
      await http()
        .post('/api/rota/shifts')
        .set(as(by))
        .send({
          rota: { id: onRota },
          user: { id: (org.users[who] ?? other.users[who])! },
          start_datetime: `${date} ${from}`,
          end_datetime: `${date} ${to}`,
        })
        .expect(201)
    ).body.data.id;
  const vevents = (text: string): VEvent[] =>
    Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');
  /** A GET whose body is read as text whatever its type (supertest leaves text/calendar unread). */
  const get = (path: string, headers: Record<string, string> = {}) => asText(http().get(path).set(headers));
  const feed = async (url: string, headers: Record<string, string> = {}) => {
    const res = await get(pathOf(url), headers);
    const text = res.body as string;
    return { res, text, events: res.status === 200 ? vevents(text) : [] };
  };
  const byUid = (list: VEvent[]) => new Map(list.map((e) => [e.uid, e]));
  async function notFound(path: string, headers: Record<string, string> = {}): Promise<void> {
    const before = await eventCount(ds);
    const res = await http().get(path).set(headers);
    expect({ status: res.status, type: res.headers['content-type'], body: res.body }).toEqual({
      status: 404,
      type: 'application/json; charset=utf-8',
      body: { message: 'Calendar feed not found', status_code: 404 },
    });
    expect(res.headers.etag).toBeUndefined();
    expect(await eventCount(ds)).toBe(before);
  }

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootApi(env.config);
    ds = app.get(DataSource);
    for (const candidate of CANDIDATE_ZONES) {
      const t = todayIn(candidate);
      const found = nextChange(candidate, t, addCalendarMonths(t, 6));
      if (found) {
        [zone, change] = [candidate, found];
        break;
      }
    }
    today = todayIn(zone);
    last = addCalendarMonths(today, 6);
    const user = (key: string, permissions: string[], team: string, domain = 'feeds') => ({
      key,
      email: `${key}@${domain}.example`,
      password: TEST_PASSWORD,
      display_name: key,
      permissions,
      roles: [{ team, role_profile: 'shop' }],
    });
    org = await provision(app, {
      organisation: { name: 'Feeds', slug: 'feeds', timezone: zone },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'shop', name: 'Shop floor', parent: 'north' },
      ],
      users: [user('boss', ['manage-rotas'], 'north'), user('ann', [], 'shop'), user('bea', [], 'shop')],
    });
    other = await provision(app, {
      organisation: { name: 'Elsewhere', slug: 'elsewhere', timezone: 'Europe/Paris' },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [{ key: 'north', name: 'Nord' }],
      users: [user('chef', ['manage-rotas'], 'north', 'elsewhere'), user('cleo', [], 'north', 'elsewhere')],
    });
    for (const who of ['boss', 'ann', 'bea']) tokens[who] = await logIn(app, `${who}@feeds.example`);
    for (const who of ['chef', 'cleo']) tokens[who] = await logIn(app, `${who}@elsewhere.example`);
    const pattern = WEEKDAYS.map((d) => ({
      weekday_start: d,
      start_time: '07:00',
      weekday_end: d,
      end_time: '20:00',
      min: 1,
      ideal: 1,
      max: 5,
    }));
    const patternId = (
      await http().post('/api/shift-patterns').set(as('boss')).send({ name: 'Days', pattern }).expect(201)
    ).body.data.id;
    // Started 40 days ago: the feed's first date (30 days ago) and the day before it can be booked.
    const created = {
      name: 'Café, mornings',
      start_date: plusDays(today, -40),
      pattern_id: patternId,
      team: [{ id: org.teams.shop }],
      self_manage: true,
    };
    rota = (await http().post('/api/rotas').set(as('boss')).send(created).expect(201)).body.data[0].id;
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('POST answers 201 with a secret URL under PUBLIC_URL; the token is URL-safe, 256 bits, and is in neither the log nor any table', async () => {
    await http().post('/api/users/me/calendar-feed').expect(401);
    const url = await issue('ann');
    expect(url).toMatch(/^http:\/\/api\.test\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const token = pathOf(url).slice('/calendar/'.length, -'.ics'.length);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    // Only its hash is kept: the token appears in no event and in no row of the feeds table.
    const inLog = await ds.query(
      `SELECT count(*)::int AS n FROM events WHERE data::text LIKE $1 OR metadata::text LIKE $1`,
      [`%${token}%`],
    );
    expect(inLog[0].n).toBe(0);
    const rows: { token_hash: string }[] = await ds.query(
      `SELECT token_hash FROM rota_calendar_feeds WHERE user_id = $1`,
      [org.users.ann],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(token);
    const [issued] = await ds.query(
      `SELECT stream_id, data FROM events WHERE type = 'rotas.CalendarFeedIssued' ORDER BY position DESC LIMIT 1`,
    );
    // The hash is the user's personal data: sealed in the log (docs/privacy.md), the store opens it.
    expect(issued.data).toEqual({
      userId: org.users.ann,
      organisationId: org.organisation.id,
      tokenHash: { $sealed: expect.any(String) },
    });
    const opened = (await app.get(EventStore).readStream(issued.stream_id)).at(-1)!;
    expect(opened.data).toEqual({
      userId: org.users.ann,
      organisationId: org.organisation.id,
      tokenHash: rows[0]!.token_hash,
    });
    expect((await feed(url)).res.status).toBe(200);
  });

  it(
    'the feed is RFC 5545 text/calendar that node-ical reads: one VEVENT per booked shift with the ' +
      'shift’s UID, SEQUENCE, rota name and team, in the rota zone with its VTIMEZONE',
    async () => {
      const url = await issue('ann');
      const date = plusDays(today, 5);
      const shift = await book('ann', date, '07:30', '15:00');
      const { res, text, events: list } = await feed(url);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
      // CRLF line ends, VERSION, PRODID, no METHOD (a feed, not an invitation), one VTIMEZONE, DTSTAMP per VEVENT.
      expect(text.split('\r\n').every((line) => !line.includes('\n'))).toBe(true);
      expect(text).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\nPRODID:[^\r\n]+\r\n/);
      expect(text).not.toMatch(/\r\nMETHOD:/);
      expect(text).toContain(`BEGIN:VTIMEZONE\r\nTZID:${zone}\r\n`);
      expect(text.match(/BEGIN:VTIMEZONE/g)).toHaveLength(1);
      expect(text.match(/BEGIN:VEVENT/g)?.length).toBe(text.match(/\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/g)?.length);
      expect(text).toContain(`DTSTART;TZID=${zone}:${date.replaceAll('-', '')}T073000\r\n`);
      const event = byUid(list).get(uid(shift))!;
      expect(event).toBeDefined();
      expect({
        start: event.start.toISOString(),
        end: event.end?.toISOString(),
        tz: event.start.tz,
        summary: event.summary,
        description: event.description,
        sequence: Number(event.sequence),
      }).toEqual({
        start: utc(date, '07:30', zone),
        end: utc(date, '15:00', zone),
        tz: zone,
        summary: 'Café, mornings',
        description: 'Team: Shop floor',
        sequence: 0,
      });
    },
  );

  it('times are right across a daylight-saving change: 09:00 local the day before and the day after are an hour apart in UTC', async () => {
    const url = await issue('ann');
    if (change === null) {
      // No change within the window in any candidate zone (see CANDIDATE_ZONES): ordinary dates only.
      const date = plusDays(today, 20);
      const shift = await book('ann', date);
      const event = byUid((await feed(url)).events).get(uid(shift))!;
      expect([event.start.toISOString(), event.start.tz]).toEqual([utc(date, '09:00', zone), zone]);
      return;
    }
    const [before, after] = [plusDays(change, -1), plusDays(change, 1)];
    const [first, second] = [await book('ann', before), await book('ann', after)];
    const { text, events: list } = await feed(url);
    expect(text).toContain(`DTSTART;TZID=${zone}:${before.replaceAll('-', '')}T090000\r\n`);
    expect(text).toContain(`DTSTART;TZID=${zone}:${after.replaceAll('-', '')}T090000\r\n`);
    const [a, b] = [byUid(list).get(uid(first))!, byUid(list).get(uid(second))!];
    expect([a.start.toISOString(), a.end?.toISOString(), b.start.toISOString(), b.end?.toISOString()]).toEqual([
      utc(before, '09:00', zone),
      utc(before, '12:00', zone),
      utc(after, '09:00', zone),
      utc(after, '12:00', zone),
    ]);
    // The two 09:00s differ by a day and an hour (or a day less an hour): the change is between them.
    expect(Math.abs(b.start.getTime() - a.start.getTime() - 2 * 86_400_000)).toBe(3_600_000);
    if (zone === 'Europe/London' && change === '2027-03-28') {
      expect([a.start.toISOString(), b.start.toISOString()]).toEqual([
        '2027-03-27T09:00:00.000Z',
        '2027-03-29T08:00:00.000Z',
      ]);
    }
  });

  it('holds the shifts starting from 30 days ago to six months ahead (the rota zone’s dates), no others', async () => {
    const url = await issue('bea');
    const dates = { tooEarly: plusDays(today, -31), first: plusDays(today, -30), last, tooLate: plusDays(last, 1) };
    const ids = Object.fromEntries(
      await Promise.all(
        Object.entries(dates).map(async ([k, d]) => [k, await book('bea', d, '10:00', '11:00')] as const),
      ),
    );
    const uids = (await feed(url)).events.map((e) => e.uid).sort();
    expect(uids).toEqual([uid(ids.first!), uid(ids.last!)].sort());
  });

  it('a moved shift keeps its UID with a raised SEQUENCE; a cancelled shift leaves the feed', async () => {
    const url = await issue('ann');
    const date = plusDays(today, 9);
    const [moved, cancelled] = [await book('ann', date, '09:00', '10:00'), await book('ann', date, '14:00', '15:00')];
    expect(byUid((await feed(url)).events).has(uid(cancelled))).toBe(true);
    await http()
      .put(`/api/rota/shifts/${moved}`)
      .set(as('boss'))
      .send({ start_datetime: `${date} 10:00`, end_datetime: `${date} 11:30`, edit_mode: 'single' })
      .expect(200);
    await http().delete(`/api/rota/shifts/${cancelled}`).set(as('boss')).expect(204);
    const after = byUid((await feed(url)).events);
    expect(after.has(uid(cancelled))).toBe(false);
    const event = after.get(uid(moved))!;
    expect([event.start.toISOString(), event.end?.toISOString(), Number(event.sequence)]).toEqual([
      utc(date, '10:00', zone),
      utc(date, '11:30', zone),
      1,
    ]);
  });

  it('answers 304 with no body to a request naming its ETag; the same bytes carry the same ETag, and a change makes a new one', async () => {
    const url = await issue('ann');
    const first = await feed(url);
    const again = await feed(url);
    expect(again.text).toBe(first.text);
    expect(again.res.headers.etag).toBe(first.res.headers.etag);
    const etag = first.res.headers.etag as string;
    // The weak comparison of If-None-Match: the tag with or without W/ (a client that kept a strong one).
    for (const header of [etag, etag.slice(2), `"nope", ${etag}`]) {
      const { res, text } = await feed(url, { 'if-none-match': header });
      expect({ status: res.status, text, etag: res.headers.etag, type: res.headers['content-type'] }).toEqual({
        status: 304,
        text: '',
        etag,
        type: undefined,
      });
    }
    await http().get(pathOf(url)).set('if-none-match', '"nope"').expect(200);
    await book('ann', plusDays(today, 11));
    const changed = await http().get(pathOf(url)).set('if-none-match', etag);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('another user’s token shows that user’s shifts only; a JWT is ignored: it neither opens a feed nor changes whose feed a token opens', async () => {
    const [annUrl, beaUrl] = [await issue('ann'), await issue('bea')];
    const beaShift = await book('bea', plusDays(today, 12));
    const cleoRota = await (async () => {
      const pattern = WEEKDAYS.map((d) => ({
        weekday_start: d,
        start_time: '08:00',
        weekday_end: d,
        end_time: '20:00',
        min: 1,
        ideal: 1,
        max: 5,
      }));
      const patternId = (
        await http().post('/api/shift-patterns').set(as('chef')).send({ name: 'Jours', pattern }).expect(201)
      ).body.data.id;
      const body = {
        name: 'Accueil',
        start_date: plusDays(today, -1),
        pattern_id: patternId,
        team: [{ id: other.teams.north }],
        self_manage: true,
      };
      return (await http().post('/api/rotas').set(as('chef')).send(body).expect(201)).body.data[0].id as number;
    })();
    const cleoShift = await book('cleo', plusDays(today, 12), '09:00', '12:00', cleoRota, 'chef');
    const cleoUrl = await issue('cleo');

    const ann = (await feed(annUrl)).events.map((e) => e.uid);
    const bea = (await feed(beaUrl)).events.map((e) => e.uid);
    const cleo = (await feed(cleoUrl)).events;
    expect(bea).toContain(uid(beaShift));
    expect(ann).not.toContain(uid(beaShift));
    expect(ann.filter((u) => bea.includes(u))).toEqual([]);
    expect(cleo.map((e) => [e.uid, e.summary, e.start.tz])).toEqual([
      [uid(cleoShift, other.organisation.id), 'Accueil', 'Europe/Paris'],
    ]);

    // Bea's JWT on Ann's URL: still Ann's feed.
    const withJwt = await feed(annUrl, as('bea'));
    expect([withJwt.res.status, withJwt.events.map((e) => e.uid)]).toEqual([200, ann]);
    // A JWT beside a bad token, or where the token should be: 404, never a feed. So is any path up
    // to the router's 2,048 characters a parameter may have (issue 25, item 5); past them, a 414.
    await notFound(`/calendar/${'A'.repeat(43)}.ics`, as('ann'));
    await notFound(`/calendar/${tokens.ann}.ics`, as('ann'));
    await notFound(`/calendar/${'A'.repeat(2048)}.ics`);
    const tooLong = await http().get(`/calendar/${'A'.repeat(2049)}.ics`);
    expect([tooLong.status, tooLong.body.status_code]).toEqual([414, 414]);
  });

  it('rotating replaces the URL (the old one 404s); DELETE revokes it (404), and again changes nothing and still answers 204', async () => {
    const old = await issue('ann');
    const rotated = await issue('ann');
    expect(rotated).not.toBe(old);
    await notFound(pathOf(old));
    await http().get(pathOf(rotated)).expect(200);

    await http().delete('/api/users/me/calendar-feed').expect(401);
    await http().delete('/api/users/me/calendar-feed').set(as('ann')).expect(204);
    await notFound(pathOf(rotated));
    const before = await eventCount(ds);
    await http().delete('/api/users/me/calendar-feed').set(as('ann')).expect(204);
    expect(await eventCount(ds)).toBe(before);
    // Revoking Ann's feed leaves Bea's alone.
    const beaUrl = await issue('bea');
    await http().delete('/api/users/me/calendar-feed').set(as('ann')).expect(204);
    await http().get(pathOf(beaUrl)).expect(200);
  });

  it('an unknown or malformed token is a 404 with the usual error body and nothing more', async () => {
    for (const token of ['A'.repeat(43), 'short', `${'A'.repeat(42)}=`, `${'x'.repeat(43)}.ics`, '%00'])
      await notFound(`/calendar/${token}.ics`);
    // Not a feed path at all: the ordinary unknown-route 404.
    await http().get('/calendar/whatever').expect(404);
  });

  it('concurrent rotations: each answers 201 or 409, and exactly one of the URLs answered works', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => http().post('/api/users/me/calendar-feed').set(as('bea'))),
    );
    for (const res of results) expect([201, 409]).toContain(res.status);
    const urls = results.filter((r) => r.status === 201).map((r) => r.body.data.url as string);
    expect(urls.length).toBeGreaterThan(0);
    const statuses = await Promise.all(urls.map(async (url) => (await http().get(pathOf(url))).status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 404)).toHaveLength(urls.length - 1);
  });

  it('rebuilds the same rota_calendar_feeds rows from the log, and the live URLs still open their feeds', async () => {
    const url = await issue('ann');
    const checksum = () => tableChecksum(ds, 'rota_calendar_feeds', 'user_id');
    const live = await checksum();
    expect(live.n).toBeGreaterThanOrEqual(3);
    await ds.query(`DELETE FROM rota_calendar_feeds`);
    const result = await app.get(ProjectionReplayer).replay(['rotas.calendar-feeds']);
    expect(result.projections).toEqual(['rotas.calendar-feeds']);
    expect(await checksum()).toEqual(live);
    await http().get(pathOf(url)).expect(200);
  });

  it('is in the OpenAPI document: the two JWT routes, and the public feed (no security) with its text/calendar 200, 304 and 404', async () => {
    const doc = (await http().get('/api/docs-json').expect(200)).body;
    const mine = doc.paths['/api/users/me/calendar-feed'];
    expect(Object.keys(mine).sort()).toEqual(['delete', 'post']);
    expect(mine.post.responses['201'].content['application/json'].schema.properties.data.$ref).toBe(
      '#/components/schemas/CalendarFeedUrl',
    );
    expect(Object.keys(mine.delete.responses)).toEqual(expect.arrayContaining(['204', '401']));
    const get = doc.paths['/calendar/{token}.ics'].get;
    expect(get.security).toEqual([{}]);
    expect(Object.keys(get.responses['200'].content)).toEqual(['text/calendar']);
    expect(get.responses['200'].headers.ETag).toBeDefined();
    expect(get.responses['304']).toBeDefined();
    expect(get.responses['404'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBody');
    expect(get.parameters).toEqual([expect.objectContaining({ name: 'token', in: 'path', required: true })]);
  });
});
