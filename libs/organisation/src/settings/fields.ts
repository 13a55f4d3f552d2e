import type { Permission } from '#app/identity';

/**
 * Every organisation field of the interface (docs/http-conventions.md#organisation-settings): who may
 * change it, how it is checked, its default. The interface types all detailed fields as strings
 * (switches '0'/'1', numbers as digits); only `sso_enabled` is a boolean. Defaults are the
 * interface's where it gives one; elsewhere empty
 * (switches off), except `expenses_require_authorisation` (on: claims need approval) and
 * `expenses_max_age` (3 months): choices recorded in the OpenAPI description.
 */
export type Kind =
  | { type: 'text'; max: number }
  | { type: 'nullable-text'; max: number }
  | { type: 'email' }
  | { type: 'url' }
  | { type: 'colour' }
  | { type: 'switch' }
  /** `unset`: "" is a value too (not set yet), so what the detailed view reads can be written back. */
  | { type: 'digits'; min: number; max: number; unset?: boolean }
  | { type: 'boolean' }
  | { type: 'secret' }
  | { type: 'image' };

export type Access = Permission | 'read-only';

export interface Field {
  readonly kind: Kind;
  readonly access: Access;
  /** In the basic view (every user of the organisation). */
  readonly basic?: boolean;
  readonly default?: string | boolean | null;
  /** What the field does, when its name does not say (the OpenAPI description carries it). */
  readonly note?: string;
}

const text = (max = 255): Kind => ({ type: 'text', max });
const org = (kind: Kind, def: string = ''): Field => ({ kind, access: 'manage-organisation', default: def });
const integration = (kind: Kind, def: string | boolean | null = ''): Field => ({
  kind,
  access: 'manage-integrations',
  default: def,
});
const expenses = (kind: Kind, def: string = ''): Field => ({ kind, access: 'edit-expense-settings', default: def });
const rotas = (kind: Kind, def: string = ''): Field => ({ kind, access: 'manage-rotas', default: def });
const SWITCH: Kind = { type: 'switch' };
const EMAIL: Kind = { type: 'email' };
const COLOUR: Kind = { type: 'colour' };
const URL_: Kind = { type: 'url' };
const SECRET: Kind = { type: 'secret' };
const months = (min = 0): Kind => ({ type: 'digits', min, max: 240 });
const hours: Kind = { type: 'digits', min: 0, max: 168, unset: true };
const LONG = 20_000;

