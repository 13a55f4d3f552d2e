import { describe, expect, it } from '@jest/globals';
import { testDecider } from '#app/platform';
import type { CalendarFeedEvent } from '../rotas.events.js';
import {
  decideIssue,
  decideRevoke,
  evolve,
  feedEtag,
  feedTokenHash,
  feedUrl,
  feedWindow,
  isFeedToken,
  newFeedToken,
  notModified,
} from './calendar-feed.js';

const owner = { userId: 9, organisationId: 3 };
const issued = (tokenHash: string): CalendarFeedEvent => ({
  type: 'rotas.CalendarFeedIssued',
  data: { ...owner, tokenHash },
});
const revoked: CalendarFeedEvent = { type: 'rotas.CalendarFeedRevoked', data: owner };

describe('issuing a calendar feed (docs/rota-domain.md#calendar-feeds)', () => {
  const feed = testDecider({ evolve, decide: decideIssue });

  it('given no feed, when one is issued, then its token’s hash is recorded (never the token)', () => {
    feed
      .given([])
      .when(owner, { tokenHash: 'h1' })
      .then([issued('h1')]);
  });

  it('given a live feed, when one is issued again, then the new hash replaces it (rotation)', () => {
    feed
      .given([issued('h1')])
      .when(owner, { tokenHash: 'h2' })
      .then([issued('h2')]);
    expect([issued('h1'), issued('h2')].reduce(evolve, null)).toEqual({ ...owner, tokenHash: 'h2' });
  });

  it('given a revoked feed, when one is issued, then it is live again with the new hash', () => {
    feed
      .given([issued('h1'), revoked])
      .when(owner, { tokenHash: 'h3' })
      .then([issued('h3')]);
  });
});

describe('revoking a calendar feed', () => {
  const feed = testDecider({ evolve, decide: decideRevoke });

  it('given a live feed, when it is revoked, then it is recorded and no hash is live', () => {
    feed
      .given([issued('h1')])
      .when(owner)
      .then([revoked]);
    expect([issued('h1'), revoked].reduce(evolve, null)).toEqual({ ...owner, tokenHash: null });
  });

  it('given no feed, or one already revoked, when it is revoked, then nothing is recorded (the route still answers 204)', () => {
    feed.given([]).when(owner).then([]);
    feed
      .given([issued('h1'), revoked])
      .when(owner)
      .then([]);
  });
});

describe('feed tokens', () => {
  it('are 43 URL-safe characters (256 random bits), different every time, and only that shape is a token', () => {
    const tokens = Array.from({ length: 50 }, newFeedToken);
    for (const token of tokens) expect([token, isFeedToken(token)]).toEqual([token, true]);
    expect(new Set(tokens).size).toBe(50);
    for (const bad of [
      '',
      'a'.repeat(42),
      'a'.repeat(44),
      `${'a'.repeat(42)}+`,
      `${'a'.repeat(42)}/`,
      `${'a'.repeat(42)}=`,
      `${'a'.repeat(42)}.`,
    ])
      expect([bad, isFeedToken(bad)]).toEqual([bad, false]);
  });

  it('are stored as their SHA-256 only, which does not contain the token', () => {
    const token = newFeedToken();
    const hash = feedTokenHash(token);
    expect(hash).toBe(feedTokenHash(token));
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain(token.slice(0, 8));
    expect(feedTokenHash(newFeedToken())).not.toBe(hash);
  });

  it('make the URL PUBLIC_URL/calendar/<token>.ics', () => {
    expect(feedUrl('https://vol.example', 'abc')).toBe('https://vol.example/calendar/abc.ics');
  });
});

describe('the feed window', () => {
  it('runs from 30 days before today to six months after it, by calendar dates', () => {
    expect(feedWindow('2026-11-22')).toEqual({ from: '2026-10-23', to: '2027-05-22' });
    // Six months from 31 August is the last day of February.
    expect(feedWindow('2027-08-31')).toEqual({ from: '2027-08-01', to: '2028-02-29' });
  });
});

describe('ETag and If-None-Match', () => {
  const etag = feedEtag('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n');

  it('is a weak, quoted hash of the text: the same feed gives the same ETag, another feed another', () => {
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(feedEtag('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n')).toBe(etag);
    expect(feedEtag('BEGIN:VCALENDAR\r\nX:1\r\nEND:VCALENDAR\r\n')).not.toBe(etag);
  });

  it('is not modified for its own ETag, in a list, without W/ or as *; modified for none or another', () => {
    const strong = etag.slice(2);
    for (const header of [etag, `"other", ${etag}`, strong, `"other",${strong}`, '*', ` ${etag} `])
      expect([header, notModified(header, etag)]).toEqual([header, true]);
    for (const header of [undefined, '', '"other"', etag.slice(0, -2) + '"'])
      expect([header, notModified(header, etag)]).toEqual([header, false]);
  });
});
