export { OrganisationModule } from './organisation.module.js';
export { OrganisationHttpModule } from './organisation-http.module.js';
export { SettingsViews } from './settings/settings-views.js';
