import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_CONFIG, type AppConfig, PreparedStatements } from '#app/platform';
import { isClaims } from '../login/jwt-tokens.js';
import type { Caller } from './caller.js';

/**
 * passport-jwt checks signature (HS256 only: `alg: none` and foreign keys fail) and expiry; this
 * then asks the sessions table whether the token is still the current one of a live log-in, so a
 * refreshed, logged-out or revoked token is refused everywhere.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly db: PreparedStatements,
  ) {
    // A KeyObject, not the string: jsonwebtoken otherwise tries (and fails) to parse the string as a
    // public key on every request, which cost more CPU than the rest of the guard (bench/README.md).
    super({ jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(), secretOrKey: createSecretKey(Buffer.from(config.auth.jwtSecret)) as never, algorithms: ['HS256'], ignoreExpiration: false });
  }

  async validate(payload: unknown): Promise<Caller | false> {
    if (!isClaims(payload)) return false;
    const [row] = await this.db.query<{ permissions: string[] }>(
      `SELECT u.permissions FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.id = $1 AND s.current_jti = $2 AND s.revoked_at IS NULL AND s.user_id = $3 AND s.organisation_id = $4`,
      [payload.sid, payload.jti, Number(payload.sub), payload.org],
    );
    if (!row) return false;
    return { userId: Number(payload.sub), organisationId: payload.org, permissions: new Set(row.permissions), sessionId: payload.sid, jti: payload.jti };
  }
}
