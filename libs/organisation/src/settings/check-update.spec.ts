import { describe, expect, it } from '@jest/globals';
import { ForbiddenError, NotFoundError, testDecider, ValidationError } from '#app/platform';
import { checkUpdate, decideUpdate, evolve, imagesNamed, type NamedFile, type UpdateContext } from './check-update.js';
import type { SettingsEvent, SettingValue } from './settings.events.js';

const all = new Set(['manage-organisation', 'manage-integrations', 'edit-expense-settings', 'manage-rotas']);
const seal = (changes: Record<string, SettingValue>) =>
  Object.fromEntries(
    Object.entries(changes).map(([k, v]) => [
      k,
      (k === 'idp_client_secret' || k === 'helpdesk_token') && typeof v === 'string' ? `sealed(${v})` : v,
    ]),
  );
const ctx: UpdateContext = { files: new Map<number, NamedFile>([[4, { mime: 'image/png', readable: true }]]), seal };
const update = (body: unknown, permissions: ReadonlySet<string> = all) => ({ organisationId: 1, permissions, body });
const changed = (changes: Record<string, SettingValue>): SettingsEvent => ({
  type: 'organisation.SettingsChanged',
  data: { organisationId: 1, changes },
});

describe('updating organisation settings', () => {
  const settings = testDecider({ evolve, decide: decideUpdate });

  it('given defaults, when valid fields come from a caller who may change them, then the values are recorded normalised, secrets sealed', () => {
    settings
      .given([])
      .when(
        update({
          name: 'Riverside',
          minor_age: '16',
          email_link_colour: '#AABBCC',
          dpo_email: 'dpo@r.example',
          sso_enabled: true,
          analytics_property_id: 'G-1',
          header_logo: { id: 4 },
          idp_client_secret: 's3cret',
        }),
        ctx,
      )
      .then([
        changed({
          name: 'Riverside',
          minor_age: '16',
          email_link_colour: '#aabbcc',
          dpo_email: 'dpo@r.example',
          sso_enabled: true,
          analytics_property_id: 'G-1',
          header_logo: 4,
          idp_client_secret: 'sealed(s3cret)',
        }),
      ]);
  });

  it('given stored values, when the same values come again, then only what differs is recorded, and a secret always is', () => {
    settings
      .given([changed({ name: 'Riverside', minor_age: '16' })])
      .when(update({ name: 'Riverside', minor_age: '17' }), ctx)
      .then([changed({ minor_age: '17' })]);
    settings
      .given([changed({ name: 'Riverside' })])
      .when(update({ name: 'Riverside', minor_age: '18' }), ctx)
      .then([]); // 18 is the default
    settings
      .given([changed({ helpdesk_token: 'sealed(t)' })])
      .when(update({ helpdesk_token: 't' }), ctx)
      .then([changed({ helpdesk_token: 'sealed(t)' })]);
  });

  it('given unknown or read-only fields, when sent, then a 422 names them before anything else', () => {
    settings
      .given([])
      .when(
        update(
          {
            slug: 'x',
            timezone: 'UTC',
            web_url: 'http://x',
            idp_client_secret_set: '1',
            colour: 'red',
            constructor: 1,
            name: 'ok',
          },
          new Set(),
        ),
        ctx,
      )
      .thenThrows(ValidationError, ['slug', 'timezone', 'web_url', 'idp_client_secret_set', 'colour', 'constructor']);
  });

  it('given fields of another permission, when sent, then every one of them is named in the 403', () => {
    settings
      .given([])
      .when(update({ name: 'x', idp_domain: 'd', expenses_max_age: '2' }, new Set(['manage-organisation'])), ctx)
      .thenThrows(ForbiddenError, 'You may not change: idp_domain, expenses_max_age.');
  });

  it('given shift reminders, when a manage-rotas holder sets "0" or the most hours, then they are recorded; anyone else is refused', () => {
    settings
      .given([])
      .when(update({ shift_reminder_hours: '0' }, new Set(['manage-rotas'])), ctx)
      .then([changed({ shift_reminder_hours: '0' })]);
    settings
      .given([])
      .when(update({ shift_reminder_hours: '336' }, new Set(['manage-rotas'])), ctx)
      .then([changed({ shift_reminder_hours: '336' })]);
    settings
      .given([])
      .when(update({ shift_reminder_hours: '48' }, new Set(['manage-rotas'])), ctx)
      .then([]); // 48 is the default
    settings
      .given([])
      .when(update({ shift_reminder_hours: '1' }, new Set(['manage-organisation'])), ctx)
      .thenThrows(ForbiddenError, 'You may not change: shift_reminder_hours.');
  });

  it('given cover alerts, when a manage-rotas holder sets "0" to "30", then they are recorded; anyone else is refused', () => {
    settings
      .given([])
      .when(update({ cover_alert_days: '30' }, new Set(['manage-rotas'])), ctx)
      .then([changed({ cover_alert_days: '30' })]);
    settings
      .given([])
      .when(update({ cover_alert_days: '0' }, new Set(['manage-rotas'])), ctx)
      .then([]); // 0 is the default
    settings
      .given([])
      .when(update({ cover_alert_days: '3' }, new Set(['manage-organisation'])), ctx)
      .thenThrows(ForbiddenError, 'You may not change: cover_alert_days.');
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
    ['shift_reminder_hours', 48, 'a number instead of a string'],
    ['shift_reminder_hours', '337', 'over two weeks'],
    ['shift_reminder_hours', '', 'empty (it is never unset)'],
    ['cover_alert_days', '31', 'over a month'],
    ['cover_alert_days', '1.5', 'not a whole number'],
    ['cover_alert_days', 3, 'a number instead of a string'],
    ['cover_alert_days', '', 'empty (it is never unset)'],
    ['header_logo', 'logo.png', 'not a file id'],
    ['name', 'x'.repeat(256), 'too long'],
    ['header_logo', { id: null }, 'a reference without an id (null clears, not this)'],
    ['header_logo', { id: 0 }, 'a reference to id 0'],
    ['header_logo', [{ id: 4 }], 'an array of references'],
    ['name', 'a\u0000b', 'NUL (provisioning files come here without the HTTP pipe)'],
    ['login_text', 'x\ud800', 'an unpaired surrogate'],
  ])('given %s = %p (%s), when sent, then a 422 names it', (field, value) => {
    settings
      .given([])
      .when(update({ [field]: value }), ctx)
      .thenThrows(ValidationError, [field]);
  });

  it('given empty strings, when sent, then optional contacts and colours clear, and a secret of "" is cleared to null', () => {
    settings
      .given([changed({ support_email: 'a@b.example', email_button_colour: '#000000' })])
      .when(update({ support_email: '', email_button_colour: '', helpdesk_token: '' }), ctx)
      .then([changed({ support_email: '', email_button_colour: '', helpdesk_token: null })]);
  });

  it('given on-call durations that read "" until set, when "" is written back, then it is taken (unset), while other whole numbers still need digits', () => {
    settings
      .given([changed({ max_on_call_duration: '12' })])
      .when(update({ max_on_call_duration: '', default_on_call_duration: '' }), ctx)
      .then([changed({ max_on_call_duration: '' })]);
    expect(checkUpdate({ minor_age: '' }, all)).toEqual({
      outcome: 'invalid',
      errors: { minor_age: [expect.any(String)] },
    });
  });

  it('given a non-object body, when sent, then it is refused', () => {
    settings
      .given([])
      .when(update([1, 2]), ctx)
      .thenThrows(ValidationError, ['body']);
    settings.given([]).when(update(null), ctx).thenThrows(ValidationError, ['body']);
  });

  describe('logos', () => {
    it('given a logo, when it is cleared with null, then no file is needed', () => {
      settings
        .given([changed({ header_logo: 4 })])
        .when(update({ header_logo: null }), { ...ctx, files: new Map() })
        .then([changed({ header_logo: null })]);
    });
    it('given a file the caller cannot find (another organisation’s), when named as a logo, then it is not found', () => {
      settings
        .given([])
        .when(update({ header_logo: 5 }), ctx)
        .thenThrows(NotFoundError, 'File not found');
    });
    it('given a file the caller may not read (a member’s receipt), when named as a logo, then it is forbidden', () => {
      settings
        .given([])
        .when(update({ header_logo: 5 }), { ...ctx, files: new Map([[5, { mime: 'image/png', readable: false }]]) })
        .thenThrows(ForbiddenError, 'The header_logo field names a file you may not read.');
    });
    it('given a file that is not an image, when named as a logo, then it is a 422 naming its type', () => {
      settings
        .given([])
        .when(update({ header_logo: 5 }), {
          ...ctx,
          files: new Map([[5, { mime: 'application/pdf', readable: true }]]),
        })
        .thenThrows(ValidationError, {
          header_logo: ['The header_logo field must name an image, not application/pdf.'],
        });
    });
    it('given a bad logo and a field of another permission, when sent, then the 403 for the field comes first', () => {
      settings
        .given([])
        .when(update({ header_logo: 5, idp_domain: 'd' }, new Set(['manage-organisation'])), ctx)
        .thenThrows(ForbiddenError, 'You may not change: idp_domain.');
    });
  });

  it('names the files a body’s logos refer to, for the handler to look up', () => {
    expect(imagesNamed({ header_logo: { id: 4 }, name: 'x', slug: 3 })).toEqual([4]);
    expect(imagesNamed({ header_logo: 'logo.png' })).toEqual([]);
    expect(imagesNamed([4])).toEqual([]);
  });
});

describe('checking settings without a caller (provisioning)', () => {
  it('answers the problems rather than throwing them', () => {
    expect(checkUpdate({ name: 'x', idp_domain: 'd' }, new Set(['manage-organisation']))).toEqual({
      outcome: 'forbidden',
      fields: ['idp_domain'],
    });
    expect(checkUpdate({ minor_age: 18 }, all)).toEqual({
      outcome: 'invalid',
      errors: { minor_age: [expect.any(String)] },
    });
    expect(checkUpdate({ minor_age: '16' }, all)).toEqual({ outcome: 'ok', values: { minor_age: '16' } });
  });
});
