import { Global, Module } from '@nestjs/common';
import { FilesModule } from '#app/files';
import { IdentityModule, ORGANISATION_SETTINGS_POLICY } from '#app/identity';
import { SettingsHistory } from './settings/settings-history.js';
import { SettingsPolicy } from './settings/settings-policy.js';
import { SettingsProjection } from './settings/settings.projection.js';
import { SettingsViews } from './settings/settings-views.js';
import { UpdateSettingsHandler } from './settings/update-settings.command.js';
// Declares which fields of organisation's events are whose personal data (sealed in the log).
import './organisation.personal-data.js';

/**
 * The organisation's settings. Global so provisioning (identity) finds the settings policy
 * without identity importing this context.
 */
@Global()
@Module({
  imports: [FilesModule, IdentityModule],
  providers: [
    SettingsViews,
    SettingsHistory,
    SettingsProjection,
    UpdateSettingsHandler,
    { provide: ORGANISATION_SETTINGS_POLICY, useClass: SettingsPolicy },
  ],
  exports: [SettingsViews, SettingsHistory, ORGANISATION_SETTINGS_POLICY],
})
export class OrganisationModule {}
