import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import { DateTime } from 'luxon';
import ical, { type VEvent } from 'node-ical';
import request from 'supertest';
import { HoldUserCommand, IdentityAdminModule, type ProvisionResult } from '#app/identity';
import { todayIn } from '#app/platform';
import { type CaughtMail, mailText, startMailCatcher } from '../support/mail-catcher.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, provision, TEST_PASSWORD } from '../support/test-app.js';

const ZONE = 'Europe/London';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const plusDays = (date: string, n: number) => DateTime.fromISO(date).plus({ days: n }).toISODate()!;
const address = (key: string) => `${key}@swaps.example`;

/** An attachment of a raw MIME message, decoded (nodemailer writes text parts as base64 or quoted-printable). */
function attachment(raw: string, filename: string): string | null {
  const at = raw.search(new RegExp(`filename="?${filename.replace('.', '\\.')}"?`));
  if (at < 0) return null;
  const headers = raw.slice(raw.lastIndexOf('\r\n--', at), raw.indexOf('\r\n\r\n', at));
  const body = raw.slice(raw.indexOf('\r\n\r\n', at) + 4, raw.indexOf('\r\n--', at));
  if (/content-transfer-encoding:\s*base64/i.test(headers))
    return Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) return mailText(`\r\n\r\n${body}`);
  return body;
}
/** The Subject header, unfolded, its RFC 2047 Q-encoded words decoded (a subject with "é" is sent encoded). */
function subjectOf(mail: CaughtMail): string {
  const header = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(mail.raw)?.[1] ?? '';
  return header.replace(/\r\n[ \t]/g, '').replace(/=\?UTF-8\?Q\?(.*?)\?=\s*/gi, (_, q: string) =>
    Buffer.from(
      q.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8'),
  );
}
function calendarOf(mail: CaughtMail, filename: string): { method: string | undefined; uids: string[] } {
  const content = attachment(mail.raw, filename);
  if (content === null) throw new Error(`no ${filename} in the mail`);
  const parsed = ical.sync.parseICS(content);
  return {
    method: parsed.vcalendar?.method,
    uids: Object.values(parsed)
      .filter((c): c is VEvent => c?.type === 'VEVENT')
      .map((e) => e.uid),
  };
}

/**
 * Shift swaps (docs/rota-domain.md#swaps), end to end: every route's success and refusals, the
 * e-mails with their calendar parts, expiry on each kind of change, an accept racing a withdrawal
 * (exactly one winner, 20 times, the shifts exchanged again and again), and managers.
 */
describe('shift swaps', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let org: ProvisionResult;
  let rota: number;
  let other: number;
  const tokens: Record<string, string> = {};
  const today = todayIn(ZONE);
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const uid = (shiftId: number) => `shift-${org.organisation.id}-${shiftId}@api.test`;
  const inbox = (key: string) => mail.mails.filter((m) => m.to.includes(address(key)));
  let day = 2;
  /** A volunteer books themself on a fresh date (each test its own days, so rule 6 meets only what it means to). */
  const book = async (who: string, date: string, from = '10:00', to = '12:00', on = rota): Promise<number> =>
    (
      await http()
        .post('/api/rota/shifts')
        .set(as(who))
        .send({
          rota: { id: on },
          user: { id: org.users[who] },
          start_datetime: `${date} ${from}`,
          end_datetime: `${date} ${to}`,
        })
        .expect(201)
    ).body.data.id;
  const nextDate = () => plusDays(today, day++);
  const propose = (who: string, shift: number, withId: number) =>
    http()
      .post('/api/rota/shift-swaps')
      .set(as(who))
      .send({ shift: { id: shift }, with: { id: withId } });
  const accept = (who: string, id: number) => http().post(`/api/rota/shift-swaps/${id}/accept`).set(as(who));
  const decline = (who: string, id: number) => http().post(`/api/rota/shift-swaps/${id}/decline`).set(as(who));
  const withdraw = (who: string, id: number) => http().delete(`/api/rota/shift-swaps/${id}`).set(as(who));
  const get = (who: string, id: number) => http().get(`/api/rota/shift-swaps/${id}`).set(as(who));
  /** A pair of shifts on two dates, `a`'s and `b`'s, and a's proposal to exchange them. */
  async function proposed(a: string, b: string): Promise<{ mine: number; theirs: number; swap: number }> {
    const [mine, theirs] = [await book(a, nextDate()), await book(b, nextDate())];
    const swap = (await propose(a, mine, theirs).expect(201)).body.data.id;
    return { mine, theirs, swap };
  }

  beforeAll(async () => {
    mail = await startMailCatcher();
    env = await testEnvironment({ SMTP_URL: mail.url, AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    app = await bootStandalone(env.config, [IdentityAdminModule]);
    const user = (key: string, permissions: string[], team: string) => ({
      key,
      email: address(key),
      password: TEST_PASSWORD,
      display_name: `${key[0]!.toUpperCase()}${key.slice(1)}`,
      permissions,
      roles: [{ team, role_profile: 'shop' }],
    });
    const volunteers = ['ann', 'bea', 'cat', 'dan', 'eve'];
    org = await provision(app, {
      organisation: { name: 'Swaps', slug: 'swaps', timezone: ZONE },
      role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
      teams: [
        { key: 'north', name: 'North' },
        { key: 'shop', name: 'Shop', parent: 'north' },
      ],
      users: [user('boss', ['manage-rotas'], 'north'), ...volunteers.map((v) => user(v, [], 'shop'))],
    });
    for (const who of ['boss', ...volunteers]) tokens[who] = await logIn(app, address(who));
    const pattern = WEEKDAYS.map((d) => ({
      weekday_start: d,
      start_time: '09:00',
      weekday_end: d,
      end_time: '17:00',
      min: 1,
      ideal: 1,
      max: 5,
    }));
    const patternId = (
      await http().post('/api/shift-patterns').set(as('boss')).send({ name: 'Days', pattern }).expect(201)
    ).body.data.id;
    const create = async (name: string, team: string) =>
      (
        await http()
          .post('/api/rotas')
          .set(as('boss'))
          .send({
            name,
            start_date: plusDays(today, -7),
            pattern_id: patternId,
            team: [{ id: org.teams[team] }],
            self_manage: true,
          })
          .expect(201)
      ).body.data[0].id;
    rota = await create('Café', 'shop');
    other = await create('Till', 'north');
    // Embedded mode on a loaded machine: PGlite's start and migrations alone can take a minute.
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await mail?.stop();
  });

  it('propose: 201 with the Swap record; the with volunteer gets "Swap proposed:"; GET answers it to both and a manager', async () => {
    const [date, date2] = [nextDate(), nextDate()];
    const [mine, theirs] = [await book('ann', date), await book('bea', date2)];
    const res = await propose('ann', mine, theirs).expect(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      status: 'proposed',
      shift: expect.objectContaining({ id: mine, user: expect.objectContaining({ id: org.users.ann }) }),
      with: expect.objectContaining({ id: theirs, user: expect.objectContaining({ id: org.users.bea }) }),
      proposed_by: expect.objectContaining({ id: org.users.ann }),
      created_at: expect.any(String),
      decided_at: null,
    });
    const message = await mail.waitFor(address('bea'));
    expect(subjectOf(message)).toMatch(/^Swap proposed: Café, /);
    expect(mailText(message.raw)).toContain('Ann proposes to swap shifts with you');
    for (const who of ['ann', 'bea', 'boss'])
      expect((await get(who, res.body.data.id).expect(200)).body).toEqual(res.body);
    expect((await get('cat', res.body.data.id)).status).toBe(403);
    expect((await get('ann', 999_999)).status).toBe(404);
    await withdraw('ann', res.body.data.id).expect(204);
  });

  it('propose refusals: someone else’s shift 403; unknown 422 with.id; two of one volunteer, or a rota not seen, 422', async () => {
    const [a1, a2, b1] = [await book('ann', nextDate()), await book('ann', nextDate()), await book('bea', nextDate())];
    expect((await propose('bea', a1, b1)).status).toBe(403);
    expect((await propose('ann', a1, 999_999).expect(422)).body.errors).toEqual({ 'with.id': expect.any(Array) });
    expect((await propose('ann', a1, a2).expect(422)).body.errors).toEqual({ with: expect.any(Array) });
    // boss's shift on the north rota, which the shop volunteers do not see.
    const northShift = await book('boss', nextDate(), '10:00', '12:00', other);
    expect((await propose('ann', a1, northShift).expect(422)).body.errors).toEqual({ with: expect.any(Array) });
    expect(
      (
        await http()
          .post('/api/rota/shift-swaps')
          .set(as('ann'))
          .send({ shift: { id: a1 } })
      ).status,
    ).toBe(422);
  });

  it(
    'accept: 200, each shift the other’s; each volunteer one mail with invite.ics (REQUEST) for the shift gained and ' +
      'cancel.ics (CANCEL) for the one given up; the shifts’ histories name the swap; accepting again 409',
    async () => {
      const { mine, theirs, swap } = await proposed('cat', 'dan');
      expect((await accept('cat', swap)).status).toBe(403);
      const res = await accept('dan', swap).expect(200);
      expect(res.body.data).toMatchObject({
        status: 'accepted',
        shift: { id: mine, user: { id: org.users.dan } },
        with: { id: theirs, user: { id: org.users.cat } },
        decided_at: expect.any(String),
      });
      for (const [who, gained, gaveUp] of [
        ['cat', theirs, mine],
        ['dan', mine, theirs],
      ] as const) {
        const message = await mail.waitFor(address(who), who === 'dan' ? 2 : 1);
        expect(subjectOf(message)).toMatch(/^Swap accepted: /);
        expect(calendarOf(message, 'invite.ics')).toEqual({ method: 'REQUEST', uids: [uid(gained)] });
        expect(calendarOf(message, 'cancel.ics')).toEqual({ method: 'CANCEL', uids: [uid(gaveUp)] });
      }
      const history = await http().get(`/api/rota/shifts/${mine}/history`).set(as('boss')).expect(200);
      expect(JSON.stringify(history.body)).toContain(`"swap_id":${swap}`);
      expect((await accept('dan', swap)).status).toBe(409);
      expect((await withdraw('cat', swap)).status).toBe(409);
      await new Promise((r) => setTimeout(r, 300));
      // One e-mail each for the accept, and no other notice (cat proposed: nothing before it).
      expect(inbox('cat').map(subjectOf)).toEqual([expect.stringMatching(/^Swap accepted: /)]);
      expect(inbox('dan').map(subjectOf)).toEqual([
        expect.stringMatching(/^Swap proposed: /),
        expect.stringMatching(/^Swap accepted: /),
      ]);
    },
  );

  it('a shift already exchanged is exchanged again; a manager of the rota accepts for the with volunteer', async () => {
    const { mine, swap } = await proposed('ann', 'bea');
    await accept('bea', swap).expect(200);
    // The shift ann proposed is bea's now: bea swaps it on with eve, and the manager accepts for eve.
    const evesShift = await book('eve', nextDate());
    const again = (await propose('bea', mine, evesShift).expect(201)).body.data.id;
    const res = await accept('boss', again).expect(200);
    expect(res.body.data).toMatchObject({ status: 'accepted', shift: { id: mine, user: { id: org.users.eve } } });
  });

  it('two shifts that overlap each other are swapped (rule 6 after the exchange); a clash of the new volunteer is a 422 naming shift.start_datetime', async () => {
    const date = nextDate();
    const [mine, theirs] = [await book('ann', date, '10:00', '12:00'), await book('bea', date, '11:00', '13:00')];
    const swap = (await propose('ann', mine, theirs).expect(201)).body.data.id;
    await accept('bea', swap).expect(200);

    const d2 = nextDate();
    const [a, b] = [await book('ann', d2, '10:00', '12:00'), await book('bea', nextDate())];
    const clashing = (await propose('ann', a, b).expect(201)).body.data.id;
    await book('bea', d2, '11:00', '13:00');
    const refused = await accept('bea', clashing).expect(422);
    expect(refused.body.errors).toEqual({ 'shift.start_datetime': expect.any(Array) });
    expect((await get('bea', clashing).expect(200)).body.data.status).toBe('proposed');
  });

  it('decline: 200 declined (the proposer may not: 403); withdraw: 204 (the with volunteer may not: 403); then both 409', async () => {
    const first = await proposed('ann', 'bea');
    expect((await decline('ann', first.swap)).status).toBe(403);
    const res = await decline('bea', first.swap).expect(200);
    expect(res.body.data).toMatchObject({ status: 'declined', decided_at: expect.any(String) });
    expect((await withdraw('ann', first.swap)).status).toBe(409);

    const second = await proposed('ann', 'bea');
    expect((await withdraw('bea', second.swap)).status).toBe(403);
    await withdraw('ann', second.swap).expect(204);
    expect((await get('ann', second.swap).expect(200)).body.data.status).toBe('withdrawn');
    expect((await decline('bea', second.swap)).status).toBe(409);
    expect((await accept('bea', second.swap)).status).toBe(409);
    expect((await withdraw('ann', 999_999)).status).toBe(404);
  });

  it('expiry: a shift moved, cancelled, or handed over by another swap, or a volunteer put on hold; accepting then is a 409', async () => {
    const moved = await proposed('ann', 'bea');
    const date = (await http().get(`/api/rota/shifts/${moved.theirs}`).set(as('bea')).expect(200)).body.data.date;
    await http()
      .put(`/api/rota/shifts/${moved.theirs}`)
      .set(as('bea'))
      .send({ start_datetime: `${date} 13:00`, end_datetime: `${date} 15:00`, edit_mode: 'single' })
      .expect(200);
    const cancelled = await proposed('ann', 'bea');
    await http().delete(`/api/rota/shifts/${cancelled.mine}`).set(as('ann')).expect(204);
    // ann offers one shift to bea and to cat; bea takes it, so cat's proposal expires.
    const handed = await proposed('ann', 'bea');
    const catsShift = await book('cat', nextDate());
    const toCat = (await propose('ann', handed.mine, catsShift).expect(201)).body.data.id;
    await accept('bea', handed.swap).expect(200);
    for (const id of [moved.swap, cancelled.swap, toCat]) {
      const swap = (await get('ann', id).expect(200)).body.data;
      expect([id, swap.status, typeof swap.decided_at]).toEqual([id, 'expired', 'string']);
      expect((await accept('boss', id)).status).toBe(409);
    }
    const list = await http().get('/api/rota/shift-swaps?status=expired&per_page=100').set(as('ann')).expect(200);
    expect(list.body.data.map((s: { id: number }) => s.id)).toEqual(
      expect.arrayContaining([moved.swap, cancelled.swap, toCat]),
    );

    const held = await proposed('dan', 'eve');
    await app.get(CommandBus).execute(new HoldUserCommand(address('eve')));
    expect((await get('dan', held.swap).expect(200)).body.data.status).toBe('expired');
    expect((await accept('eve', held.swap)).status).toBe(409);
  });

  it('list: the caller’s swaps newest first, the pagination envelope, one status; an unknown status 422; a manager sees them all', async () => {
    const { swap } = await proposed('ann', 'cat');
    const mine = await http().get('/api/rota/shift-swaps?per_page=2').set(as('ann')).expect(200);
    expect(mine.body.data[0].id).toBe(swap);
    expect(mine.body.data).toHaveLength(2);
    expect(mine.body.meta.pagination).toMatchObject({ current_page: '1', per_page: '2', count: '2' });
    expect(mine.body.meta.pagination.links.next).toContain('page=2');
    const ids = (await http().get('/api/rota/shift-swaps?per_page=100').set(as('ann')).expect(200)).body.data.map(
      (s: { id: number }) => s.id,
    );
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    const proposedOnly = await http()
      .get('/api/rota/shift-swaps?status=proposed&per_page=100')
      .set(as('ann'))
      .expect(200);
    expect(proposedOnly.body.data.every((s: { status: string }) => s.status === 'proposed')).toBe(true);
    expect((await http().get('/api/rota/shift-swaps?status=bogus').set(as('ann')).expect(422)).body.errors).toEqual({
      status: expect.any(Array),
    });
    const boss = await http().get('/api/rota/shift-swaps?per_page=100').set(as('boss')).expect(200);
    expect(Number(boss.body.meta.pagination.total)).toBeGreaterThan(Number(mine.body.meta.pagination.total));
    // dan is a party to none of ann's and cat's swap.
    const dans = (await http().get('/api/rota/shift-swaps?per_page=100').set(as('dan')).expect(200)).body.data;
    expect(dans.map((s: { id: number }) => s.id)).not.toContain(swap);
  });

  it('an accept racing the proposer’s withdrawal, 20 times: exactly one wins each time, the other gets a 409; the shifts keep changing hands', async () => {
    const [x, y] = [await book('ann', nextDate()), await book('bea', nextDate())];
    const owner = new Map([
      [x, 'ann'],
      [y, 'bea'],
    ]);
    let accepted = 0;
    for (let round = 0; round < 20; round++) {
      const [proposer, other] = [owner.get(x)!, owner.get(y)!];
      const swap = (await propose(proposer, x, y).expect(201)).body.data.id;
      const [a, w] = await Promise.all([accept(other, swap), withdraw(proposer, swap)]);
      expect([a.status, w.status].sort()).toEqual(a.status === 200 ? [200, 409] : [204, 409]);
      const status = (await get(proposer, swap).expect(200)).body.data.status;
      expect(status).toBe(a.status === 200 ? 'accepted' : 'withdrawn');
      if (a.status === 200) {
        accepted++;
        owner.set(x, other).set(y, proposer);
      }
      const shiftX = (await http().get(`/api/rota/shifts/${x}`).set(as('boss')).expect(200)).body.data;
      expect(shiftX.user.id).toBe(org.users[owner.get(x)!]);
    }
    // Which one wins is the race's; the count is logged to see both kinds happen.
    console.log(`accept won ${accepted} of 20 races against a withdrawal`);
  }, 180_000);

  it('an accept racing a cancellation of one of its shifts, 20 times: exactly one wins, and the swap reads as that one left it', async () => {
    const wins = { accept: 0, cancel: 0 };
    for (let round = 0; round < 20; round++) {
      const { theirs, swap } = await proposed('ann', 'bea');
      const [a, c] = await Promise.all([
        accept('bea', swap),
        http().delete(`/api/rota/shifts/${theirs}`).set(as('bea')),
      ]);
      const status = (await get('ann', swap).expect(200)).body.data.status;
      if (a.status === 200) {
        wins.accept++;
        expect([403, 409]).toContain(c.status);
        expect(status).toBe('accepted');
      } else {
        wins.cancel++;
        expect([a.status, c.status, status]).toEqual([409, 204, 'expired']);
      }
    }
    console.log(`accept against cancel: ${JSON.stringify(wins)}`);
  }, 180_000);

  it('a rota no longer self-managed expires the swaps on it', async () => {
    const { swap } = await proposed('cat', 'dan');
    await http().put(`/api/rotas/${rota}`).set(as('boss')).send({ self_manage: false }).expect(200);
    expect((await get('cat', swap).expect(200)).body.data.status).toBe('expired');
    expect((await accept('dan', swap)).status).toBe(409);
  });
});
