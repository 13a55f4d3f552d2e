import type { TwoFactorMethod } from '../permissions.js';
import type { PreAuthEvent } from './login.events.js';

/** Five wrong keys burn a pre-authentication token (the sixth try gets nothing to guess against). */
export const MAX_KEY_FAILURES = 5;

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
      return { id: d.id, status: 'pending', userId: d.userId, organisationId: d.organisationId, twoFactor: d.twoFactor, expiresAt: new Date(d.expiresAt), failures: 0 };
    }
    case 'identity.TwoFactorChallengeIssued':
      return state && { ...state, challenge: { keyHash: event.data.keyHash, expiresAt: new Date(event.data.expiresAt) } };
    case 'identity.TwoFactorKeyRejected':
      return state && { ...state, failures: event.data.failures };
    case 'identity.PreAuthTokenBurned':
      return state && { ...state, status: 'burned' };
    case 'identity.PreAuthTokenRedeemed':
      return state && { ...state, status: 'redeemed' };
  }
}

export interface RedeemAttempt {
  readonly now: Date;
  /** Whether the client sent a key at all. */
  readonly keyGiven: boolean;
  /** Whether the key matched the user's method; the caller checks it (HMAC or TOTP). */
  readonly keyValid: boolean;
  readonly sessionId: string;
}

export type Decision =
  | { readonly outcome: 'accepted'; readonly events: PreAuthEvent[] }
  | { readonly outcome: 'refused'; readonly reason: string; readonly events: PreAuthEvent[] };

export const REFUSALS = {
  invalidToken: 'The pre-authentication token is invalid or has expired.',
  keyExpired: 'The two-factor key has expired; log in again.',
  wrongKey: 'The two-factor key is not valid.',
} as const;

/** Exchanging the pre-authentication token (and the second factor) for a session. */
export function decideRedeem(state: PreAuthState | null, attempt: RedeemAttempt): Decision {
  if (!state || state.status !== 'pending' || attempt.now >= state.expiresAt) {
    return { outcome: 'refused', reason: REFUSALS.invalidToken, events: [] };
  }
  if (state.twoFactor) {
    if (state.challenge && attempt.now >= state.challenge.expiresAt) {
      return { outcome: 'refused', reason: REFUSALS.keyExpired, events: [] };
    }
    if (!attempt.keyGiven || !attempt.keyValid) return rejectKey(state);
  }
  return { outcome: 'accepted', events: [{ type: 'identity.PreAuthTokenRedeemed', data: { id: state.id, sessionId: attempt.sessionId } }] };
}

function rejectKey(state: PreAuthState): Decision {
  const failures = state.failures + 1;
  const events: PreAuthEvent[] = [{ type: 'identity.TwoFactorKeyRejected', data: { id: state.id, failures } }];
  if (failures >= MAX_KEY_FAILURES) events.push({ type: 'identity.PreAuthTokenBurned', data: { id: state.id } });
  return { outcome: 'refused', reason: REFUSALS.wrongKey, events };
}
