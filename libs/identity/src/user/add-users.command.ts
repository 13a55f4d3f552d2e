import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { SecretBox } from '#app/platform';
import { PasswordHasher } from '../login/password-hasher.js';
import { ProvisioningRefused } from '../provisioning/problems.js';
import { drawIds, organisationIdsAmong, refuseTakenEmailRace, takenEmails, UnknownOrganisation } from './admin.js';
import { type AddUsersResult, addUsersWrite } from './add-users.write.js';
import { lookupsOfUsersFile, validateUsersFile } from './users-file.js';

export type { AddUsersResult } from './add-users.write.js';

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

/** Every lookup first and the file judged in one pass (every problem named), then hashes and ids, then one write (addUsersWrite). */
@CommandHandler(AddUsersCommand)
export class AddUsersHandler implements ICommandHandler<AddUsersCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly secrets: SecretBox,
  ) {}

  async execute({ slug, file: input }: AddUsersCommand): Promise<AddUsersResult> {
    const db = this.dataSource;
    const [org] = await db.query(`SELECT id FROM organisations WHERE slug = $1`, [slug]);
    if (!org) throw new UnknownOrganisation(slug);
    const organisationId = Number(org.id);
    const lookups = lookupsOfUsersFile(input);
    const facts = {
      teams: await organisationIdsAmong(db, 'teams', organisationId, lookups.teams),
      roleProfiles: await organisationIdsAmong(db, 'role_profiles', organisationId, lookups.roleProfiles),
      takenEmails: await takenEmails(
        db,
        lookups.emails.map((e) => e.email),
      ),
    };
    const { file, problems } = validateUsersFile(input, facts);
    if (!file) throw refuse(problems);
    const hashes = await Promise.all(file.users.map((u) => this.hasher.hash(u.password)));
    const userIds = await drawIds(db, 'user', file.users.length);
    const roleIds = await drawIds(
      db,
      'role',
      file.users.reduce((n, u) => n + u.roles.length, 0),
    );
    const sealedTotpSecrets = file.users.map((u) => (u.totp_secret ? this.secrets.seal(u.totp_secret) : null));
    const joining = {
      organisationId,
      file,
      facts,
      userIds,
      roleIds,
      hashes,
      sealedTotpSecrets,
    };
    const { result, ...write } = addUsersWrite(joining);
    await this.store.write(write).catch(refuseTakenEmailRace(refuse));
    return result;
  }
}
