import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, ValidationError } from '#app/platform';
import type { EndpointSettings } from '../webhooks.events.js';
import { settingsErrors } from './endpoint.js';
import { hostProblem } from './url-check.js';

/**
 * Checks settings before a write: the pure rules, then (for a well-formed url, unless
 * WEBHOOK_ALLOW_PRIVATE) whether its host is or resolves to an address that is not public (docs/webhooks.md#addresses). One 422 naming
 * every bad field.
 */
@Injectable()
export class EndpointSettingsCheck {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async check(settings: Partial<EndpointSettings>): Promise<void> {
    const errors = settingsErrors(settings);
    if (settings.url !== undefined && !errors.url && !this.config.webhooks.allowPrivate) {
      const problem = await hostProblem(settings.url);
      if (problem) errors.url = [problem];
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
  }
}
