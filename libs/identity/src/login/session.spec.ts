import { describe, expect, it } from '@jest/globals';
import { ConflictError, DomainError, RecordedRefusal, testDecider } from '#app/platform';
import type { SessionEvent } from './login.events.js';
import {
  decideLogout,
  decideRefresh,
  evolve,
  REFRESH_REPEATED,
  REFRESH_REUSED,
  type RefreshContext,
  REVOKED,
  TOO_OLD,
} from './session.js';

const T0 = new Date('2026-11-21T10:00:00Z');
const T1 = new Date(T0.getTime() + 60_000);
const started: SessionEvent = {
  type: 'identity.SessionStarted',
  data: { id: 's1', userId: 7, organisationId: 1, jti: 'j1', issuedAt: T0.toISOString() },
};
const refreshed: SessionEvent = {
  type: 'identity.TokenRefreshed',
  data: { id: 's1', previousJti: 'j1', jti: 'j2', issuedAt: T1.toISOString() },
};
const revokedForReuse: SessionEvent = { type: 'identity.SessionRevoked', data: { id: 's1', reason: 'refresh_reuse' } };

describe('refreshing a JWT', () => {
  const session = testDecider({ evolve, decide: decideRefresh });
  /** Refreshing `jti` (issued at T0) some seconds after T0, with a one-hour window and a five-second grace. */
  const refresh = (
    jti: string,
    secondsLater = 60,
    grace = 5,
  ): [{ jti: string; tokenIssuedAt: Date; newJti: string }, RefreshContext] => [
    { jti, tokenIssuedAt: T0, newJti: 'new' },
    { now: new Date(T0.getTime() + secondsLater * 1000), refreshTtlSeconds: 3600, graceSeconds: grace },
  ];

  it('given the current token, when refreshed within the window, then a new token replaces it', () => {
    session
      .given([started])
      .when(...refresh('j1'))
      .then([
        {
          type: 'identity.TokenRefreshed',
          data: { id: 's1', previousJti: 'j1', jti: 'new', issuedAt: '2026-11-21T10:01:00.000Z' },
        },
      ]);
  });

  it('given a token refreshed already, when presented again after the grace, then it is refused and the whole session revoked', () => {
    session
      .given([started, refreshed])
      .when(...refresh('j1', 66))
      .thenThrows(RecordedRefusal, REFRESH_REUSED, [revokedForReuse]);
  });

  it('given a token refreshed already, when presented again within the grace of that refresh, then it is a repeat (409) that revokes nothing', () => {
    session
      .given([started, refreshed])
      .when(...refresh('j1', 60))
      .thenThrows(ConflictError, REFRESH_REPEATED);
    session
      .given([started, refreshed])
      .when(...refresh('j1', 65))
      .thenThrows(ConflictError, REFRESH_REPEATED);
    // Decided on another process's clock a little behind the winner's: still a repeat.
    session
      .given([started, refreshed])
      .when(...refresh('j1', 59))
      .thenThrows(ConflictError, REFRESH_REPEATED);
  });

  it('given a grace of 0, when a refreshed token is presented again, then every reuse revokes the session', () => {
    session
      .given([started, refreshed])
      .when(...refresh('j1', 61, 0))
      .thenThrows(RecordedRefusal, REFRESH_REUSED, [revokedForReuse]);
    session
      .given([started, refreshed])
      .when(...refresh('j1', 60, 0))
      .thenThrows(RecordedRefusal, REFRESH_REUSED, [revokedForReuse]);
  });

  it('given a token two refreshes back, when presented within the grace, then it is a reuse', () => {
    const again: SessionEvent = {
      type: 'identity.TokenRefreshed',
      data: { id: 's1', previousJti: 'j2', jti: 'j3', issuedAt: T1.toISOString() },
    };
    session
      .given([started, refreshed, again])
      .when(...refresh('j1', 61))
      .thenThrows(RecordedRefusal, REFRESH_REUSED, [revokedForReuse]);
  });

  it('given a revoked or unknown session, when even its latest token is refreshed, then it is refused with no event', () => {
    session
      .given([started, refreshed, revokedForReuse])
      .when(...refresh('j2'))
      .thenThrows(DomainError, REVOKED);
    session
      .given([])
      .when(...refresh('j1'))
      .thenThrows(DomainError, REVOKED);
  });

  it('given a token older than the refresh window, when refreshed, then it is refused without revoking', () => {
    expect(
      session
        .given([started])
        .when(...refresh('j1', 3601))
        .thenThrows(DomainError, TOO_OLD).code,
    ).toBe('unauthorized');
  });
});

describe('logging out', () => {
  const session = testDecider({ evolve, decide: decideLogout });

  it('given the current token, when the caller logs out, then the session is revoked', () => {
    session
      .given([started])
      .when({ jti: 'j1' })
      .then([{ type: 'identity.SessionRevoked', data: { id: 's1', reason: 'logout' } }]);
  });

  it('given an old token, or a revoked session, when logging out, then it is refused', () => {
    session.given([started, refreshed]).when({ jti: 'j1' }).thenThrows(DomainError, REVOKED);
    session.given([started, revokedForReuse]).when({ jti: 'j1' }).thenThrows(DomainError, REVOKED);
  });
});
