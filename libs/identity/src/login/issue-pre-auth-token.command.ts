import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore, type NewEvent } from '#app/event-store';
import { APP_CONFIG, type AppConfig, DomainError, RateLimiter, SecretBox } from '#app/platform';
import type { TwoFactorMethod } from '../permissions.js';
import { loginStreamOf, type PreAuthEvent } from './login.events.js';
import { type LoginUser, userByEmail } from './login-user.js';
import { PasswordHasher } from './password-hasher.js';
import { CHALLENGE_TTL_SECONDS, keyHash, newCode, newMagicKey } from './two-factor.js';

export interface PreAuthToken {
  token: string;
  expires_at: string;
  two_factor: TwoFactorMethod | null;
}

export const BAD_CREDENTIALS = 'These credentials do not match our records.';

export const tokenHashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

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

  async execute({ email, password, clientAddress }: IssuePreAuthTokenCommand): Promise<PreAuthToken> {
    const account = `login:account:${email.trim().toLowerCase()}`;
    await this.limiter.hit(`login:address:${clientAddress}`, this.config.auth.rateLimit.perAddress);
    await this.limiter.hit(account, this.config.auth.rateLimit.perAccount);
    const user = await userByEmail(this.dataSource, email.trim());
    const valid = user ? await this.hasher.verify(user.passwordHash, password) : await this.hasher.verifyNobody(password);
    // One answer for an unknown address and a wrong password: nothing tells which addresses exist.
    if (!user || !valid) throw new DomainError('unauthorized', BAD_CREDENTIALS);
    await this.limiter.reset(account);
    return this.issue(user);
  }

  private async issue(user: LoginUser): Promise<PreAuthToken> {
    const id = randomUUID();
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    const expiresAt = new Date(now + this.config.auth.preAuthTtl * 1000).toISOString();
    const events: PreAuthEvent[] = [
      { type: 'identity.PreAuthTokenIssued', data: { id, userId: user.id, organisationId: user.organisationId, tokenHash: tokenHashOf(token), twoFactor: user.twoFactor, expiresAt } },
    ];
    const challenge = this.challenge(id, user, new Date(now + CHALLENGE_TTL_SECONDS * 1000).toISOString());
    if (challenge) events.push(challenge);
    await this.store.transaction((tx) =>
      this.store.append(tx, [{ streamId: loginStreamOf.preAuth(id), expectedVersion: 'no_stream', events: events as NewEvent[] }], {
        organisationId: user.organisationId,
        actorId: user.id,
      }),
    );
    return { token, expires_at: expiresAt, two_factor: user.twoFactor };
  }

  /** E-mail, text and magic link get a key sent out now, through the outbox; an app makes its own. */
  private challenge(id: string, user: LoginUser, expiresAt: string): PreAuthEvent | null {
    const method = user.twoFactor;
    if (!method || method === 'auth_app') return null;
    const key = method === 'magic_link' ? newMagicKey() : newCode();
    const destination = method === 'sms' ? user.phone! : user.email;
    return {
      type: 'identity.TwoFactorChallengeIssued',
      data: { id, userId: user.id, method, destination, keyHash: keyHash(this.config.secretsKey, key), sealedKey: this.secrets.seal(key), expiresAt },
    };
  }
}
