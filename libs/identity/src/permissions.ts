/** The permissions of docs/http-conventions.md#permissions; a provisioning file naming another is refused. */
export const PERMISSIONS = [
  'manage-organisation',
  'manage-integrations',
  'edit-expense-settings',
  'create-expenses',
  'approve-claims',
  'self-approve-claims',
  'manage-rotas',
  'add-user-shifts',
  /** Anonymising the users the holder manages and reading their personal-data export (docs/privacy.md). */
  'manage-data-protection',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const TWO_FACTOR_METHODS = ['email', 'sms', 'auth_app', 'magic_link'] as const;
export type TwoFactorMethod = (typeof TWO_FACTOR_METHODS)[number];

export const USER_STATUSES = ['active', 'on_hold'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
