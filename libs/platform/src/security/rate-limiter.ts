import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '../errors/domain-error.js';
import { KeyedHash } from './keyed-hash.js';

export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', `Too many attempts. Try again in ${retryAfterSeconds} seconds.`);
  }
}

/**
 * Fixed-window counters in Postgres, so every API process sees the same count (and the embedded
 * mode, which has no Redis, works the same). One statement per attempt: counting and the window
 * reset happen in a single upsert, so concurrent attempts cannot both slip under the limit.
 *
 * A key names an e-mail or a network address (`login:account:<email>:<address>`): the table holds
 * its keyed hash only (KeyedHash), never the key (docs/privacy.md: records keyed by an address
 * hold a keyed hash of it, before and after an anonymisation).
 */
@Injectable()
export class RateLimiter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hash: KeyedHash,
  ) {}

  /** Counts one attempt against `key`; throws RateLimitedError once `limit` is passed. */
  async hit(key: string, limit: number, windowSeconds = 60): Promise<void> {
    const [row] = await this.dataSource.query(
      `INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE rate_limits.hits + 1 END,
         window_start = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => $2) THEN now() ELSE rate_limits.window_start END
       RETURNING hits, ceil(extract(epoch FROM window_start + make_interval(secs => $2) - now()))::int AS retry_after`,
      [this.hash.of(key), windowSeconds],
    );
    if (row.hits > limit) throw new RateLimitedError(Math.max(1, row.retry_after));
  }

  /** Forgets `key`, e.g. an account's failures after a successful log-in. */
  async reset(key: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM rate_limits WHERE key = $1`, [this.hash.of(key)]);
  }
}
