import { createHmac, hkdfSync } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

/**
 * A keyed hash (HMAC-SHA-256) of a value that is personal data and only ever compared, never read
 * back: an e-mail or network address a record is keyed by (rate limits, log-in attempts;
 * docs/privacy.md#what-is-purged-and-file-deletion). The key is derived from the service's
 * secrets key (SECRETS_KEY, or JWT_SECRET where it is unset) for this use alone, so the hash of
 * an address is the same in every process and no table holds the address, nor anything from which
 * a guess of it can be checked without the key.
 */
@Injectable()
export class KeyedHash {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'secretsKey'>) {
    this.key = Buffer.from(hkdfSync('sha256', config.secretsKey, 'uvol', 'keyed-hash', 32));
  }

  /** Hex HMAC-SHA-256 of `value` (a string as given: normalise before, e.g. lower-case an e-mail). */
  of(value: string): string {
    return createHmac('sha256', this.key).update(value, 'utf8').digest('hex');
  }
}
