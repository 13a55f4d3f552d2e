/**
 * The organisation context owns the organisation's settings; provisioning only carries them. It
 * asks this policy (provided by that context) to check a file's `settings` with the update route's
 * rules and to seal the secrets before they go into the event. Declared here so identity need not
 * depend on the organisation context, which depends on identity.
 */
export interface OrganisationSettingsPolicy {
  prepare(settings: Record<string, unknown>): { problems: string[]; settings: Record<string, unknown> };
}

export const ORGANISATION_SETTINGS_POLICY = Symbol('ORGANISATION_SETTINGS_POLICY');
