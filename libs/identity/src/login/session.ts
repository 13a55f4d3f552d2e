import type { SessionEvent } from './login.events.js';

export interface SessionState {
  readonly id: string;
  readonly userId: number;
  readonly organisationId: number;
  /** The one JWT of this log-in that is still good; every earlier one is blacklisted. */
  readonly currentJti: string;
  readonly revoked: boolean;
}

export function evolve(state: SessionState | null, event: SessionEvent): SessionState | null {
  switch (event.type) {
    case 'identity.SessionStarted':
      return { id: event.data.id, userId: event.data.userId, organisationId: event.data.organisationId, currentJti: event.data.jti, revoked: false };
    case 'identity.TokenRefreshed':
      return state && { ...state, currentJti: event.data.jti };
    case 'identity.SessionRevoked':
      return state && { ...state, revoked: true };
  }
}

export interface RefreshAttempt {
  readonly jti: string;
  readonly tokenIssuedAt: Date;
  readonly now: Date;
  readonly refreshTtlSeconds: number;
  readonly newJti: string;
}

export type SessionDecision =
  | { readonly outcome: 'accepted'; readonly events: SessionEvent[] }
  | { readonly outcome: 'refused'; readonly reason: string; readonly events: SessionEvent[] };

/**
 * A JWT may be refreshed once, within the refresh window after it was issued. Presenting one that
 * was refreshed already means two parties hold this log-in's tokens: the whole session is revoked
 * (ASVS 10.4.5), so the thief's copy dies with the victim's.
 */
export function decideRefresh(state: SessionState | null, attempt: RefreshAttempt): SessionDecision {
  if (!state || state.revoked) return { outcome: 'refused', reason: 'The token has been revoked.', events: [] };
  if (attempt.jti !== state.currentJti) {
    return {
      outcome: 'refused',
      reason: 'The token was refreshed already; every token of this log-in is now revoked.',
      events: [{ type: 'identity.SessionRevoked', data: { id: state.id, reason: 'refresh_reuse' } }],
    };
  }
  if (attempt.now.getTime() > attempt.tokenIssuedAt.getTime() + attempt.refreshTtlSeconds * 1000) {
    return { outcome: 'refused', reason: 'The token is too old to refresh; log in again.', events: [] };
  }
  return {
    outcome: 'accepted',
    events: [{ type: 'identity.TokenRefreshed', data: { id: state.id, previousJti: attempt.jti, jti: attempt.newJti, issuedAt: attempt.now.toISOString() } }],
  };
}

/** Log-out ends the whole log-in: the caller's token and any refresh of it. */
export function decideLogout(state: SessionState | null, jti: string): SessionDecision {
  if (!state || state.revoked || state.currentJti !== jti) return { outcome: 'refused', reason: 'The token has been revoked.', events: [] };
  return { outcome: 'accepted', events: [{ type: 'identity.SessionRevoked', data: { id: state.id, reason: 'logout' } }] };
}
