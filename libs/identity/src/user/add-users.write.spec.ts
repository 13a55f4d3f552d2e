import { describe, expect, it } from '@jest/globals';
import { NotFoundError } from '#app/platform';
import { streamOf } from '../directory/directory.events.js';
import { addUsersWrite } from './add-users.write.js';
import { validateUsersFile } from './users-file.js';

const user = (key: string, roles: { team: string; role_profile: string }[]) => ({
  key,
  email: `${key}@riverside.example`,
  password: 'correct horse battery staple',
  display_name: key,
  permissions: [],
  roles,
});
const facts = { teams: new Set([1, 2]), roleProfiles: new Set([1]), takenEmails: new Set<string>() };
const file = validateUsersFile(
  {
    teams: { north: 1, south: 2 },
    role_profiles: { shop: 1 },
    users: [
      user('carol', [
        { team: 'north', role_profile: 'shop' },
        { team: 'south', role_profile: 'shop' },
      ]),
      user('dan', [{ team: 'south', role_profile: 'shop' }]),
    ],
  },
  facts,
).file!;
const joining = {
  organisationId: 3,
  file,
  facts,
  userIds: [40, 41],
  roleIds: [50, 51, 52],
  hashes: ['h0', 'h1'],
  sealedTotpSecrets: [null, null],
};

describe('addUsersWrite', () => {
  it('given two users of three roles, then the role ids are dealt in file order and each record is a new stream', () => {
    const write = addUsersWrite(joining);
    expect(write.result).toEqual({ users: { carol: 40, dan: 41 }, roles: { carol: [50, 51], dan: [52] } });
    const streams = write.streams();
    expect(Object.keys(streams).sort()).toEqual([
      'organisation',
      'role-50',
      'role-51',
      'role-52',
      'user-40',
      'user-41',
    ]);
    expect(streams['user-40']).toEqual({ streamId: streamOf.user(40), expect: 'no_stream' });
    expect(write.retries).toBe(0);
  });

  it('when the organisation is as read, then each user is registered then given its roles, teams by their ids', () => {
    const out = addUsersWrite(joining).decide({ organisation: { id: 3, slug: 'riverside' } });
    expect(out.map((a) => a.streamId)).toEqual([
      streamOf.user(40),
      streamOf.role(50),
      streamOf.role(51),
      streamOf.user(41),
      streamOf.role(52),
    ]);
    expect(out[0]!.events[0]!.data).toMatchObject({ id: 40, organisationId: 3, passwordHash: 'h0', totpSecret: null });
    expect(out[2]!.events[0]!.data).toMatchObject({ id: 51, userId: 40, teamId: 2, roleProfileId: 1, position: 1 });
  });

  it('given no such organisation in its stream, then not found', () => {
    expect(() => addUsersWrite(joining).decide({ organisation: null })).toThrow(NotFoundError);
  });
});
