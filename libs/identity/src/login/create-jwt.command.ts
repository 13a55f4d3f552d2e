import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ConcurrencyError, EventStore, type StreamEvents } from '#app/event-store';
import {
  APP_CONFIG,
  type AppConfig,
  decideRecording,
  DomainError,
  type RecordedRefusal,
  SecretBox,
} from '#app/platform';
import { metadataOf } from '../auth/metadata.js';
import { type DirectoryEvent, streamOf } from '../directory/directory.events.js';
import { JwtTokens } from './jwt-tokens.js';
import { loginStreamOf, type SessionEvent } from './login.events.js';
import { type LoginUser, userById } from './login-user.js';
import { decideRedeem, evolve, REFUSALS, tokenHashOf } from './pre-auth.js';
import { keyMatches, verifyTotp } from './two-factor.js';

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

/** The highest TOTP step a user has spent, folded from the user's stream (null: none yet). */
function lastSpentStep(state: number | null, event: DirectoryEvent): number | null {
  return event.type === 'identity.TotpStepUsed' ? Math.max(state ?? 0, event.data.step) : state;
}

@CommandHandler(CreateJwtCommand)
export class CreateJwtHandler implements ICommandHandler<CreateJwtCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly tokens: JwtTokens,
    private readonly secrets: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(cmd: CreateJwtCommand): Promise<{ token: string }> {
    const sessionId = randomUUID();
    const jti = randomUUID();
    let outcome: { refusal: RecordedRefusal | null; user: LoginUser | null; now: Date };
    try {
      outcome = await this.redeem(cmd, { sessionId, jti });
    } catch (err) {
      // A lost race (the same token or TOTP code used twice at once) is a refusal, not a conflict.
      if (err instanceof ConcurrencyError) throw new DomainError('unauthorized', REFUSALS.invalidToken);
      throw err;
    }
    // A wrong key is counted in the log first, then refused.
    if (outcome.refusal) throw outcome.refusal;
    // Issued at the instant the decision was given, the session's `issuedAt`.
    return { token: this.tokens.issue(outcome.user!, sessionId, cmd.minimal, outcome.now, jti).token };
  }

  /**
   * The token's row and its user are looked up first (the embedded database serves one transaction
   * at a time); then one decision over the pre-authentication stream, the new session's and, for an
   * authenticator app, the user's (the TOTP steps spent). Each is appended at the version read: of
   * two log-ins racing with one token or one code, one wins.
   */
  private async redeem(
    cmd: CreateJwtCommand,
    ids: { sessionId: string; jti: string },
  ): Promise<{ refusal: RecordedRefusal | null; user: LoginUser | null; now: Date }> {
    const [row] = await this.dataSource.query(
      `SELECT id, user_id, organisation_id FROM pre_auth_tokens WHERE token_hash = $1`,
      [tokenHashOf(cmd.preAuthToken)],
    );
    // No such token: what decideRedeem answers for a stream that does not exist.
    if (!row) throw new DomainError('unauthorized', REFUSALS.invalidToken);
    const key = cmd.key?.trim() || undefined;
    const user = await userById(this.dataSource, Number(row.user_id));
    // An anonymised user's token (docs/privacy.md#anonymising-a-user) is redeemed by no one.
    if (!user) throw new DomainError('unauthorized', REFUSALS.invalidToken);
    const preAuth = loginStreamOf.preAuth(row.id);
    const session = loginStreamOf.session(ids.sessionId);
    const spentBy = user.totpSecret && key ? streamOf.user(user.id) : null;
    let refusal: RecordedRefusal | null = null;
    const written = await this.store.write({
      streams: () => ({
        preAuth: { streamId: preAuth, evolve },
        session: { streamId: session, expect: 'no_stream' as const },
        ...(spentBy ? { spent: { streamId: spentBy, evolve: lastSpentStep } } : {}),
      }),
      decide: ({ preAuth: pre, spent }, given) => {
        const now = new Date(given.now);
        const step =
          pre?.twoFactor === 'auth_app' && key && user.totpSecret
            ? verifyTotp(this.secrets.open(user.totpSecret), key, spent ?? 0, now)
            : null;
        const keyValid =
          !!key &&
          !!pre &&
          (pre.twoFactor === 'auth_app'
            ? step !== null
            : !!pre.challenge && keyMatches(this.config.secretsKey, key, pre.challenge.keyHash));
        const decided = decideRecording(() =>
          decideRedeem(pre, { keyGiven: !!key, sessionId: ids.sessionId }, { now, keyValid }),
        );
        // The one attempt's refusal (no retries), for the caller to throw once it is recorded.
        refusal = decided.refusal;
        const out: StreamEvents[] = [{ streamId: preAuth, events: decided.events }];
        if (refusal) return out;
        const started: SessionEvent = {
          type: 'identity.SessionStarted',
          data: {
            id: ids.sessionId,
            userId: pre!.userId,
            organisationId: pre!.organisationId,
            jti: ids.jti,
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
      metadata: metadataOf({ organisationId: Number(row.organisation_id), userId: Number(row.user_id) }),
      // Of two log-ins racing with one token or one code, the loser is refused (execute), not run again.
      retries: 0,
    });
    return { refusal, user, now: new Date(written.now) };
  }
}
