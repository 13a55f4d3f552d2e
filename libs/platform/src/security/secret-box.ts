import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

const PREFIX = 'v1';

/** Why a sealed secret does not open, in the words an operator can act on. */
export const SEALED_WITH_ANOTHER_KEY =
  "a sealed secret does not open with this process's key: it was sealed by a process with another SECRETS_KEY " +
  '(or, where SECRETS_KEY is unset, another JWT_SECRET, from which the key is derived); every process (API, ' +
  'worker, CLI) must have the same';

/**
 * Seals secrets that must travel inside events (a two-factor code on its way to the mailer, an
 * integration password): the log never holds them in clear. AES-256-GCM, so a tampered value
 * fails to open rather than opening to garbage.
 */
@Injectable()
export class SecretBox {
  constructor(@Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'secretsKey'>) {}

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.config.secretsKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [PREFIX, iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [prefix, iv, tag, body] = sealed.split('.');
    if (prefix !== PREFIX || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.config.secretsKey, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      // GCM's refusal says nothing of the likely cause: an API and a worker with different keys.
      throw new Error(SEALED_WITH_ANOTHER_KEY);
    }
  }
}
