import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { createGuardrails, generateSync } from 'otplib';
import { keyHash, keyMatches, newCode, verifyTotp } from './two-factor.js';

const SECRET = 'JBSWY3DPEHPK3PXP';
const guardrails = createGuardrails({ MIN_SECRET_BYTES: 10 });
const now = new Date('2026-11-21T10:00:10Z');
const codeAt = (secondsFromNow: number) =>
  generateSync({ secret: SECRET, guardrails, epoch: Math.floor(now.getTime() / 1000) + secondsFromNow });
const stepOf = (d: Date) => Math.floor(d.getTime() / 30_000);

describe('TOTP (RFC 6238)', () => {
  it('accepts the current code and one step either side, and returns the step matched', () => {
    expect(verifyTotp(SECRET, codeAt(0), 0, now)).toBe(stepOf(now));
    expect(verifyTotp(SECRET, codeAt(-30), 0, now)).toBe(stepOf(now) - 1);
    expect(verifyTotp(SECRET, codeAt(30), 0, now)).toBe(stepOf(now) + 1);
  });

  it('refuses codes two steps away, malformed codes and a step already spent', () => {
    expect(verifyTotp(SECRET, codeAt(-60), 0, now)).toBeNull();
    expect(verifyTotp(SECRET, 'abcdef', 0, now)).toBeNull();
    expect(verifyTotp(SECRET, codeAt(0), stepOf(now), now)).toBeNull();
  });
});

describe('e-mailed and texted keys', () => {
  const key = randomBytes(32);

  it('are six digits', () => {
    for (let i = 0; i < 50; i++) expect(newCode()).toMatch(/^\d{6}$/);
  });

  it('match only their own hash, under the same secrets key', () => {
    const hash = keyHash(key, '012345');
    expect(keyMatches(key, '012345', hash)).toBe(true);
    expect(keyMatches(key, ' 012345 ', hash)).toBe(true);
    expect(keyMatches(key, '012346', hash)).toBe(false);
    expect(keyMatches(randomBytes(32), '012345', hash)).toBe(false);
  });
});
