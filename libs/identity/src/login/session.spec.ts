import { describe, expect, it } from '@jest/globals';
import type { SessionEvent } from './login.events.js';
import { decideLogout, decideRefresh, evolve, type SessionState } from './session.js';

const T0 = new Date('2026-11-21T10:00:00Z');
const started: SessionEvent = { type: 'identity.SessionStarted', data: { id: 's1', userId: 7, organisationId: 1, jti: 'j1', issuedAt: T0.toISOString() } };
const refreshed: SessionEvent = { type: 'identity.TokenRefreshed', data: { id: 's1', previousJti: 'j1', jti: 'j2', issuedAt: T0.toISOString() } };
const given = (...events: SessionEvent[]) => events.reduce<SessionState | null>(evolve, null);
const refresh = (jti: string, secondsLater = 60) => ({
  jti,
  tokenIssuedAt: T0,
  now: new Date(T0.getTime() + secondsLater * 1000),
  refreshTtlSeconds: 3600,
  newJti: 'new',
});

describe('refreshing a JWT', () => {
  it('given the current token, when refreshed within the window, then a new token replaces it', () => {
    expect(decideRefresh(given(started), refresh('j1'))).toEqual({
      outcome: 'accepted',
      events: [{ type: 'identity.TokenRefreshed', data: { id: 's1', previousJti: 'j1', jti: 'new', issuedAt: '2026-11-21T10:01:00.000Z' } }],
    });
  });

  it('given a token refreshed already, when presented again, then the whole session is revoked', () => {
    const decision = decideRefresh(given(started, refreshed), refresh('j1'));
    expect(decision.outcome).toBe('refused');
    expect(decision.events).toEqual([{ type: 'identity.SessionRevoked', data: { id: 's1', reason: 'refresh_reuse' } }]);
  });

  it('given a revoked session, then nothing refreshes, not even its latest token', () => {
    const revoked: SessionEvent = { type: 'identity.SessionRevoked', data: { id: 's1', reason: 'refresh_reuse' } };
    expect(decideRefresh(given(started, refreshed, revoked), refresh('j2'))).toMatchObject({ outcome: 'refused', events: [] });
  });

  it('given a token older than the refresh window, then it is refused without revoking', () => {
    expect(decideRefresh(given(started), refresh('j1', 3601))).toMatchObject({ outcome: 'refused', events: [] });
  });
});

describe('logging out', () => {
  it('given the current token, then the session is revoked', () => {
    expect(decideLogout(given(started), 'j1').events).toEqual([{ type: 'identity.SessionRevoked', data: { id: 's1', reason: 'logout' } }]);
  });

  it('given an old or revoked token, then it is refused', () => {
    expect(decideLogout(given(started, refreshed), 'j1').outcome).toBe('refused');
  });
});
