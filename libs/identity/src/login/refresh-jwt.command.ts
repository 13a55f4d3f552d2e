import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ConcurrencyError, EventStore, type NewEvent } from '#app/event-store';
import { APP_CONFIG, type AppConfig, DomainError, RateLimiter } from '#app/platform';
import { JwtTokens } from './jwt-tokens.js';
import { loginStreamOf, type SessionEvent } from './login.events.js';
import { userById } from './login-user.js';
import { decideRefresh, evolve } from './session.js';

const INVALID = 'The token is invalid.';

/** A JWT (expired or not) for a new one, once, within JWT_REFRESH_TTL of its issue. */
export class RefreshJwtCommand extends Command<{ token: string }> {
  constructor(
    readonly token: string,
    readonly minimal: boolean,
    readonly clientAddress: string,
  ) {
    super();
  }
}

@CommandHandler(RefreshJwtCommand)
export class RefreshJwtHandler implements ICommandHandler<RefreshJwtCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly tokens: JwtTokens,
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(cmd: RefreshJwtCommand): Promise<{ token: string }> {
    await this.limiter.hit(`refresh:address:${cmd.clientAddress}`, this.config.auth.rateLimit.perAddress);
    const claims = this.tokens.readExpired(cmd.token);
    if (!claims) throw new DomainError('unauthorized', INVALID);
    const now = new Date();
    const newJti = randomUUID();
    const streamId = loginStreamOf.session(claims.sid);
    const decision = await this.store
      .transaction(async (tx) => {
        const { state, version } = await this.store.load(streamId, evolve, tx);
        const valid = state && String(state.userId) === claims.sub && state.organisationId === claims.org;
        const decided = decideRefresh(valid ? state : null, {
          jti: claims.jti, tokenIssuedAt: new Date(claims.iat * 1000), now, refreshTtlSeconds: this.config.auth.jwtRefreshTtl, newJti,
        });
        if (decided.events.length) {
          await this.store.append(tx, [{ streamId, expectedVersion: version, events: decided.events as NewEvent[] }], {
            organisationId: claims.org,
            actorId: Number(claims.sub),
          });
        }
        return decided;
      })
      .catch((err) => {
        // Two refreshes of one token racing: the loser presented a token that is no longer current.
        if (err instanceof ConcurrencyError) return this.revokeAfterRace(streamId);
        throw err;
      });
    if (decision.outcome === 'refused') throw new DomainError('unauthorized', decision.reason);
    const user = await userById(this.dataSource, Number(claims.sub));
    if (!user) throw new DomainError('unauthorized', INVALID);
    return { token: this.tokens.issue(user, claims.sid, cmd.minimal, now, newJti).token };
  }

  /** The race's loser is a reuse like any other: it revokes the session. */
  private async revokeAfterRace(streamId: string) {
    return this.store.transaction(async (tx) => {
      const { state, version } = await this.store.load(streamId, evolve, tx);
      if (state && !state.revoked) {
        const revoked: SessionEvent = { type: 'identity.SessionRevoked', data: { id: state.id, reason: 'refresh_reuse' } };
        await this.store.append(tx, [{ streamId, expectedVersion: version, events: [revoked as NewEvent] }]);
      }
      return { outcome: 'refused' as const, reason: 'The token was refreshed already; every token of this log-in is now revoked.', events: [] };
    });
  }
}
