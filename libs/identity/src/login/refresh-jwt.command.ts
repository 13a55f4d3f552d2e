import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ConcurrencyError, EventStore } from '#app/event-store';
import { APP_CONFIG, type AppConfig, decideRecording, DomainError, type RecordedRefusal } from '#app/platform';
import { metadataOf } from '../auth/metadata.js';
import { JwtTokens, type TokenClaims } from './jwt-tokens.js';
import { loginStreamOf } from './login.events.js';
import { userById } from './login-user.js';
import { decideRefresh, evolve } from './session.js';

const INVALID = 'The token is invalid.';
/** A lost race is decided again on what the winner wrote; each retry follows a write that did land. */
const MAX_DECISIONS = 5;

/** A JWT (expired or not) for a new one, once, within JWT_REFRESH_TTL of its issue. */
export class RefreshJwtCommand extends Command<{ token: string }> {
  constructor(
    readonly token: string,
    readonly minimal: boolean,
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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The session stream's version is the gate: of several refreshes of one token, the one whose
   * TokenRefreshed takes the next version wins, and every other loses on the events' unique key
   * and is decided again on the stream as the winner left it: a repeat within JWT_REFRESH_GRACE
   * (409, nothing revoked), or a reuse after it (the log-in is revoked).
   */
  async execute(cmd: RefreshJwtCommand): Promise<{ token: string }> {
    const claims = this.tokens.readExpired(cmd.token);
    if (!claims) throw new DomainError('unauthorized', INVALID);
    // An anonymised user (docs/privacy.md#anonymising-a-user) refreshes nothing, and nothing is recorded.
    if (!(await userById(this.dataSource, Number(claims.sub)))) throw new DomainError('unauthorized', INVALID);
    const now = new Date();
    const newJti = randomUUID();
    let decided: { refusal: RecordedRefusal | null } | undefined;
    for (let attempt = 1; !decided; attempt++) {
      try {
        decided = await this.decide(claims, now, newJti);
      } catch (err) {
        if (!(err instanceof ConcurrencyError) || attempt >= MAX_DECISIONS) throw err;
      }
    }
    // A reuse revokes the log-in in the log first, then is refused.
    if (decided.refusal) throw decided.refusal;
    const user = await userById(this.dataSource, Number(claims.sub));
    if (!user) throw new DomainError('unauthorized', INVALID);
    return { token: this.tokens.issue(user, claims.sid, cmd.minimal, now, newJti).token };
  }

  /** One decision on the session stream as read, appended at its version; a refusal's events are appended before it is thrown. */
  private async decide(claims: TokenClaims, now: Date, newJti: string): Promise<{ refusal: RecordedRefusal | null }> {
    const { jwtRefreshTtl, jwtRefreshGrace } = this.config.auth;
    let refusal: RecordedRefusal | null = null;
    await this.store.handle(
      loginStreamOf.session(claims.sid),
      evolve,
      (state) => {
        const valid = state && String(state.userId) === claims.sub && state.organisationId === claims.org;
        const decided = decideRecording(() =>
          decideRefresh(
            valid ? state : null,
            { jti: claims.jti, tokenIssuedAt: new Date(claims.iat * 1000), newJti },
            { now, refreshTtlSeconds: jwtRefreshTtl, graceSeconds: jwtRefreshGrace },
          ),
        );
        refusal = decided.refusal;
        return decided.events;
      },
      { metadata: metadataOf({ organisationId: claims.org, userId: Number(claims.sub) }) },
    );
    return { refusal };
  }
}
