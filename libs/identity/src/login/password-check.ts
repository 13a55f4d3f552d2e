import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig, RateLimiter } from '#app/platform';
import { ACCOUNT_ANYWHERE_FACTOR, ACCOUNT_ANYWHERE_WINDOW_SECONDS } from './issue-pre-auth-token.command.js';
import { userById } from './login-user.js';
import { PasswordHasher } from './password-hasher.js';

/**
 * Whether a password is the user's own, for a request that asks for it again (a user's own
 * anonymisation, docs/privacy.md#anonymising-a-user). False for an unknown or anonymised user.
 *
 * Rate limited as the log-in is (per account: AUTH_RATE_LIMIT attempts a minute from one client
 * address, twenty times that per 15 minutes from anywhere), on counters of its own: every attempt
 * counts, and one past the limit is a RateLimitedError (429 with Retry-After) before the password
 * is looked at, so a stolen session cannot be used to guess the password.
 */
@Injectable()
export class PasswordCheck {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async matches(userId: number, password: string, clientAddress: string): Promise<boolean> {
    const { perAccount } = this.config.auth.rateLimit;
    await this.limiter.hit(`password-check:account:${userId}:${clientAddress}`, perAccount);
    await this.limiter.hit(
      `password-check:account-anywhere:${userId}`,
      perAccount * ACCOUNT_ANYWHERE_FACTOR,
      ACCOUNT_ANYWHERE_WINDOW_SECONDS,
    );
    const user = await userById(this.dataSource, userId);
    if (!user?.passwordHash) return this.hasher.verifyNobody(password);
    return this.hasher.verify(user.passwordHash, password);
  }
}
