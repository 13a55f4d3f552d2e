import { ConflictError, DomainError, RecordedRefusal } from '#app/platform';
import type { SessionEvent } from './login.events.js';

export interface SessionState {
  readonly id: string;
  readonly userId: number;
  readonly organisationId: number;
  /** The one JWT of this log-in that is still good; every earlier one is blacklisted. */
  readonly currentJti: string;
  /** The token the last refresh replaced, and when: a repeat of that refresh within the grace is a double submit. */
  readonly lastRefresh: { readonly previousJti: string; readonly at: Date } | null;
  readonly revoked: boolean;
}

export function evolve(state: SessionState | null, event: SessionEvent): SessionState | null {
  switch (event.type) {
    case 'identity.SessionStarted':
      return {
        id: event.data.id,
        userId: event.data.userId,
        organisationId: event.data.organisationId,
        currentJti: event.data.jti,
        lastRefresh: null,
        revoked: false,
      };
    case 'identity.TokenRefreshed':
      return (
        state && {
          ...state,
          currentJti: event.data.jti,
          lastRefresh: { previousJti: event.data.previousJti, at: new Date(event.data.issuedAt) },
        }
      );
    case 'identity.SessionRevoked':
      return state && { ...state, revoked: true };
  }
}

/** Refreshing the JWT `jti`, issued at `tokenIssuedAt`, for a new one `newJti`. */
export interface RefreshToken {
  readonly jti: string;
  readonly tokenIssuedAt: Date;
  readonly newJti: string;
}

export interface RefreshContext {
  readonly now: Date;
  /** JWT_REFRESH_TTL. */
  readonly refreshTtlSeconds: number;
  /** Seconds after a refresh during which presenting the replaced token again is a double submit (JWT_REFRESH_GRACE). */
  readonly graceSeconds: number;
}

export const REVOKED = 'The token has been revoked.';
export const REFRESH_REPEATED = 'This token has just been refreshed; use the token that refresh answered.';
export const REFRESH_REUSED = 'The token was refreshed already; every token of this log-in is now revoked.';
export const TOO_OLD = 'The token is too old to refresh; log in again.';

/**
 * A JWT may be refreshed once, within the refresh window after it was issued. Presenting one that
 * was refreshed already means two parties hold this log-in's tokens: the whole session is revoked
 * (ASVS 10.4.5), so the thief's copy dies with the victim's; the refusal records the revocation.
 * The one exception is a repeat of the latest refresh within `graceSeconds` of it (a double-clicked
 * button, a retried request, parallel tabs): a 409 that revokes nothing.
 */
export function decideRefresh(state: SessionState | null, cmd: RefreshToken, ctx: RefreshContext): SessionEvent[] {
  if (!state || state.revoked) throw new DomainError('unauthorized', REVOKED);
  if (cmd.jti !== state.currentJti) {
    const last = state.lastRefresh;
    if (
      last &&
      last.previousJti === cmd.jti &&
      ctx.graceSeconds > 0 &&
      ctx.now.getTime() - last.at.getTime() <= ctx.graceSeconds * 1000
    ) {
      throw new ConflictError(REFRESH_REPEATED);
    }
    throw new RecordedRefusal<SessionEvent>('unauthorized', REFRESH_REUSED, [
      { type: 'identity.SessionRevoked', data: { id: state.id, reason: 'refresh_reuse' } },
    ]);
  }
  if (ctx.now.getTime() > cmd.tokenIssuedAt.getTime() + ctx.refreshTtlSeconds * 1000)
    throw new DomainError('unauthorized', TOO_OLD);
  return [
    {
      type: 'identity.TokenRefreshed',
      data: { id: state.id, previousJti: cmd.jti, jti: cmd.newJti, issuedAt: ctx.now.toISOString() },
    },
  ];
}

/** Log-out ends the whole log-in: the caller's token and any refresh of it. */
export function decideLogout(state: SessionState | null, cmd: { readonly jti: string }): SessionEvent[] {
  if (!state || state.revoked || state.currentJti !== cmd.jti) throw new DomainError('unauthorized', REVOKED);
  return [{ type: 'identity.SessionRevoked', data: { id: state.id, reason: 'logout' } }];
}
