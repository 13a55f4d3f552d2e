import type { TwoFactorMethod } from '../permissions.js';

/** The life of one pre-authentication token (stream `identity.PreAuth-<uuid>`). */
export type PreAuthEvent =
  | {
      type: 'identity.PreAuthTokenIssued';
      data: {
        id: string;
        userId: number;
        organisationId: number;
        /** SHA-256 of the token: the token itself is only ever in the client's hands. */
        tokenHash: string;
        twoFactor: TwoFactorMethod | null;
        expiresAt: string;
      };
    }
  | {
      type: 'identity.TwoFactorChallengeIssued';
      data: {
        id: string;
        userId: number;
        method: 'email' | 'sms' | 'magic_link';
        /** Where the code goes: an e-mail address or a phone number. */
        destination: string;
        /** HMAC of the expected key, checked when the client presents it. */
        keyHash: string;
        /** The key itself, sealed for the mailer; nobody else can read it from the log. */
        sealedKey: string;
        expiresAt: string;
      };
    }
  | { type: 'identity.TwoFactorKeyRejected'; data: { id: string; failures: number } }
  | { type: 'identity.PreAuthTokenBurned'; data: { id: string } }
  | { type: 'identity.PreAuthTokenRedeemed'; data: { id: string; sessionId: string } };

/** One log-in: the chain of JWTs refreshed from it (stream `identity.Session-<uuid>`). */
export type SessionEvent =
  | {
      type: 'identity.SessionStarted';
      data: { id: string; userId: number; organisationId: number; jti: string; issuedAt: string };
    }
  | { type: 'identity.TokenRefreshed'; data: { id: string; previousJti: string; jti: string; issuedAt: string } }
  | { type: 'identity.SessionRevoked'; data: { id: string; reason: 'logout' | 'refresh_reuse' } };

export const loginStreamOf = {
  preAuth: (id: string) => `identity.PreAuth-${id}`,
  session: (id: string) => `identity.Session-${id}`,
};
