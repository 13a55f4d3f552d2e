import { describe, expect, it } from '@jest/globals';
import { lookupsOfUsersFile, validateUsersFile } from './users-file.js';

const valid = () => ({
  teams: { north: 1, 'north-shop': 2 },
  role_profiles: { shop: 1 },
  users: [
    {
      key: 'carol',
      email: 'Carol@Riverside.example',
      password: 'correct horse battery staple',
      display_name: 'Carol',
      permissions: ['create-expenses'],
      roles: [{ team: 'north-shop', role_profile: 'shop' }],
    },
  ],
});
const facts = { teams: new Set([1, 2]), roleProfiles: new Set([1]), takenEmails: new Set<string>() };

describe('validateUsersFile (users:add)', () => {
  it("given users whose roles name teams and profiles through the id maps, then it passes with provisioning's defaults", () => {
    const { file, problems } = validateUsersFile(valid(), facts);
    expect(problems).toEqual([]);
    expect(file!.users[0]).toMatchObject({ email: 'carol@riverside.example', status: 'active', two_factor: null });
  });

  it('looks up the ids the maps name and the addresses, whatever else is wrong', () => {
    const input = { ...valid(), teams: { north: 1, bad: 'x', zero: 0 }, extra: 1 };
    expect(lookupsOfUsersFile(input)).toEqual({
      teams: [1],
      roleProfiles: [1],
      emails: [{ email: 'carol@riverside.example', path: ['users', 0, 'email'] }],
    });
  });

  it('given a file with problems of every kind, then all are named at once, in file order', () => {
    const base = valid();
    const input = {
      teams: { ...base.teams, south: 17, 'bad key!': 3 },
      role_profiles: { ...base.role_profiles, driver: -1 },
      users: [
        ...base.users,
        {
          key: 'dave',
          email: 'dave@riverside.example',
          password: 'short',
          display_name: 'Dave',
          two_factor: 'sms',
          roles: [{ team: 'west', role_profile: 'shop' }],
        },
        {
          key: 'carol',
          email: 'taken@riverside.example',
          password: 'correct horse',
          display_name: 'Carol two',
          permissions: ['fly'],
        },
      ],
    };
    const { problems } = validateUsersFile(input, { ...facts, takenEmails: new Set(['taken@riverside.example']) });
    expect(problems).toEqual([
      'teams.bad key!: the key must be 1–64 letters, digits, dots, dashes or underscores',
      'teams.south: 17 is not a team of this organisation',
      'role_profiles.driver: must be an id (a positive whole number)',
      'users[1] "dave".password: must be at least 8 characters',
      'users[1] "dave".phone: two_factor sms needs a phone',
      'users[1] "dave".roles[0].team: unknown team "west"',
      'users[2] "carol".key: the key is used twice',
      'users[2] "carol".email: taken@riverside.example belongs to an existing user',
      expect.stringMatching(/^users\[2\] "carol"\.permissions\[0\]: /),
    ]);
  });

  it('given no users, then it is refused', () => {
    expect(validateUsersFile({ users: [] }, facts).problems).toEqual(['users: must list at least one user']);
    expect(validateUsersFile([], facts).problems).toEqual([expect.stringMatching(/^\(file\): /)]);
  });
});
