import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { APP_CONFIG, type AppConfig } from '#app/platform';
import type { LoginUser } from './login-user.js';

/** What every JWT carries; `sid` ties it to its log-in so one revocation covers every refresh. */
export interface TokenClaims {
  readonly sub: string;
  readonly org: number;
  readonly jti: string;
  readonly sid: string;
  readonly iat: number;
  readonly exp: number;
}

export interface IssuedToken {
  readonly token: string;
  readonly jti: string;
  readonly issuedAt: Date;
}

const ALGORITHM = 'HS256';

@Injectable()
export class JwtTokens {
  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `minimal` leaves out the profile claims (e-mail, name, title, organisation slug), for clients
   * that only need to authenticate.
   */
  issue(
    user: LoginUser,
    sessionId: string,
    minimal: boolean,
    now = new Date(),
    jti: string = randomUUID(),
  ): IssuedToken {
    const iat = Math.floor(now.getTime() / 1000);
    const profile = minimal
      ? {}
      : { email: user.email, name: user.displayName, title: user.title, org_slug: user.organisationSlug };
    const token = this.jwt.sign(
      {
        ...profile,
        sub: String(user.id),
        org: user.organisationId,
        sid: sessionId,
        iat,
        exp: iat + this.config.auth.jwtTtl,
      },
      { algorithm: ALGORITHM, jwtid: jti },
    );
    return { token, jti, issuedAt: new Date(iat * 1000) };
  }

  /** Signature and shape checked; expiry not, for refresh (the session decides how old is too old). */
  readExpired(token: string): TokenClaims | null {
    try {
      const claims = this.jwt.verify<TokenClaims>(token, { algorithms: [ALGORITHM], ignoreExpiration: true });
      return isClaims(claims) ? claims : null;
    } catch {
      return null;
    }
  }
}

export function isClaims(c: unknown): c is TokenClaims {
  const x = c as Partial<TokenClaims> | null;
  return (
    !!x &&
    typeof x.sub === 'string' &&
    /^\d+$/.test(x.sub) &&
    typeof x.org === 'number' &&
    typeof x.jti === 'string' &&
    typeof x.sid === 'string' &&
    typeof x.iat === 'number' &&
    typeof x.exp === 'number'
  );
}
