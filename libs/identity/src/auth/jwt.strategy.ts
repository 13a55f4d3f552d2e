import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_CONFIG, type AppConfig, PreparedStatements } from '#app/platform';
import { isClaims } from '../login/jwt-tokens.js';
import type { Caller } from './caller.js';

interface SessionRow {
  readonly current_jti: string;
  readonly user_id: string;
  readonly organisation_id: string;
  readonly permissions: readonly string[];
  readonly status: string;
  readonly timezone: string;
  readonly features: readonly string[];
  readonly seen: readonly string[];
}

/**
 * passport-jwt checks signature (HS256 only: `alg: none` and foreign keys fail) and expiry; this
 * then asks the sessions table whether the token is still the current one of a live log-in, and
 * reads with it the user's permissions and standing (status, the teams they see) and their
 * organisation's zone and features, the Caller's `standing`, on every request and in every process: a refresh, log-out,
 * revocation or permission change is in force everywhere once it has answered. Not cached: one
 * primary-key lookup costs less than a process serving a token another has refused (docs/adr/0003).
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly db: PreparedStatements,
  ) {
    // A KeyObject, not the string: jsonwebtoken otherwise tries (and fails) to parse the string as a
    // public key on every request, which cost more CPU than the rest of the guard (bench/README.md).
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: createSecretKey(Buffer.from(config.auth.jwtSecret)) as never,
      algorithms: ['HS256'],
      ignoreExpiration: false,
      // For the request's id, which the Caller carries into the metadata of the events it causes.
      passReqToCallback: true,
    });
  }

  async validate(request: { id?: string }, payload: unknown): Promise<Caller | false> {
    if (!isClaims(payload)) return false;
    const row = await this.liveSession(payload.sid);
    if (
      !row ||
      row.current_jti !== payload.jti ||
      row.user_id !== payload.sub ||
      Number(row.organisation_id) !== payload.org
    )
      return false;
    return {
      userId: Number(payload.sub),
      organisationId: payload.org,
      permissions: new Set(row.permissions),
      sessionId: payload.sid,
      jti: payload.jti,
      requestId: request.id,
      standing: {
        timezone: row.timezone,
        features: row.features,
        onHold: row.status === 'on_hold',
        seen: row.seen.map(Number),
      },
    };
  }

  private async liveSession(id: string): Promise<SessionRow | null> {
    const [row] = await this.db.query<SessionRow>(
      `SELECT s.current_jti, s.user_id, s.organisation_id, u.permissions, u.status, o.timezone, o.features,
         ARRAY(WITH RECURSIVE reach AS (
             SELECT t.id FROM teams t JOIN roles r ON r.team_id = t.id
              WHERE t.organisation_id = s.organisation_id AND r.user_id = s.user_id
             UNION
             SELECT c.id FROM teams c JOIN reach ON c.parent_id = reach.id
           ) SELECT id FROM reach) AS seen
         FROM sessions s JOIN users u ON u.id = s.user_id JOIN organisations o ON o.id = s.organisation_id
        WHERE s.id = $1 AND s.revoked_at IS NULL AND u.anonymised_at IS NULL`,
      [id],
    );
    return row ?? null;
  }
}
