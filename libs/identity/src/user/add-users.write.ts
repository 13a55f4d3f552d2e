import type { StreamEvents, StreamRead } from '#app/event-store';
import { streamOf } from '../directory/directory.events.js';
import { adminMetadata } from './admin.js';
import { decideAssignRole, decideRegister, evolveOrganisation, type OrganisationState } from './user.js';
import type { UsersFile, UsersFileFacts } from './users-file.js';

/** What `users:add` prints: each user's key with the id it got, and the ids of their roles in the file's order. */
export interface AddUsersResult {
  users: Record<string, number>;
  roles: Record<string, number[]>;
}

/** A judged users file as its write decides it: the ids drawn, the passwords hashed, the TOTP secrets sealed. */
export interface UsersJoining {
  readonly organisationId: number;
  readonly file: UsersFile;
  readonly facts: Pick<UsersFileFacts, 'teams' | 'roleProfiles'>;
  readonly userIds: readonly number[];
  /** The roles' ids, the file's roles in order, user after user. */
  readonly roleIds: readonly number[];
  readonly hashes: readonly string[];
  /** Sealed before, not in the decision: a fresh IV each time (SecretBox), and the decision is pure. */
  readonly sealedTotpSecrets: readonly (string | null)[];
}

/**
 * Users and their roles join an organisation that exists: every user and role is a new stream under
 * a drawn id (none is read), appended together, decided against the organisation's stream as read.
 */
export function addUsersWrite(j: UsersJoining) {
  const { organisationId, file } = j;
  const result: AddUsersResult = { users: {}, roles: {} };
  let nextRole = 0;
  const registrations = file.users.map((u, i) => {
    result.users[u.key] = j.userIds[i]!;
    result.roles[u.key] = u.roles.map(() => j.roleIds[nextRole++]!);
    return { user: u, id: j.userIds[i]!, hash: j.hashes[i]!, sealedTotpSecret: j.sealedTotpSecrets[i] ?? null };
  });
  const context = { teams: j.facts.teams, roleProfiles: j.facts.roleProfiles };
  const created: Record<`user-${number}` | `role-${number}`, StreamRead> = Object.fromEntries(
    registrations.flatMap((r) => [
      [`user-${r.id}`, { streamId: streamOf.user(r.id), expect: 'no_stream' }],
      ...result.roles[r.user.key]!.map((id) => [`role-${id}`, { streamId: streamOf.role(id), expect: 'no_stream' }]),
    ]),
  );
  return {
    result,
    // Object.assign keeps the organisation's name in the type, where a spread would lose it.
    streams: () =>
      Object.assign(
        { organisation: { streamId: streamOf.organisation(organisationId), evolve: evolveOrganisation } },
        created,
      ),
    decide: ({ organisation }: { organisation: OrganisationState | null }) =>
      registrations.flatMap(({ user: u, id, hash, sealedTotpSecret }): StreamEvents[] => {
        const roles = result.roles[u.key]!;
        return [
          {
            streamId: streamOf.user(id),
            events: decideRegister(
              null,
              { id, organisationId, entry: u, passwordHash: hash, sealedTotpSecret },
              { organisation },
            ),
          },
          ...u.roles.map((r, position) => ({
            streamId: streamOf.role(roles[position]!),
            events: decideAssignRole(
              null,
              {
                id: roles[position]!,
                organisationId,
                userId: id,
                teamId: file.teams[r.team]!,
                roleProfileId: file.role_profiles[r.role_profile]!,
                position,
              },
              context,
            ),
          })),
        ];
      }),
    metadata: adminMetadata(organisationId, 'users:add'),
    // The file was judged on reads made before the write: a lost race answers 409, not decided again.
    retries: 0,
  };
}
