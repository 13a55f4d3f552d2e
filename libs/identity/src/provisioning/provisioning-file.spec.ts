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
    expect(file!.users[0]).toMatchObject({
      email: 'alice@riverside.example',
      status: 'active',
      two_factor: 'auth_app',
    });
    expect(file!.organisation.settings).toEqual({});
  });

  it('names each bad entry by its place and key', () => {
    const input = valid();
    (input.users[0] as Record<string, unknown>).permissions = ['manage-organisation', 'fly'];
    (input.organisation as Record<string, unknown>).timezone = 'Mars/Olympus';
    const { problems } = validateProvisioningFile(input);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^organisation\.timezone: /),
        expect.stringMatching(/^users\[0\] "alice"\.permissions\[1\]: /),
      ]),
    );
  });

  it('checks references: parents before children, known teams and profiles, methods with their data', () => {
    const input = valid();
    input.teams.reverse();
    input.users[0]!.roles.push({ team: 'south', role_profile: 'driver' });
    delete (input.users[0] as Record<string, unknown>).totp_secret;
    input.users.push({ ...input.users[0]!, key: 'bob', two_factor: 'sms' });
    const { problems } = validateProvisioningFile(input);
    expect(problems).toEqual([
      'teams[0] "north-shop".parent: "north" is not an earlier team',
      'users[0] "alice".totp_secret: two_factor auth_app needs a totp_secret',
      'users[0] "alice".roles[1].team: unknown team "south"',
      'users[0] "alice".roles[1].role_profile: unknown role_profile "driver"',
      'users[1] "bob".email: alice@riverside.example is used twice',
      'users[1] "bob".phone: two_factor sms needs a phone',
      'users[1] "bob".roles[1].team: unknown team "south"',
      'users[1] "bob".roles[1].role_profile: unknown role_profile "driver"',
    ]);
  });

  it('given a team with description, icon, hidden and disabled, then it passes with them; wrong types are refused at their place', () => {
    const input = valid();
    Object.assign(input.teams[1]!, {
      description: 'The shop on the high street',
      icon: 'shop',
      hidden: true,
      disabled: false,
    });
    const { file, problems } = validateProvisioningFile(input);
    expect(problems).toEqual([]);
    expect(file!.teams[1]).toEqual({
      key: 'north-shop',
      name: 'North shop',
      parent: 'north',
      description: 'The shop on the high street',
      icon: 'shop',
      hidden: true,
      disabled: false,
    });
    expect(file!.teams[0]).toEqual({ key: 'north', name: 'North region' });
    Object.assign(input.teams[1]!, { icon: 7, hidden: 'yes' });
    expect(validateProvisioningFile(input).problems).toEqual([
      expect.stringMatching(/^teams\[1\] "north-shop"\.icon: /),
      expect.stringMatching(/^teams\[1\] "north-shop"\.hidden: /),
    ]);
  });

  it('refuses unknown fields', () => {
    const input = { ...valid(), extra: true };
    expect(validateProvisioningFile(input).problems).toEqual([expect.stringMatching(/extra|Unrecognized/)]);
  });
});

describe('validateProvisioningFile: every problem in one pass', () => {
  it('given a file with schema, reference and duplicate problems together, then it names all of them at once, in file order', () => {
    const base = valid();
    const input = {
      ...base,
      organisation: { ...base.organisation, timezone: 'Mars/Olympus', colour: 'red' },
      role_profiles: [...base.role_profiles, { key: 'shop', name: 'Second shop' }],
      teams: [...base.teams, { key: 'south', name: '' }, { key: 'east', name: 'East', parent: 'nowhere' }],
      users: [
        { ...base.users[0]!, permissions: ['manage-organisation', 'fly'] },
        {
          key: 'bob',
          email: 'bob@riverside.example',
          password: 'correct horse',
          display_name: 'Bob',
          two_factor: 'auth_app',
          roles: [{ team: 'west', role_profile: 'shop' }],
        },
        {
          key: 'bob',
          email: 'BOB@riverside.example',
          password: 'short',
          display_name: 'Bob again',
          two_factor: 'sms',
          roles: [{ team: 'north', role_profile: 'driver' }],
        },
        { key: 'dave', email: 'not-an-email', password: 'correct horse', display_name: 'Dave' },
      ],
    };
    const { file, problems } = validateProvisioningFile(input);
    expect(file).toBeUndefined();
    expect(problems).toEqual([
      expect.stringMatching(/^organisation: .*colour/),
      expect.stringMatching(/^organisation\.timezone: /),
      'role_profiles[1] "shop".key: the key is used twice',
      expect.stringMatching(/^teams\[2\] "south"\.name: /),
      'teams[3] "east".parent: "nowhere" is not an earlier team',
      expect.stringMatching(/^users\[0\] "alice"\.permissions\[1\]: /),
      'users[1] "bob".totp_secret: two_factor auth_app needs a totp_secret',
      'users[1] "bob".roles[0].team: unknown team "west"',
      'users[2] "bob".key: the key is used twice',
      'users[2] "bob".email: bob@riverside.example is used twice',
      expect.stringMatching(/^users\[2\] "bob"\.password: /),
      'users[2] "bob".phone: two_factor sms needs a phone',
      'users[2] "bob".roles[0].role_profile: unknown role_profile "driver"',
      expect.stringMatching(/^users\[3\] "dave"\.email: /),
    ]);
  });

  it('given what the handler looked up (a slug and an address taken, settings refused), then those are named with the rest, each at its place', () => {
    const base = valid();
    const input = {
      ...base,
      organisation: { ...base.organisation, settings: { expenses_max_age: 'soon', colour: 'red' } },
      teams: [base.teams[0]!, { ...base.teams[1]!, parent: 'south' }],
      users: [{ ...base.users[0]!, password: 'short' }],
    };
    const facts = {
      slugTaken: true,
      takenEmails: new Set(['alice@riverside.example']),
      settings: [
        { path: ['organisation', 'settings', 'expenses_max_age'], message: 'must be a number of months' },
        { path: ['organisation', 'settings', 'colour'], message: 'The colour field does not exist.' },
      ],
    };
    expect(validateProvisioningFile(input, facts).problems).toEqual([
      'organisation.slug: "riverside" exists already',
      'organisation.settings.expenses_max_age: must be a number of months',
      'organisation.settings.colour: The colour field does not exist.',
      'teams[1] "north-shop".parent: "south" is not an earlier team',
      'users[0] "alice".email: alice@riverside.example belongs to an existing user',
      'users[0] "alice".password: must be at least 8 characters',
    ]);
  });
});