export const FIELDS: Record<string, Field> = {
  // Basic view
  name: { ...org(text()), basic: true, default: undefined },
  slug: { kind: text(), access: 'read-only', basic: true },
  timezone: { kind: text(), access: 'read-only', basic: true },
  date_format: { ...org(text(64), 'j F Y'), basic: true },
  date_format_moment: { ...org(text(64), 'DD MMMM YYYY'), basic: true },
  date_input_format: { ...org(text(64), 'd/m/Y'), basic: true },
  time_format: { ...org(text(64), 'H:i'), basic: true },
  time_input_format: { ...org(text(64), 'H:i'), basic: true },
  analytics_property_id: { ...integration({ type: 'nullable-text', max: 64 }, null), basic: true },
  web_url: { kind: text(), access: 'read-only', basic: true },
  api_url: { kind: text(), access: 'read-only', basic: true },
  forum_url: { kind: text(), access: 'read-only', basic: true },
  minor_age: { ...org({ type: 'digits', min: 0, max: 120 }, '18'), basic: true },
  senior_age: { ...org({ type: 'digits', min: 0, max: 120 }, '0'), basic: true },
  sso_enabled: { ...integration({ type: 'boolean' }, false), basic: true },
  // Social and public site
  microblog_handle: org(text(64)),
  microblog_type: org(text(64)),
  microblog_list: org(text()),
  socialnet_handle: org(text(64)),
  video_list: org(text()),
  video_type: org(text(64)),
  public_site_enabled: org(SWITCH, '0'),
  store_link_a: org(URL_),
  store_link_b: org(URL_),
  cname: org(text()),
  allow_indexers: org(SWITCH, '0'),
  // On-call (hours)
  max_on_call_duration: org(hours),
  default_on_call_duration: org(hours),
  // Data protection officer
  dpo_name: org(text()),
  dpo_email: org(EMAIL),
  dpo_telephone: org(text(32)),
  dpo_address: org(text(1000)),
  // Anonymisation (months; 0 = never)
  anonymise_users_after: org(months(), '0'),
  anonymise_closed_applications_after: org(months(), '0'),
  anonymise_cleared_applications_after: org(months(), '0'),
  // External identity provider
  idp_enabled: integration(SWITCH, '0'),
  idp_domain: integration(text()),
  idp_client_id: integration(text()),
  idp_client_secret: integration(SECRET),
  idp_client_secret_set: { kind: SWITCH, access: 'read-only' },
  // Expenses
  expenses_max_age: expenses(months(1), '3'),
  expenses_submission_rules: expenses(text(LONG)),
  expenses_require_authorisation: expenses(SWITCH, '1'),
  expenses_submission_declaration: expenses(text(LONG)),
  expenses_submission_declaration_supervisor: expenses(text(LONG)),
  expenses_submission_email: expenses(EMAIL),
  // Rotas (an addition, docs/rota-domain.md#reminders): hours before a shift its
  // volunteer is reminded, up to two weeks; "0" switches reminders off.
  shift_reminder_hours: rotas({ type: 'digits', min: 0, max: 336 }, '48'),
  // Rotas (an addition, docs/rota-domain.md#cover-alerts): days ahead within which a timeslot below
  // its minimum is e-mailed to the volunteers who could cover it and the rota's contacts; "0" is off.
  cover_alert_days: {
    ...rotas({ type: 'digits', min: 0, max: 30 }, '0'),
    note:
      'Cover alerts: while a timeslot starting within this many days (× 24 hours) is below its minimum, ' +
      'each volunteer who could book it (a role in the rota’s own team, active, an allowed role profile, ' +
      'no overlapping shift; self-managed rotas only) and each of the rota’s contacts is e-mailed once ' +
      'about it. "0" switches them off.',
  },
  // Texts
  login_text: org(text(LONG)),
  outdated_browser_text: org(text(LONG)),
  // E-mail colours
  email_header_colour: org(COLOUR),
  email_header_text_colour: org(COLOUR),
  email_link_colour: org(COLOUR),
  email_button_colour: org(COLOUR),
  email_button_text_colour: org(COLOUR),
  // Branding
  branding_level: org(text(64)),
  branding_settings: org(text(LONG)),
  header_logo: { kind: { type: 'image' }, access: 'manage-organisation', default: null },
  logo: { kind: { type: 'image' }, access: 'manage-organisation', default: null },
  // Help desk
  helpdesk_organisation_id: integration(text(64)),
  helpdesk_enabled: integration(SWITCH, '0'),
  helpdesk_subdomain: integration(text(64)),
  helpdesk_username: integration(text()),
  helpdesk_token: integration(SECRET),
  helpdesk_token_set: { kind: SWITCH, access: 'read-only' },
  // Contacts
  support_email: org(EMAIL),
  vetting_email: org(EMAIL),
  // Other
  web_hook_settings: integration(text(LONG)),
  return_tasks_to_owner: org(SWITCH, '0'),
  barcode_prefix: org(text(32)),
  barcode_type: org(text(32)),
  access_password: org(SECRET),
  statuses: org(text(LONG)),
  // Learning systems
  lms_a_enabled: integration(SWITCH, '0'),
  lms_a_url: integration(URL_),
  lms_a_token: integration(SECRET),
  lms_a_auth_token: integration(SECRET),
  lms_b_enabled: integration(SWITCH, '0'),
};

/**
 * Write-only fields and the flag that tells whether each is set (`*_set`;
 * docs/http-conventions.md#organisation-settings).
 */
export const SECRETS: Record<string, string> = {
  idp_client_secret: 'idp_client_secret_set',
  helpdesk_token: 'helpdesk_token_set',
  lms_a_token: 'lms_a_token_set',
  lms_a_auth_token: 'lms_a_auth_token_set',
  access_password: 'access_password_set',
};
