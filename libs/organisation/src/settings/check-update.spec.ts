import { describe, expect, it } from '@jest/globals';
import { checkUpdate } from './check-update.js';

const all = new Set(['manage-organisation', 'manage-integrations', 'edit-expense-settings']);

describe('checking an organisation update', () => {
  it('given valid fields, when the caller may change them, then the values come back normalised', () => {
    expect(
      checkUpdate(
        { name: 'Riverside', minor_age: '16', email_link_colour: '#AABBCC', dpo_email: 'dpo@r.example', sso_enabled: true, analytics_property_id: null, header_logo: { id: 4 }, idp_client_secret: 's3cret' },
        all,
      ),
    ).toEqual({
      outcome: 'ok',
      values: { name: 'Riverside', minor_age: '16', email_link_colour: '#aabbcc', dpo_email: 'dpo@r.example', sso_enabled: true, analytics_property_id: null, header_logo: 4, idp_client_secret: 's3cret' },
    });
  });

  it('given unknown or read-only fields, then a 422 names them before anything else', () => {
    expect(checkUpdate({ slug: 'x', timezone: 'UTC', web_url: 'http://x', idp_client_secret_set: '1', colour: 'red', constructor: 1, name: 'ok' }, new Set())).toEqual({
      outcome: 'invalid',
      errors: {
        slug: [expect.any(String)], timezone: [expect.any(String)], web_url: [expect.any(String)], idp_client_secret_set: [expect.any(String)],
        colour: [expect.any(String)], constructor: [expect.any(String)],
      },
    });
  });

  it('given fields of another permission, then every one of them is named for the 403', () => {
    expect(checkUpdate({ name: 'x', idp_domain: 'd', expenses_max_age: '2' }, new Set(['manage-organisation']))).toEqual({
      outcome: 'forbidden',
      fields: ['idp_domain', 'expenses_max_age'],
    });
  });

  it.each<[string, unknown, string]>([
    ['minor_age', 18, 'a number instead of a string'],
    ['minor_age', '121', 'out of range'],
    ['senior_age', '-1', 'negative'],
    ['email_header_colour', 'red', 'not #rrggbb'],
    ['dpo_email', 'not-an-email', 'not an e-mail'],
    ['public_site_enabled', true, 'a switch as a boolean'],
    ['public_site_enabled', 'yes', 'a switch as a word'],
    ['sso_enabled', 'true', 'a boolean as a string'],
    ['lms_a_url', 'javascript:alert(1)', 'not http(s)'],
    ['expenses_max_age', '0', 'below its minimum'],
    ['header_logo', 'logo.png', 'not a file id'],
    ['name', 'x'.repeat(256), 'too long'],
  ])('given %s = %p (%s), then a 422 names it', (field, value, _why) => {
    const check = checkUpdate({ [field]: value }, all);
    expect(check).toEqual({ outcome: 'invalid', errors: { [field]: [expect.any(String)] } });
  });

  it('given empty strings, then optional contacts and colours clear, and a secret of "" is cleared to null', () => {
    expect(checkUpdate({ support_email: '', email_button_colour: '', helpdesk_token: '' }, all)).toEqual({
      outcome: 'ok',
      values: { support_email: '', email_button_colour: '', helpdesk_token: null },
    });
  });

  it('given a non-object body, then it is refused', () => {
    expect(checkUpdate([1, 2], all).outcome).toBe('invalid');
    expect(checkUpdate(null, all).outcome).toBe('invalid');
  });
});
