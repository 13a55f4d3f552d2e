import { describe, expect, it } from '@jest/globals';
import type { PreAuthEvent } from './login.events.js';
import { decideRedeem, evolve, MAX_KEY_FAILURES, type PreAuthState, REFUSALS } from './pre-auth.js';

const T0 = new Date('2026-11-21T10:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const issued = (twoFactor: 'email' | 'auth_app' | null = null): PreAuthEvent => ({
  type: 'identity.PreAuthTokenIssued',
  data: { id: 'p1', userId: 7, organisationId: 1, tokenHash: 'h', twoFactor, expiresAt: at(600).toISOString() },
});
const challenge: PreAuthEvent = {
  type: 'identity.TwoFactorChallengeIssued',
  data: { id: 'p1', userId: 7, method: 'email', destination: 'a@x', keyHash: 'k', sealedKey: 's', expiresAt: at(600).toISOString() },
};

const given = (...events: PreAuthEvent[]): PreAuthState | null => events.reduce<PreAuthState | null>(evolve, null);
const attempt = (seconds: number, key: 'none' | 'right' | 'wrong' = 'none') => ({
  now: at(seconds),
  keyGiven: key !== 'none',
  keyValid: key === 'right',
  sessionId: 's1',
});

describe('redeeming a pre-authentication token', () => {
  it('given a token with no second factor, when presented in time, then it is redeemed', () => {
    expect(decideRedeem(given(issued()), attempt(10))).toEqual({
      outcome: 'accepted',
      events: [{ type: 'identity.PreAuthTokenRedeemed', data: { id: 'p1', sessionId: 's1' } }],
    });
  });

  it('given an unknown, expired, used or burned token, then it is refused with no event', () => {
    const redeemed = evolve(given(issued()), { type: 'identity.PreAuthTokenRedeemed', data: { id: 'p1', sessionId: 's0' } });
    const burned = evolve(given(issued()), { type: 'identity.PreAuthTokenBurned', data: { id: 'p1' } });
    for (const [state, when] of [[null, 10], [given(issued()), 600], [redeemed, 10], [burned, 10]] as const) {
      expect(decideRedeem(state, attempt(when))).toEqual({ outcome: 'refused', reason: REFUSALS.invalidToken, events: [] });
    }
  });

  it('given an e-mail challenge, when the right key comes in time, then it is redeemed', () => {
    expect(decideRedeem(given(issued('email'), challenge), attempt(30, 'right')).outcome).toBe('accepted');
  });

  it('given a second factor, when the key is missing or wrong, then the failure is counted', () => {
    const state = given(issued('auth_app'));
    expect(decideRedeem(state, attempt(30))).toEqual({
      outcome: 'refused',
      reason: REFUSALS.wrongKey,
      events: [{ type: 'identity.TwoFactorKeyRejected', data: { id: 'p1', failures: 1 } }],
    });
    expect(decideRedeem(state, attempt(30, 'wrong')).events).toHaveLength(1);
  });

  it(`given ${MAX_KEY_FAILURES - 1} wrong keys, when the next one is wrong, then the token burns`, () => {
    const failures = Array.from({ length: MAX_KEY_FAILURES - 1 }, (_, i): PreAuthEvent => ({ type: 'identity.TwoFactorKeyRejected', data: { id: 'p1', failures: i + 1 } }));
    const decision = decideRedeem(given(issued('email'), challenge, ...failures), attempt(30, 'wrong'));
    expect(decision.events).toEqual([
      { type: 'identity.TwoFactorKeyRejected', data: { id: 'p1', failures: MAX_KEY_FAILURES } },
      { type: 'identity.PreAuthTokenBurned', data: { id: 'p1' } },
    ]);
  });

  it('given an expired e-mailed key, then even the right key is refused', () => {
    const shortChallenge: PreAuthEvent = { ...challenge, data: { ...challenge.data, expiresAt: at(60).toISOString() } } as PreAuthEvent;
    expect(decideRedeem(given(issued('email'), shortChallenge), attempt(61, 'right'))).toEqual({
      outcome: 'refused',
      reason: REFUSALS.keyExpired,
      events: [],
    });
  });
});
