import { createHash } from 'node:crypto';
import { ConflictError, DomainError, RecordedRefusal } from '#app/platform';
import type { TwoFactorMethod } from '../permissions.js';
import type { PreAuthEvent } from './login.events.js';
import type { LoginUser } from './login-user.js';
import { CHALLENGE_TTL_SECONDS } from './two-factor.js';

/** Five wrong keys burn a pre-authentication token (the sixth try gets nothing to guess against). */
export const MAX_KEY_FAILURES = 5;

/** What the store keeps of a pre-auth token (issued and redeemed by two handlers). */
export const tokenHashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface PreAuthState {
  readonly id: string;
  readonly status: 'pending' | 'redeemed' | 'burned';
  readonly userId: number;
  readonly organisationId: number;
  readonly twoFactor: TwoFactorMethod | null;
  readonly expiresAt: Date;
  readonly challenge?: { readonly keyHash: string; readonly expiresAt: Date };
  readonly failures: number;
}

export function evolve(state: PreAuthState | null, event: PreAuthEvent): PreAuthState | null {
  switch (event.type) {
    case 'identity.PreAuthTokenIssued': {
      const d = event.data;
      return {
        id: d.id,
        status: 'pending',
        userId: d.userId,
        organisationId: d.organisationId,
        twoFactor: d.twoFactor,
        expiresAt: new Date(d.expiresAt),
        failures: 0,
      };
    }
    case 'identity.TwoFactorChallengeIssued':
      return (
        state && { ...state, challenge: { keyHash: event.data.keyHash, expiresAt: new Date(event.data.expiresAt) } }
      );
    case 'identity.TwoFactorKeyRejected':
      return state && { ...state, failures: event.data.failures };
    case 'identity.PreAuthTokenBurned':
      return state && { ...state, status: 'burned' };
    case 'identity.PreAuthTokenRedeemed':
      return state && { ...state, status: 'redeemed' };
  }
}

/** A new pre-authentication token for a user whose password was right; `id` and the token's hash come from the handler. */
export interface IssuePreAuth {
  readonly id: string;
  readonly tokenHash: string;
  readonly user: Pick<LoginUser, 'id' | 'organisationId' | 'twoFactor' | 'email' | 'phone'>;
}

export interface IssueContext {
  readonly now: Date;
  /** PRE_AUTH_TTL. */
  readonly ttlSeconds: number;
  /** A fresh key for the method (a six-digit code, or a magic link's key), as its HMAC and sealed for the mailer. */
  readonly newKey: (method: ChallengeMethod) => { keyHash: string; sealedKey: string };
}

type ChallengeMethod = Extract<PreAuthEvent, { type: 'identity.TwoFactorChallengeIssued' }>['data']['method'];

/** Issuing the token; e-mail, text and magic link get a key sent out now (through the outbox), an app makes its own. */
export function decideIssue(state: PreAuthState | null, cmd: IssuePreAuth, ctx: IssueContext): PreAuthEvent[] {
  if (state) throw new ConflictError('The pre-authentication token exists already.');
  const { id, user } = cmd;
  const expiresAt = new Date(ctx.now.getTime() + ctx.ttlSeconds * 1000).toISOString();
  const events: PreAuthEvent[] = [
    {
      type: 'identity.PreAuthTokenIssued',
      data: {
        id,
        userId: user.id,
        organisationId: user.organisationId,
        tokenHash: cmd.tokenHash,
        twoFactor: user.twoFactor,
        expiresAt,
      },
    },
  ];
  const method = user.twoFactor;
  if (method && method !== 'auth_app') {
    const destination = method === 'sms' ? user.phone! : user.email;
    const challengeExpiresAt = new Date(ctx.now.getTime() + CHALLENGE_TTL_SECONDS * 1000).toISOString();
    events.push({
      type: 'identity.TwoFactorChallengeIssued',
      data: { id, userId: user.id, method, destination, ...ctx.newKey(method), expiresAt: challengeExpiresAt },
    });
  }
  return events;
}

/** Exchanging the pre-authentication token (and the second factor's key, when the user has one) for a session. */
export interface RedeemPreAuth {
  /** Whether the client sent a key at all. */
  readonly keyGiven: boolean;
  /** The session the log-in starts. */
  readonly sessionId: string;
}

export interface RedeemContext {
  readonly now: Date;
  /** Whether the key matched the user's method; the handler checks it (HMAC or TOTP). */
  readonly keyValid: boolean;
}

export const REFUSALS = {
  invalidToken: 'The pre-authentication token is invalid or has expired.',
  keyExpired: 'The two-factor key has expired; log in again.',
  wrongKey: 'The two-factor key is not valid.',
} as const;

/**
 * An unknown, used, burned or expired token is refused (401), as is an expired key; a missing or
 * wrong key is refused and counted, and the fifth burns the token (a RecordedRefusal).
 */
export function decideRedeem(state: PreAuthState | null, cmd: RedeemPreAuth, ctx: RedeemContext): PreAuthEvent[] {
  if (!state || state.status !== 'pending' || ctx.now >= state.expiresAt)
    throw new DomainError('unauthorized', REFUSALS.invalidToken);
  if (state.twoFactor) {
    if (state.challenge && ctx.now >= state.challenge.expiresAt)
      throw new DomainError('unauthorized', REFUSALS.keyExpired);
    if (!cmd.keyGiven || !ctx.keyValid)
      throw new RecordedRefusal('unauthorized', REFUSALS.wrongKey, keyRejected(state));
  }
  return [{ type: 'identity.PreAuthTokenRedeemed', data: { id: state.id, sessionId: cmd.sessionId } }];
}

function keyRejected(state: PreAuthState): PreAuthEvent[] {
  const failures = state.failures + 1;
  const events: PreAuthEvent[] = [{ type: 'identity.TwoFactorKeyRejected', data: { id: state.id, failures } }];
  if (failures >= MAX_KEY_FAILURES) events.push({ type: 'identity.PreAuthTokenBurned', data: { id: state.id } });
  return events;
}
