import { describe, expect, it } from '@jest/globals';
import { loginStreamOf } from './login.events.js';
import type { LoginUser } from './login-user.js';
import type { PreAuthState } from './pre-auth.js';
import { createJwtWrite, lastSpentStep } from './create-jwt.write.js';

const NOW = Date.parse('2026-11-21T10:00:00Z');
const user: LoginUser = {
  id: 7,
  organisationId: 1,
  organisationSlug: 'o',
  email: 'a@x',
  passwordHash: 'h',
  displayName: 'A',
  title: null,
  phone: null,
  twoFactor: null,
  totpSecret: null,
};
const pending = (more: Partial<PreAuthState> = {}): PreAuthState => ({
  id: 'p1',
  status: 'pending',
  userId: 7,
  organisationId: 1,
  twoFactor: null,
  expiresAt: new Date(NOW + 600_000),
  failures: 0,
  ...more,
});
const CHECKS = { openSecret: (s: string) => s, secretsKey: Buffer.from('key') };
const redemption = { preAuthId: 'p1', user, key: undefined, sessionId: 's1', jti: 'j1' };

describe('createJwtWrite', () => {
  it('given a pending token without a second factor, when redeemed, then a session starts at the store instant', () => {
    const write = createJwtWrite(redemption, CHECKS);
    expect(Object.keys(write.streams())).toEqual(['preAuth', 'session']);
    const out = write.decide({ preAuth: pending() }, { plan: undefined, facts: undefined, now: NOW });
    expect(write.refusal()).toBeNull();
    expect(out.map((a) => a.streamId)).toEqual([loginStreamOf.preAuth('p1'), loginStreamOf.session('s1')]);
    expect(out[1]!.events[0]).toEqual({
      type: 'identity.SessionStarted',
      data: { id: 's1', userId: 7, organisationId: 1, jti: 'j1', issuedAt: new Date(NOW).toISOString() },
    });
    expect(write.retries).toBe(0);
  });

  it('given an e-mailed challenge, when the key is wrong, then the failure is recorded and refused, no session', () => {
    const write = createJwtWrite({ ...redemption, key: 'wrong' }, CHECKS);
    const pre = pending({ twoFactor: 'email', challenge: { keyHash: 'k', expiresAt: new Date(NOW + 60_000) } });
    const out = write.decide({ preAuth: pre }, { plan: undefined, facts: undefined, now: NOW });
    expect(write.refusal()).not.toBeNull();
    expect(out).toHaveLength(1);
    expect(out[0]!.events.map((e) => e.type)).toEqual(['identity.TwoFactorKeyRejected']);
  });

  it('given a user with an authenticator app and a key, then the user stream of spent steps is read too', () => {
    const write = createJwtWrite({ ...redemption, user: { ...user, totpSecret: 'sealed' }, key: '123456' }, CHECKS);
    expect(Object.keys(write.streams())).toEqual(['preAuth', 'session', 'spent']);
  });
});

describe('lastSpentStep', () => {
  it('given steps spent, then the highest', () => {
    const used = (step: number) => ({ type: 'identity.TotpStepUsed', data: { userId: 7, step } }) as never;
    expect(lastSpentStep(lastSpentStep(null, used(5)), used(3))).toBe(5);
  });
});
