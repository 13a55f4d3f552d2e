import { describe, expect, it } from '@jest/globals';
import { validateProvisioningFile } from './provisioning-file.js';

const valid = () => ({
  organisation: { name: 'Riverside Volunteers', slug: 'riverside', timezone: 'Europe/London', features: ['rota_v2'] },
  role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
  categories: [{ key: 'retail', name: 'Retail' }],
  teams: [
    { key: 'north', name: 'North region' },
    { key: 'north-shop', name: 'North shop', parent: 'north' },
  ],
  users: [
    {
      key: 'alice',
      email: 'Alice@Riverside.example',
      password: 'correct horse battery staple',
      display_name: 'Alice Admin',
      two_factor: 'auth_app',
      totp_secret: 'JBSWY3DPEHPK3PXP',
      permissions: ['manage-organisation', 'approve-claims'],
      roles: [{ team: 'north', role_profile: 'shop' }],
    },
  ],
});

describe('validateProvisioningFile', () => {
  it('given the documented example, then it passes with defaults filled in and the e-mail normalised', () => {
    const { file, problems } = validateProvisioningFile(valid());
    expect(problems).toEqual([]);
    expect(file!.users[0]).toMatchObject({ email: 'alice@riverside.example', status: 'active', two_factor: 'auth_app' });
    expect(file!.organisation.settings).toEqual({});
  });

  it('names each bad entry by its place and key', () => {
    const input = valid();
    (input.users[0] as Record<string, unknown>).permissions = ['manage-organisation', 'fly'];
    (input.organisation as Record<string, unknown>).timezone = 'Mars/Olympus';
    const { problems } = validateProvisioningFile(input);
    expect(problems).toEqual(expect.arrayContaining([
      expect.stringMatching(/^organisation\.timezone: /),
      expect.stringMatching(/^users\[0\] "alice"\.permissions\[1\]: /),
    ]));
  });

  it('checks references: parents before children, known teams and profiles, methods with their data', () => {
    const input = valid();
    input.teams.reverse();
    input.users[0]!.roles.push({ team: 'south', role_profile: 'driver' });
    delete (input.users[0] as Record<string, unknown>).totp_secret;
    input.users.push({ ...input.users[0]!, key: 'bob', two_factor: 'sms' });
    const { problems } = validateProvisioningFile(input);
    expect(problems).toEqual([
      'teams[0] "north-shop": parent "north" is not an earlier team',
      'users[0] "alice": two_factor auth_app needs a totp_secret',
      'users[0] "alice".roles[1]: unknown team "south"',
      'users[0] "alice".roles[1]: unknown role_profile "driver"',
      'users[1] "bob": e-mail alice@riverside.example is used twice',
      'users[1] "bob": two_factor sms needs a phone',
      'users[1] "bob".roles[1]: unknown team "south"',
      'users[1] "bob".roles[1]: unknown role_profile "driver"',
    ]);
  });

  it('refuses unknown fields', () => {
    const input = { ...valid(), extra: true };
    expect(validateProvisioningFile(input).problems).toEqual([expect.stringMatching(/extra|Unrecognized/)]);
  });
});
