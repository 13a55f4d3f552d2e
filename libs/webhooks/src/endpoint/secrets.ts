import { randomBytes } from 'node:crypto';

/** docs/webhooks.md#endpoints: `whsec_` + base64 of 32 random bytes (the Standard Webhooks form). */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
