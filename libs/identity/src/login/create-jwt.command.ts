import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ConcurrencyError, EventStore } from '#app/event-store';
import { APP_CONFIG, type AppConfig, DomainError, SecretBox } from '#app/platform';
import { metadataOf } from '../auth/metadata.js';
import { JwtTokens } from './jwt-tokens.js';
import { userById } from './login-user.js';
import { REFUSALS, tokenHashOf } from './pre-auth.js';
import { createJwtWrite } from './create-jwt.write.js';

/** Step two: the pre-authentication token, plus the second factor's key, for a JWT. */
export class CreateJwtCommand extends Command<{ token: string }> {
  constructor(
    readonly preAuthToken: string,
    readonly key: string | null | undefined,
    readonly minimal: boolean,
  ) {
    super();
  }
}

/** The token's row and user looked up first (the embedded database serves one transaction at a time), then one write (createJwtWrite). */
@CommandHandler(CreateJwtCommand)
export class CreateJwtHandler implements ICommandHandler<CreateJwtCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly tokens: JwtTokens,
    private readonly secrets: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ preAuthToken, key, minimal }: CreateJwtCommand): Promise<{ token: string }> {
    const [row] = await this.dataSource.query(
      `SELECT id, user_id, organisation_id FROM pre_auth_tokens WHERE token_hash = $1`,
      [tokenHashOf(preAuthToken)],
    );
    // No such token: what decideRedeem answers for a stream that does not exist.
    if (!row) throw new DomainError('unauthorized', REFUSALS.invalidToken);
    const user = await userById(this.dataSource, Number(row.user_id));
    // An anonymised user's token (docs/privacy.md#anonymising-a-user) is redeemed by no one.
    if (!user) throw new DomainError('unauthorized', REFUSALS.invalidToken);
    const [sessionId, jti] = [randomUUID(), randomUUID()];
    const { refusal, ...write } = createJwtWrite(
      { preAuthId: row.id, user, key: key?.trim() || undefined, sessionId, jti },
      { openSecret: (s) => this.secrets.open(s), secretsKey: this.config.secretsKey },
    );
    const metadata = metadataOf({ organisationId: Number(row.organisation_id), userId: Number(row.user_id) });
    const written = await this.store.write({ ...write, metadata }).catch((err: unknown) => {
      // A lost race (the same token or TOTP code used twice at once) is a refusal, not a conflict.
      throw err instanceof ConcurrencyError ? new DomainError('unauthorized', REFUSALS.invalidToken) : err;
    });
    // A wrong key is counted in the log first, then refused.
    const refused = refusal();
    if (refused) throw refused;
    // Issued at the instant the decision was given, the session's `issuedAt`.
    return { token: this.tokens.issue(user, sessionId, minimal, new Date(written.now), jti).token };
  }
}
