import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource, type EntityManager } from 'typeorm';
import { ConcurrencyError, EventStore, type NewEvent, type StreamAppend } from '#app/event-store';
import { APP_CONFIG, type AppConfig, DomainError, RateLimiter, SecretBox } from '#app/platform';
import { streamOf } from '../directory/directory.events.js';
import { tokenHashOf } from './issue-pre-auth-token.command.js';
import { JwtTokens } from './jwt-tokens.js';
import { loginStreamOf, type SessionEvent } from './login.events.js';
import { type LoginUser, userById } from './login-user.js';
import { type Decision, decideRedeem, evolve, type PreAuthState, REFUSALS } from './pre-auth.js';
import { keyMatches, verifyTotp } from './two-factor.js';

/** Step two: the pre-authentication token, plus the second factor's key, for a JWT. */
export class CreateJwtCommand extends Command<{ token: string }> {
  constructor(
    readonly preAuthToken: string,
    readonly key: string | null | undefined,
    readonly minimal: boolean,
    readonly clientAddress: string,
  ) {
    super();
  }
}

interface Loaded {
  state: PreAuthState | null;
  version: number;
  user: LoginUser | null;
}

@CommandHandler(CreateJwtCommand)
export class CreateJwtHandler implements ICommandHandler<CreateJwtCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly tokens: JwtTokens,
    private readonly limiter: RateLimiter,
    private readonly secrets: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(cmd: CreateJwtCommand): Promise<{ token: string }> {
    await this.limiter.hit(`token:address:${cmd.clientAddress}`, this.config.auth.rateLimit.perAddress);
    const sessionId = randomUUID();
    const jti = randomUUID();
    const now = new Date();
    let outcome: { decision: Decision; user: LoginUser | null };
    try {
      outcome = await this.store.transaction((tx) => this.redeem(tx, cmd, { sessionId, jti, now }));
    } catch (err) {
      // A lost race (the same token or TOTP code used twice at once) is a refusal, not a conflict.
      if (err instanceof ConcurrencyError) throw new DomainError('unauthorized', REFUSALS.invalidToken);
      throw err;
    }
    const { decision, user } = outcome;
    if (decision.outcome === 'refused') throw new DomainError('unauthorized', decision.reason);
    return { token: this.tokens.issue(user!, sessionId, cmd.minimal, now, jti).token };
  }

  private async redeem(tx: EntityManager, cmd: CreateJwtCommand, ids: { sessionId: string; jti: string; now: Date }) {
    const { state, version, user } = await this.load(tx, cmd.preAuthToken);
    const key = cmd.key?.trim() || undefined;
    const totp = state?.twoFactor === 'auth_app' && key && user ? await this.totpStep(tx, user, key, ids.now) : null;
    const keyValid = !!key && !!state && (state.twoFactor === 'auth_app' ? totp !== null : !!state.challenge && keyMatches(this.config.secretsKey, key, state.challenge.keyHash));
    const decision = decideRedeem(state, { now: ids.now, keyGiven: !!key, keyValid, sessionId: ids.sessionId });
    if (!state || decision.events.length === 0) return { decision, user };
    const appends: StreamAppend[] = [{ streamId: loginStreamOf.preAuth(state.id), expectedVersion: version, events: decision.events as NewEvent[] }];
    if (decision.outcome === 'accepted') {
      const started: SessionEvent = { type: 'identity.SessionStarted', data: { id: ids.sessionId, userId: state.userId, organisationId: state.organisationId, jti: ids.jti, issuedAt: ids.now.toISOString() } };
      appends.push({ streamId: loginStreamOf.session(ids.sessionId), expectedVersion: 'no_stream', events: [started as NewEvent] });
      if (totp) appends.push(spendStep(state.userId, totp));
    }
    await this.store.append(tx, appends, { organisationId: state.organisationId, actorId: state.userId });
    return { decision, user };
  }

  private async load(tx: EntityManager, token: string): Promise<Loaded> {
    const [row] = await tx.query(`SELECT id, user_id FROM pre_auth_tokens WHERE token_hash = $1`, [tokenHashOf(token)]);
    if (!row) return { state: null, version: 0, user: null };
    const { state, version } = await this.store.load(loginStreamOf.preAuth(row.id), evolve, tx);
    return { state, version, user: await userById(tx, Number(row.user_id)) };
  }

  /** The TOTP step the code matches, if newer than every step this user spent, with the stream version it was read at. */
  private async totpStep(tx: EntityManager, user: LoginUser, code: string, now: Date): Promise<{ step: number; version: number } | null> {
    if (!user.totpSecret) return null;
    const history = await this.store.readStream(streamOf.user(user.id), 0, tx);
    const spent = history.filter((e) => e.type === 'identity.TotpStepUsed').map((e) => (e.data as { step: number }).step);
    const step = verifyTotp(this.secrets.open(user.totpSecret), code, Math.max(0, ...spent), now);
    return step === null ? null : { step, version: history.length };
  }
}

/** Spent at the version it was checked at: two log-ins racing with one code cannot both win. */
function spendStep(userId: number, totp: { step: number; version: number }): StreamAppend {
  return {
    streamId: streamOf.user(userId),
   
    expectedVersion: totp.version,
    events: [{ type: 'identity.TotpStepUsed', data: { userId, step: totp.step } }],
  };
}
