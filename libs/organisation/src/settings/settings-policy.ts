import { Injectable } from '@nestjs/common';
import type { OrganisationSettingsPolicy } from '#app/identity';
import { SecretBox } from '#app/platform';
import { checkUpdate } from './check-update.js';
import { FIELDS, SECRETS } from './fields.js';

/** Provisioning's settings: the update route's rules (as a holder of every permission), secrets sealed. */
@Injectable()
export class SettingsPolicy implements OrganisationSettingsPolicy {
  constructor(private readonly secrets: SecretBox) {}

  prepare(settings: Record<string, unknown>): { problems: string[]; settings: Record<string, unknown> } {
    const images = Object.keys(settings).filter((k) => Object.hasOwn(FIELDS, k) && FIELDS[k]!.kind.type === 'image');
    if (images.length)
      return {
        problems: images.map((k) => `${k}: images are set with PUT /api/organisation after uploading them`),
        settings: {},
      };
    const all = new Set(Object.values(FIELDS).map((f) => f.access));
    const check = checkUpdate(settings, all);
    if (check.outcome === 'invalid')
      return { problems: Object.entries(check.errors).map(([k, v]) => `${k}: ${v.join(' ')}`), settings: {} };
    if (check.outcome === 'forbidden')
      return { problems: check.fields.map((k) => `${k}: cannot be set`), settings: {} };
    return { problems: [], settings: sealSecrets(check.values, this.secrets) };
  }
}

export function sealSecrets<T extends Record<string, unknown>>(values: T, box: SecretBox): T {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, k in SECRETS && typeof v === 'string' ? box.seal(v) : v]),
  ) as T;
}
