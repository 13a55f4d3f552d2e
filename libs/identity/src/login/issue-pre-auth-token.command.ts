import { randomBytes, randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { APP_CONFIG, type AppConfig, DomainError, RateLimiter, SecretBox } from '#app/platform';
import { metadataOf } from '../auth/metadata.js';
import type { TwoFactorMethod } from '../permissions.js';
import { loginStreamOf, type PreAuthEvent } from './login.events.js';
import { type LoginUser, userByEmail } from './login-user.js';
import { PasswordHasher } from './password-hasher.js';
import { decideIssue, evolve, tokenHashOf } from './pre-auth.js';
import { keyHash, newCode, newMagicKey } from './two-factor.js';

export interface PreAuthToken {
  token: string;
  expires_at: string;
  two_factor: TwoFactorMethod | null;
}

/**
 * The account's limit from anywhere: AUTH_RATE_LIMIT × 20 attempts per 15 minutes (100 by default).
 * One address at its own limit (AUTH_RATE_LIMIT a minute, × 15) cannot reach it alone: locking the
 * owner out takes an attack spread over several addresses, which is what this limit is for.
 */
export const ACCOUNT_ANYWHERE_FACTOR = 20;
export const ACCOUNT_ANYWHERE_WINDOW_SECONDS = 900;

export const BAD_CREDENTIALS = 'These credentials do not match our records.';

/** Step one of log-in: e-mail and password for a short-lived pre-authentication token. */
export class IssuePreAuthTokenCommand extends Command<PreAuthToken> {
  constructor(
    readonly email: string,
    readonly password: string,
    readonly clientAddress: string,
  ) {
    super();
  }
}

@CommandHandler(IssuePreAuthTokenCommand)
export class IssuePreAuthTokenHandler implements ICommandHandler<IssuePreAuthTokenCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly secrets: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The per-address limit was counted before the body was read (address-rate-limit.ts). The account
   * limit is keyed on the account and the client address, so failures from elsewhere cannot lock the
   * owner out; a slower limit per account from anywhere stops an attack spread over many addresses.
   */
  async execute({ email, password, clientAddress }: IssuePreAuthTokenCommand): Promise<PreAuthToken> {
    const account = email.trim().toLowerCase();
    const fromHere = `login:account:${account}:${clientAddress}`;
    const { perAccount } = this.config.auth.rateLimit;
    await this.limiter.hit(fromHere, perAccount);
    await this.limiter.hit(
      `login:account-anywhere:${account}`,
      perAccount * ACCOUNT_ANYWHERE_FACTOR,
      ACCOUNT_ANYWHERE_WINDOW_SECONDS,
    );
    const user = await userByEmail(this.dataSource, email.trim());
    const valid = user
      ? await this.hasher.verify(user.passwordHash, password)
      : await this.hasher.verifyNobody(password);
    // One answer for an unknown address and a wrong password: nothing tells which addresses exist.
    if (!user || !valid) throw new DomainError('unauthorized', BAD_CREDENTIALS);
    await this.limiter.reset(fromHere);
    return this.issue(user);
  }

  private async issue(user: LoginUser): Promise<PreAuthToken> {
    const id = randomUUID();
    const token = randomBytes(32).toString('base64url');
    const { events } = await this.store.handle(
      loginStreamOf.preAuth(id),
      evolve,
      (state) =>
        decideIssue(
          state,
          { id, tokenHash: tokenHashOf(token), user },
          { now: new Date(), ttlSeconds: this.config.auth.preAuthTtl, newKey: (method) => this.newKey(method) },
        ),
      { expect: 'no_stream', metadata: metadataOf({ organisationId: user.organisationId, userId: user.id }) },
    );
    const issued = events[0] as unknown as Extract<PreAuthEvent, { type: 'identity.PreAuthTokenIssued' }>;
    return { token, expires_at: issued.data.expiresAt, two_factor: user.twoFactor };
  }

  /** A code (or a magic link's key) to send: kept as an HMAC, and sealed for the mailer. */
  private newKey(method: 'email' | 'sms' | 'magic_link'): { keyHash: string; sealedKey: string } {
    const key = method === 'magic_link' ? newMagicKey() : newCode();
    return { keyHash: keyHash(this.config.secretsKey, key), sealedKey: this.secrets.seal(key) };
  }
}
