import { createHash, randomBytes } from 'node:crypto';
import { addCalendarMonths } from '#app/platform';
import { addDays } from '../domain/calendar-dates.js';
import type { CalendarFeedEvent } from '../rotas.events.js';

/**
 * A user's secret calendar feed (docs/rota-domain.md#calendar-feeds). One stream per user
 * (`rotas.CalendarFeed-<userId>`): issuing replaces the token, revoking removes it. Only the
 * token's hash is ever kept (events and the read table alike): whoever reads the log or the
 * database cannot rebuild a working URL from it.
 */
export interface CalendarFeedState {
  readonly userId: number;
  readonly organisationId: number;
  /** The live token's SHA-256 (base64url), or null once revoked. */
  readonly tokenHash: string | null;
}

export function evolve(state: CalendarFeedState | null, event: CalendarFeedEvent): CalendarFeedState | null {
  switch (event.type) {
    case 'rotas.CalendarFeedIssued':
      return { userId: event.data.userId, organisationId: event.data.organisationId, tokenHash: event.data.tokenHash };
    case 'rotas.CalendarFeedRevoked':
      return state && { ...state, tokenHash: null };
  }
}

/** Whose feed: always the caller's own (`/api/users/me/calendar-feed`). */
export interface FeedOwner {
  readonly userId: number;
  readonly organisationId: number;
}

/** What the handler drew before deciding: the new token's hash (the token itself stays out of the decision and the log). */
export interface IssueContext {
  readonly tokenHash: string;
}

/** `POST /api/users/me/calendar-feed`: a new token, whether or not one was live (rotation: the old one stops working). */
export function decideIssue(
  _state: CalendarFeedState | null,
  owner: FeedOwner,
  context: IssueContext,
): CalendarFeedEvent[] {
  return [
    {
      type: 'rotas.CalendarFeedIssued',
      data: { userId: owner.userId, organisationId: owner.organisationId, tokenHash: context.tokenHash },
    },
  ];
}

/**
 * `DELETE /api/users/me/calendar-feed`. Decision: revoking when no feed is live records nothing and
 * still answers 204, as a repeated DELETE does: the caller's wish (no working URL) holds either way.
 */
export function decideRevoke(state: CalendarFeedState | null, owner: FeedOwner): CalendarFeedEvent[] {
  if (!state?.tokenHash) return [];
  return [{ type: 'rotas.CalendarFeedRevoked', data: { userId: owner.userId, organisationId: owner.organisationId } }];
}

/** 32 random bytes (256 bits; docs/rota-domain.md#calendar-feeds), base64url: 43 URL-safe characters. */
export const newFeedToken = (): string => randomBytes(32).toString('base64url');

/** The only shape a token has; anything else is answered 404 without a lookup. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const isFeedToken = (token: string): boolean => TOKEN.test(token);

/**
 * What is stored of a token. A plain SHA-256 suffices (no salt, no slow hash): the token is 256
 * random bits, not a password, so there is nothing to guess from a dictionary; and a lookup by
 * the hash compares no secret byte by byte.
 */
export const feedTokenHash = (token: string): string => createHash('sha256').update(token).digest('base64url');

export const feedUrl = (publicUrl: string, token: string): string => `${publicUrl}/calendar/${token}.ics`;

/**
 * The feed's local dates (docs/rota-domain.md#calendar-feeds): shifts starting from 30 days before today to
 * six months after it, both included.
 */
export function feedWindow(today: string): { from: string; to: string } {
  return { from: addDays(today, -30), to: addCalendarMonths(today, 6) };
}

/**
 * A weak validator, a hash of the feed's text: the plain and the compressed answer share it, which only
 * a weak one may (RFC 9110 8.8.1; docs/http-conventions.md#compression).
 */
export const feedEtag = (body: string): string => `W/"${createHash('sha256').update(body).digest('base64url')}"`;

/**
 * Whether `If-None-Match` names the current ETag, so the answer is 304 (RFC 9110 13.1.2: `*`
 * matches any current representation; a list is compared weakly, so `W/"x"` matches `"x"`).
 */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}
