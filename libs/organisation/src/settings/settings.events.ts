/** A setting's value as the events carry it. */
export type SettingValue = string | boolean | number | null;

/**
 * A change of organisation settings, with the fields changed and their new values. Secrets are
 * sealed with the SecretBox before they are written: the log never holds them in clear.
 */
export type SettingsEvent = {
  type: 'organisation.SettingsChanged';
  data: { organisationId: number; changes: Record<string, SettingValue> };
};

export const settingsStream = (organisationId: number) => `organisation.Settings-${organisationId}`;
