import { Inject, Optional } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore, type StreamEvents, systemActor } from '#app/event-store';
import { SecretBox, ValidationError } from '#app/platform';
import { type DirectoryEvent, streamOf } from '../directory/directory.events.js';
import { PasswordHasher } from '../login/password-hasher.js';
import { ORGANISATION_SETTINGS_POLICY, type OrganisationSettingsPolicy } from './organisation-settings-policy.js';
import { type ProvisioningFile, validateProvisioningFile } from './provisioning-file.js';

export interface ProvisionResult {
  organisation: { id: number; slug: string };
  teams: Record<string, number>;
  role_profiles: Record<string, number>;
  categories: Record<string, number>;
  users: Record<string, number>;
  roles: Record<string, number[]>;
}

export class ProvisioningRefused extends ValidationError {
  constructor(readonly problems: string[]) {
    super({ file: problems }, `The provisioning file was refused:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Brings an organisation up from a provisioning file (provisioning.md): all of it, or none of it. */
export class ProvisionCommand extends Command<ProvisionResult> {
  constructor(readonly file: unknown) {
    super();
  }
}

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
    const { file: parsed, problems } = validateProvisioningFile(input);
    if (!parsed) throw new ProvisioningRefused(problems);
    const file = this.withCheckedSettings(parsed);
    // Hashing is slow on purpose; the checks and the ids are reads: all of it before anything is written.
    const hashes = await Promise.all(file.users.map((u) => this.hasher.hash(u.password)));
    const taken = await this.conflicts(file);
    if (taken.length) throw new ProvisioningRefused(taken);
    const plan = await new Allocation(this.dataSource).plan(file, hashes, (s) => this.secrets.seal(s));
    // Every record is a new stream under a drawn id: none is read, all are appended together or none.
    await this.store.handleMany(
      plan.appends.map((a) => ({ streamId: a.streamId, expect: 'no_stream' as const })),
      () => plan.appends,
      { metadata: { organisationId: plan.result.organisation.id, actor: systemActor('provisioning') } },
    );
    return plan.result;
  }

  private withCheckedSettings(file: ProvisioningFile): ProvisioningFile {
    const given = file.organisation.settings;
    if (Object.keys(given).length === 0) return file;
    if (!this.settingsPolicy) throw new ProvisioningRefused(['organisation.settings: this process cannot apply organisation settings']);
    const { problems, settings } = this.settingsPolicy.prepare(given);
    if (problems.length) throw new ProvisioningRefused(problems.map((p) => `organisation.settings.${p}`));
    return { ...file, organisation: { ...file.organisation, settings: settings as ProvisioningFile['organisation']['settings'] } };
  }

  private async conflicts(file: ProvisioningFile): Promise<string[]> {
    const problems: string[] = [];
    const [slug] = await this.dataSource.query(`SELECT 1 FROM organisations WHERE slug = $1`, [file.organisation.slug]);
    if (slug) problems.push(`organisation.slug: "${file.organisation.slug}" exists already`);
    const emails: { email: string }[] = await this.dataSource.query(`SELECT lower(email) AS email FROM users WHERE lower(email) = ANY($1::text[])`, [
      file.users.map((u) => u.email),
    ]);
    for (const { email } of emails) problems.push(`users: e-mail ${email} belongs to an existing user`);
    return problems;
  }
}

/** Draws the ids and turns the file into one new stream per record. */
class Allocation {
  private readonly appends: StreamEvents[] = [];

  constructor(private readonly db: DataSource) {}

  async plan(file: ProvisioningFile, hashes: string[], seal: (s: string) => string) {
    const org = (await this.ids('organisation', 1))[0]!;
    const o = file.organisation;
    this.add(streamOf.organisation(org), { type: 'identity.OrganisationProvisioned', data: { id: org, slug: o.slug, name: o.name, timezone: o.timezone, features: o.features, settings: o.settings } });
    const teams = await this.keyed('team', file.teams, (id, t, ids) => ({ type: 'identity.TeamCreated', data: { id, organisationId: org, name: t.name, parentId: t.parent ? ids[t.parent]! : null } }));
    const profiles = await this.keyed('role_profile', file.role_profiles, (id, p) => ({ type: 'identity.RoleProfileCreated', data: { id, organisationId: org, name: p.name } }));
    const categories = await this.keyed('activity_category', file.categories, (id, c) => ({ type: 'identity.ActivityCategoryCreated', data: { id, organisationId: org, name: c.name } }));
    const users = await this.keyed('user', file.users, (id, u, _ids, i) => ({
      type: 'identity.UserRegistered',
      data: {
        id, organisationId: org, email: u.email, passwordHash: hashes[i]!, displayName: u.display_name, title: u.title ?? null,
        phone: u.phone ?? null, status: u.status, twoFactor: u.two_factor, totpSecret: u.totp_secret ? seal(u.totp_secret) : null, permissions: u.permissions,
      },
    }));
    const roles: Record<string, number[]> = {};
    for (const u of file.users) {
      const ids = await this.ids('role', u.roles.length);
      roles[u.key] = ids;
      u.roles.forEach((r, position) =>
        this.add(streamOf.role(ids[position]!), { type: 'identity.RoleAssigned', data: { id: ids[position]!, organisationId: org, userId: users[u.key]!, teamId: teams[r.team]!, roleProfileId: profiles[r.role_profile]!, position } }),
      );
    }
    const result: ProvisionResult = { organisation: { id: org, slug: o.slug }, teams, role_profiles: profiles, categories, users, roles };
    return { appends: this.appends, result };
  }

  private async keyed<T extends { key: string }>(
    kind: 'team' | 'role_profile' | 'activity_category' | 'user',
    items: T[],
    event: (id: number, item: T, ids: Record<string, number>, index: number) => DirectoryEvent,
  ): Promise<Record<string, number>> {
    const drawn = await this.ids(kind, items.length);
    const ids: Record<string, number> = {};
    items.forEach((item, i) => (ids[item.key] = drawn[i]!));
    const stream = { team: streamOf.team, role_profile: streamOf.roleProfile, activity_category: streamOf.category, user: streamOf.user }[kind];
    items.forEach((item, i) => this.add(stream(drawn[i]!), event(drawn[i]!, item, ids, i)));
    return ids;
  }

  private add(streamId: string, event: DirectoryEvent): void {
    this.appends.push({ streamId, events: [event] });
  }

  private async ids(kind: string, count: number): Promise<number[]> {
    if (count === 0) return [];
    const rows: { id: string }[] = await this.db.query(`SELECT nextval('identity_${kind}_ids') AS id FROM generate_series(1, $1)`, [count]);
    return rows.map((r) => Number(r.id));
  }
}
