import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '#app/platform';

/** Signed download links live an hour: long enough to render a page, short enough to leak little. */
export const SIGNED_URL_TTL_SECONDS = 3600;

export type Variant = 'original' | 'small' | 'medium' | 'large';

/**
 * Download URLs carry an expiry and an HMAC of (file, variant, expiry): whoever holds one may
 * fetch that variant until it expires, no JWT needed (an <img> tag cannot send one).
 */
@Injectable()
export class UrlSigner {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.secretsKey, 'uvol', 'file-urls', 32));
  }

  /** `ttlSeconds` longer than the default for links that travel in e-mail. */
  url(fileId: number, variant: Variant, now = Date.now(), ttlSeconds = SIGNED_URL_TTL_SECONDS): string {
    const expires = Math.floor(now / 1000) + ttlSeconds;
    const query = new URLSearchParams({
      variant,
      expires: String(expires),
      signature: this.sign(fileId, variant, expires),
    });
    return `${this.config.http.publicUrl}/api/files/${fileId}/content?${query}`;
  }

  /** 'ok', or why not: a tampered and an expired link are both refused (403). */
  check(
    fileId: number,
    variant: string,
    expires: string,
    signature: string,
    now = Date.now(),
  ): 'ok' | 'expired' | 'invalid' {
    if (!/^\d{1,12}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.sign(fileId, variant, Number(expires)));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return Number(expires) * 1000 < now ? 'expired' : 'ok';
  }

  private sign(fileId: number, variant: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${fileId}.${variant}.${expires}`).digest('base64url');
  }
}
