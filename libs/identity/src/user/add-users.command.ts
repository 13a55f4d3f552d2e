import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore, type StreamEvents, type StreamRead } from '#app/event-store';
import { SecretBox } from '#app/platform';
import { streamOf } from '../directory/directory.events.js';
import { PasswordHasher } from '../login/password-hasher.js';
import { ProvisioningRefused } from '../provisioning/problems.js';
import { adminMetadata, drawIds, refuseTakenEmailRace, takenEmails, UnknownOrganisation } from './admin.js';
import { decideAssignRole, decideRegister, evolveOrganisation } from './user.js';
import { lookupsOfUsersFile, validateUsersFile } from './users-file.js';

/** What `users:add` prints: each user's key with the id it got, and the ids of their roles in the file's order. */
export interface AddUsersResult {
  users: Record<string, number>;
  roles: Record<string, number[]>;
}

/** `users:add <slug> <file>`: users (and their roles) join an organisation that exists, with provisioning's checks. */
export class AddUsersCommand extends Command<AddUsersResult> {
  constructor(
    readonly slug: string,
    readonly file: unknown,
  ) {
    super();
  }
}

const refuse = (problems: string[]) => new ProvisioningRefused(problems, 'The users file');

@CommandHandler(AddUsersCommand)
export class AddUsersHandler implements ICommandHandler<AddUsersCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly secrets: SecretBox,
  ) {}

  /**
   * The organisation, the ids the file names and its addresses are looked up first, and the file
   * judged in one pass (every problem named); then the passwords are hashed and ids drawn, and the
   * users and roles are appended together, decided against the organisation's stream as read.
   */
  async execute({ slug, file: input }: AddUsersCommand): Promise<AddUsersResult> {
    const [org] = await this.dataSource.query(`SELECT id FROM organisations WHERE slug = $1`, [slug]);
    if (!org) throw new UnknownOrganisation(slug);
    const organisationId = Number(org.id);
    const lookups = lookupsOfUsersFile(input);
    const idsOf = async (table: 'teams' | 'role_profiles', ids: number[]) =>
      new Set<number>(
        ids.length
          ? (
              await this.dataSource.query(
                `SELECT id FROM ${table} WHERE organisation_id = $1 AND id = ANY($2::bigint[])`,
                [organisationId, ids],
              )
            ).map((r: { id: string }) => Number(r.id))
          : [],
      );
    const facts = {
      teams: await idsOf('teams', lookups.teams),
      roleProfiles: await idsOf('role_profiles', lookups.roleProfiles),
      takenEmails: await takenEmails(
        this.dataSource,
        lookups.emails.map((e) => e.email),
      ),
    };
    const { file, problems } = validateUsersFile(input, facts);
    if (!file) throw refuse(problems);

    const hashes = await Promise.all(file.users.map((u) => this.hasher.hash(u.password)));
    const userIds = await drawIds(this.dataSource, 'user', file.users.length);
    const roleIds = await drawIds(
      this.dataSource,
      'role',
      file.users.reduce((n, u) => n + u.roles.length, 0),
    );
    const result: AddUsersResult = { users: {}, roles: {} };
    const registrations = file.users.map((u, i) => {
      result.users[u.key] = userIds[i]!;
      result.roles[u.key] = u.roles.map(() => roleIds.shift()!);
      // Sealed here, not in the decision: a fresh IV each time (SecretBox), and the decision is pure.
      const sealedTotpSecret = u.totp_secret ? this.secrets.seal(u.totp_secret) : null;
      return { user: u, id: userIds[i]!, hash: hashes[i]!, sealedTotpSecret, roles: result.roles[u.key]! };
    });
    const context = { teams: facts.teams, roleProfiles: facts.roleProfiles };
    // Every user and role is a new stream under a drawn id: none is read.
    const created: Record<`user-${number}` | `role-${number}`, StreamRead> = Object.fromEntries(
      registrations.flatMap((r) => [
        [`user-${r.id}`, { streamId: streamOf.user(r.id), expect: 'no_stream' }],
        ...r.roles.map((id) => [`role-${id}`, { streamId: streamOf.role(id), expect: 'no_stream' }]),
      ]),
    );
    await this.store
      .write({
        // Object.assign keeps the organisation's name in the type, where a spread would lose it.
        streams: () =>
          Object.assign(
            { organisation: { streamId: streamOf.organisation(organisationId), evolve: evolveOrganisation } },
            created,
          ),
        decide: ({ organisation }) =>
          registrations.flatMap(({ user: u, id, hash, sealedTotpSecret, roles }): StreamEvents[] => [
            {
              streamId: streamOf.user(id),
              events: decideRegister(
                null,
                {
                  id,
                  organisationId,
                  entry: u,
                  passwordHash: hash,
                  sealedTotpSecret,
                },
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
          ]),
        metadata: adminMetadata(organisationId, 'users:add'),
        // The file was judged on reads made before the write: a lost race answers 409, not decided again.
        retries: 0,
      })
      .catch(refuseTakenEmailRace(refuse));
    return result;
  }
}
