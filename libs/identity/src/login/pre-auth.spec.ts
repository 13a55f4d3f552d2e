import { describe, expect, it } from '@jest/globals';
import { ConflictError, DomainError, RecordedRefusal, testDecider } from '#app/platform';
import type { PreAuthEvent } from './login.events.js';
import { decideIssue, decideRedeem, evolve, type IssueContext, MAX_KEY_FAILURES, REFUSALS } from './pre-auth.js';
import { CHALLENGE_TTL_SECONDS } from './two-factor.js';

const T0 = new Date('2026-11-21T10:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const issued = (twoFactor: 'email' | 'auth_app' | null = null): PreAuthEvent => ({
  type: 'identity.PreAuthTokenIssued',
  data: { id: 'p1', userId: 7, organisationId: 1, tokenHash: 'h', twoFactor, expiresAt: at(600).toISOString() },
});
const challenge: PreAuthEvent = {
  type: 'identity.TwoFactorChallengeIssued',
  data: {
    id: 'p1',
    userId: 7,
    method: 'email',
    destination: 'a@x',
    keyHash: 'k',
    sealedKey: 's',
    expiresAt: at(600).toISOString(),
  },
};
const redeemed: PreAuthEvent = { type: 'identity.PreAuthTokenRedeemed', data: { id: 'p1', sessionId: 's1' } };
const rejected = (failures: number): PreAuthEvent => ({
  type: 'identity.TwoFactorKeyRejected',
  data: { id: 'p1', failures },
});
const burned: PreAuthEvent = { type: 'identity.PreAuthTokenBurned', data: { id: 'p1' } };

describe('issuing a pre-authentication token', () => {
  const preAuth = testDecider({ evolve, decide: decideIssue });
  const user = (twoFactor: 'email' | 'sms' | 'magic_link' | 'auth_app' | null) => ({
    id: 7,
    organisationId: 1,
    twoFactor,
    email: 'a@x',
    phone: '+441234',
  });
  const ctx: IssueContext = {
    now: T0,
    ttlSeconds: 600,
    newKey: (method) => ({ keyHash: `hash-${method}`, sealedKey: `sealed-${method}` }),
  };
  const keySent = (method: 'email' | 'sms' | 'magic_link', destination: string): PreAuthEvent => ({
    type: 'identity.TwoFactorChallengeIssued',
    data: {
      id: 'p1',
      userId: 7,
      method,
      destination,
      keyHash: `hash-${method}`,
      sealedKey: `sealed-${method}`,
      expiresAt: at(CHALLENGE_TTL_SECONDS).toISOString(),
    },
  });

  it('given no token, when a user without a second factor logs in, then the token is issued for PRE_AUTH_TTL', () => {
    preAuth
      .given([])
      .when({ id: 'p1', tokenHash: 'h', user: user(null) }, ctx)
      .then([issued()]);
  });

  it('given no token, when an authenticator-app user logs in, then no key is sent: the app makes its own', () => {
    preAuth
      .given([])
      .when({ id: 'p1', tokenHash: 'h', user: user('auth_app') }, ctx)
      .then([issued('auth_app')]);
  });

  it('given no token, when an e-mail, text or magic-link user logs in, then a key goes to their address or phone', () => {
    preAuth
      .given([])
      .when({ id: 'p1', tokenHash: 'h', user: user('email') }, ctx)
      .then([issued('email'), keySent('email', 'a@x')]);
    preAuth
      .given([])
      .when({ id: 'p1', tokenHash: 'h', user: user('sms') }, ctx)
      .then([{ ...issued(), data: { ...issued().data, twoFactor: 'sms' } } as PreAuthEvent, keySent('sms', '+441234')]);
    preAuth
      .given([])
      .when({ id: 'p1', tokenHash: 'h', user: user('magic_link') }, ctx)
      .then([
        { ...issued(), data: { ...issued().data, twoFactor: 'magic_link' } } as PreAuthEvent,
        keySent('magic_link', 'a@x'),
      ]);
  });

  it('given a token with that id, when issued again, then it is a conflict', () => {
    preAuth
      .given([issued()])
      .when({ id: 'p1', tokenHash: 'h', user: user(null) }, ctx)
      .thenThrows(ConflictError);
  });
});

describe('redeeming a pre-authentication token', () => {
  const preAuth = testDecider({ evolve, decide: decideRedeem });
  const redeem = (seconds: number, key: 'none' | 'right' | 'wrong' = 'none') =>
    [
      { keyGiven: key !== 'none', sessionId: 's1' },
      { now: at(seconds), keyValid: key === 'right' },
    ] as const;

  it('given a token with no second factor, when presented in time, then it is redeemed', () => {
    preAuth
      .given([issued()])
      .when(...redeem(10))
      .then([redeemed]);
  });

  it('given an unknown, expired, used or burned token, when presented, then it is refused with no event', () => {
    expect(
      preAuth
        .given([])
        .when(...redeem(10))
        .thenThrows(DomainError, REFUSALS.invalidToken).code,
    ).toBe('unauthorized');
    preAuth
      .given([issued()])
      .when(...redeem(600))
      .thenThrows(DomainError, REFUSALS.invalidToken);
    preAuth
      .given([issued(), redeemed])
      .when(...redeem(10))
      .thenThrows(DomainError, REFUSALS.invalidToken);
    preAuth
      .given([issued('email'), challenge, burned])
      .when(...redeem(10, 'right'))
      .thenThrows(DomainError, REFUSALS.invalidToken);
  });

  it('given an e-mail challenge, when the right key comes in time, then it is redeemed', () => {
    preAuth
      .given([issued('email'), challenge])
      .when(...redeem(30, 'right'))
      .then([redeemed]);
  });

  it('given a second factor, when the key is missing or wrong, then it is refused and the failure counted', () => {
    expect(
      preAuth
        .given([issued('auth_app')])
        .when(...redeem(30))
        .thenThrows(RecordedRefusal, REFUSALS.wrongKey, [rejected(1)]).code,
    ).toBe('unauthorized');
    preAuth
      .given([issued('auth_app'), rejected(1)])
      .when(...redeem(30, 'wrong'))
      .thenThrows(RecordedRefusal, REFUSALS.wrongKey, [rejected(2)]);
  });

  it(`given ${MAX_KEY_FAILURES - 1} wrong keys, when the next one is wrong, then it is refused and the token burns`, () => {
    const failures = Array.from({ length: MAX_KEY_FAILURES - 1 }, (_, i) => rejected(i + 1));
    preAuth
      .given([issued('email'), challenge, ...failures])
      .when(...redeem(30, 'wrong'))
      .thenThrows(RecordedRefusal, REFUSALS.wrongKey, [rejected(MAX_KEY_FAILURES), burned]);
  });

  it('given an expired e-mailed key, when even the right key comes, then it is refused with no event', () => {
    const shortChallenge = {
      ...challenge,
      data: { ...challenge.data, expiresAt: at(60).toISOString() },
    } as PreAuthEvent;
    preAuth
      .given([issued('email'), shortChallenge])
      .when(...redeem(61, 'right'))
      .thenThrows(DomainError, REFUSALS.keyExpired);
  });
});
