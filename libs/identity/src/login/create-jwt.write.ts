import type { Given, StreamEvents } from '#app/event-store';
import { decideRecording, type RecordedRefusal } from '#app/platform';
import { type DirectoryEvent, streamOf } from '../directory/directory.events.js';
import { loginStreamOf, type SessionEvent } from './login.events.js';
import type { LoginUser } from './login-user.js';
import { decideRedeem, evolve, type PreAuthState } from './pre-auth.js';
import { keyMatches, verifyTotp } from './two-factor.js';

/** A redemption as its write decides it: the token's row and user looked up, the new session's ids drawn. */
export interface Redemption {
  readonly preAuthId: string;
  readonly user: LoginUser;
  /** The second factor's key, trimmed (undefined: none given). */
  readonly key: string | undefined;
  readonly sessionId: string;
  readonly jti: string;
}

/** What the decision needs to check a key: the authenticator secret opened, the e-mailed key's hash compared. */
export interface KeyChecks {
  readonly openSecret: (sealed: string) => string;
  readonly secretsKey: Buffer;
}

/** The highest TOTP step a user has spent, folded from the user's stream (null: none yet). */
export function lastSpentStep(state: number | null, event: DirectoryEvent): number | null {
  return event.type === 'identity.TotpStepUsed' ? Math.max(state ?? 0, event.data.step) : state;
}

/**
 * Step two of a log-in: one decision over the pre-authentication stream, the new session's and, for
 * an authenticator app, the user's (the TOTP steps spent). Each is appended at the version read: of
 * two log-ins racing with one token or one code, one wins. A wrong key is recorded, then refused:
 * `refusal()` answers the one attempt's refusal (no retries) for the caller to throw once recorded.
 */
export function createJwtWrite(r: Redemption, checks: KeyChecks) {
  const { user, key } = r;
  const preAuth = loginStreamOf.preAuth(r.preAuthId);
  const session = loginStreamOf.session(r.sessionId);
  const spentBy = user.totpSecret && key ? streamOf.user(user.id) : null;
  let refusal: RecordedRefusal | null = null;
  return {
    refusal: () => refusal,
    streams: () => ({
      preAuth: { streamId: preAuth, evolve },
      session: { streamId: session, expect: 'no_stream' as const },
      ...(spentBy ? { spent: { streamId: spentBy, evolve: lastSpentStep } } : {}),
    }),
    decide: (
      { preAuth: pre, spent }: { preAuth: PreAuthState | null; spent?: number | null },
      given: Given<unknown, unknown>,
    ): StreamEvents[] => {
      const now = new Date(given.now);
      const step =
        pre?.twoFactor === 'auth_app' && key && user.totpSecret
          ? verifyTotp(checks.openSecret(user.totpSecret), key, spent ?? 0, now)
          : null;
      const keyValid =
        !!key &&
        !!pre &&
        (pre.twoFactor === 'auth_app'
          ? step !== null
          : !!pre.challenge && keyMatches(checks.secretsKey, key, pre.challenge.keyHash));
      const decided = decideRecording(() =>
        decideRedeem(pre, { keyGiven: !!key, sessionId: r.sessionId }, { now, keyValid }),
      );
      refusal = decided.refusal;
      const out: StreamEvents[] = [{ streamId: preAuth, events: decided.events }];
      if (refusal) return out;
      const started: SessionEvent = {
        type: 'identity.SessionStarted',
        data: {
          id: r.sessionId,
          userId: pre!.userId,
          organisationId: pre!.organisationId,
          jti: r.jti,
          issuedAt: now.toISOString(),
        },
      };
      out.push({ streamId: session, events: [started] });
      // Spent at the version it was checked at: two log-ins racing with one code cannot both win.
      if (step !== null)
        out.push({
          streamId: spentBy!,
          events: [{ type: 'identity.TotpStepUsed', data: { userId: pre!.userId, step } } satisfies DirectoryEvent],
        });
      return out;
    },
    // Of two log-ins racing with one token or one code, the loser is refused (the handler), not run again.
    retries: 0,
  };
}
