import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { createGuardrails, verifySync } from 'otplib';

/** Codes sent by e-mail or text, and magic links, live ten minutes. */
export const CHALLENGE_TTL_SECONDS = 600;

export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function newMagicKey(): string {
  return randomBytes(24).toString('base64url');
}

/** Keys are kept as an HMAC under the secrets key: a read of the log does not give them away. */
export function keyHash(secretsKey: Buffer, key: string): string {
  return createHmac('sha256', secretsKey).update(key.trim()).digest('base64url');
}

export function keyMatches(secretsKey: Buffer, key: string, expectedHash: string): boolean {
  const given = Buffer.from(keyHash(secretsKey, key));
  const expected = Buffer.from(expectedHash);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// RFC 6238 allows 80-bit secrets, which authenticator apps hand out; otplib's default floor is 128.
const guardrails = createGuardrails({ MIN_SECRET_BYTES: 10 });

/**
 * A TOTP code (30 s steps, one step either side for clock drift) that is newer than the last
 * step this user spent; returns the step it matched, so it can be spent, or null.
 */
export function verifyTotp(secret: string, code: string, lastStep: number, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const result = verifySync({
      secret,
      token: code,
      epochTolerance: 30,
      guardrails,
      epoch: Math.floor(now.getTime() / 1000),
    });
    if (!result.valid || !('timeStep' in result)) return null;
    return result.timeStep > lastStep ? result.timeStep : null;
  } catch {
    return null;
  }
}
