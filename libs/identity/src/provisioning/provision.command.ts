import { Inject, Optional } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { PasswordHasher } from '../login/password-hasher.js';
import { SecretBox } from '#app/platform';
import { drawIds, refuseTakenEmailRace, takenEmails } from '../user/admin.js';
import { ORGANISATION_SETTINGS_POLICY, type OrganisationSettingsPolicy } from './organisation-settings-policy.js';
import { ProvisioningRefused } from './problems.js';
import { lookupsOf, type ProvisioningFile, validateProvisioningFile } from './provisioning-file.js';
import { checkSettings, type ProvisionResult, provisionWrite } from './provision.write.js';

export { ProvisioningRefused } from './problems.js';
export type { ProvisionResult } from './provision.write.js';

/** Brings an organisation up from a provisioning file (provisioning.md): all of it, or none of it. */
export class ProvisionCommand extends Command<ProvisionResult> {
  constructor(readonly file: unknown) {
    super();
  }
}

/** Every lookup made whatever else is wrong (one run names every problem), then hashes and ids, then one write (provisionWrite). */
@CommandHandler(ProvisionCommand)
export class ProvisionHandler implements ICommandHandler<ProvisionCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly secrets: SecretBox,
    @Optional() @Inject(ORGANISATION_SETTINGS_POLICY) private readonly settingsPolicy?: OrganisationSettingsPolicy,
  ) {}

  async execute({ file: input }: ProvisionCommand): Promise<ProvisionResult> {
    const lookups = lookupsOf(input);
    const settings = checkSettings(lookups.settings, this.settingsPolicy);
    const db = this.dataSource;
    const [slug] = lookups.slug ? await db.query(`SELECT 1 FROM organisations WHERE slug = $1`, [lookups.slug]) : [];
    const taken = await takenEmails(
      db,
      lookups.emails.map((e) => e.email),
    );
    const { file: parsed, problems } = validateProvisioningFile(input, {
      slugTaken: !!slug,
      takenEmails: taken,
      settings: settings.problems,
    });
    if (!parsed) throw new ProvisioningRefused(problems);
    const settingsOf = settings.prepared as ProvisioningFile['organisation']['settings'];
    const file = { ...parsed, organisation: { ...parsed.organisation, settings: settingsOf } };
    // Hashing is slow on purpose, and the ids are reads: both before anything is written.
    const hashes = await Promise.all(file.users.map((u) => this.hasher.hash(u.password)));
    const sealedTotpSecrets = file.users.map((u) => (u.totp_secret ? this.secrets.seal(u.totp_secret) : null));
    const ids = {
      organisation: (await drawIds(db, 'organisation', 1))[0]!,
      teams: await drawIds(db, 'team', file.teams.length),
      roleProfiles: await drawIds(db, 'role_profile', file.role_profiles.length),
      categories: await drawIds(db, 'activity_category', file.categories.length),
      users: await drawIds(db, 'user', file.users.length),
      roles: [] as number[][],
    };
    for (const u of file.users) ids.roles.push(await drawIds(db, 'role', u.roles.length));
    const { result, ...write } = provisionWrite(file, ids, { hashes, sealedTotpSecrets });
    await this.store.write(write).catch(refuseTakenEmailRace((problems) => new ProvisioningRefused(problems)));
    return result;
  }
}
