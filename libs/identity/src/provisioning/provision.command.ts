import { Inject, Optional } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore, type StreamEvents, systemActor } from '#app/event-store';
import { type DirectoryEvent, streamOf } from '../directory/directory.events.js';
import { PasswordHasher } from '../login/password-hasher.js';
import { SecretBox } from '#app/platform';
import { decideAssignRole, decideRegister } from '../user/user.js';
import { drawIds, refuseTakenEmailRace, takenEmails } from '../user/admin.js';
import { ORGANISATION_SETTINGS_POLICY, type OrganisationSettingsPolicy } from './organisation-settings-policy.js';
import { type Problem, ProvisioningRefused } from './problems.js';
import { lookupsOf, type ProvisioningFile, validateProvisioningFile } from './provisioning-file.js';

export { ProvisioningRefused } from './problems.js';

export interface ProvisionResult {
  organisation: { id: number; slug: string };
  teams: Record<string, number>;
  role_profiles: Record<string, number>;
  categories: Record<string, number>;
  users: Record<string, number>;
  roles: Record<string, number[]>;
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

  /**
   * Everything the file needs looked up (the slug, the addresses, the settings' verdict) is looked
   * up whatever else is wrong with it, so one run names every problem; then the passwords are
   * hashed and the ids drawn, and every record is appended in one go.
   */
  async execute({ file: input }: ProvisionCommand): Promise<ProvisionResult> {
    const lookups = lookupsOf(input);
    const settings = this.checkSettings(lookups.settings);
    const [slug] = lookups.slug
      ? await this.dataSource.query(`SELECT 1 FROM organisations WHERE slug = $1`, [lookups.slug])
      : [];
    const facts = {
      slugTaken: !!slug,
      takenEmails: await takenEmails(
        this.dataSource,
        lookups.emails.map((e) => e.email),
      ),
      settings: settings.problems,
    };
    const { file: parsed, problems } = validateProvisioningFile(input, facts);
    if (!parsed) throw new ProvisioningRefused(problems);
    const file = {
      ...parsed,
      organisation: {
        ...parsed.organisation,
        settings: settings.prepared as ProvisioningFile['organisation']['settings'],
      },
    };
    // Hashing is slow on purpose, and the ids are reads: both before anything is written.
    const hashes = await Promise.all(file.users.map((u) => this.hasher.hash(u.password)));
    const plan = await new Allocation(this.dataSource).plan(file, hashes, (s) => this.secrets.seal(s));
    // Every record is a new stream under a drawn id: none is read, all are appended together or none.
    await this.store
      .write({
        streams: () =>
          Object.fromEntries(
            plan.appends.map((a) => [a.streamId, { streamId: a.streamId, expect: 'no_stream' as const }]),
          ),
        decide: () => plan.appends,
        metadata: { organisationId: plan.result.organisation.id, actor: systemActor('provisioning') },
        // New streams under drawn ids: a lost race would lose again, so it answers 409 at once.
        retries: 0,
      })
      .catch(refuseTakenEmailRace((problems) => new ProvisioningRefused(problems)));
    return plan.result;
  }

  /**
   * The organisation context judges the settings with the update route's rules. It is asked one
   * setting at a time: it stops at its first kind of problem, and a file's problems are all
   * reported at once.
   */
  private checkSettings(given: Record<string, unknown>): { problems: Problem[]; prepared: Record<string, unknown> } {
    const names = Object.keys(given);
    if (names.length === 0) return { problems: [], prepared: {} };
    if (!this.settingsPolicy)
      return {
        problems: [{ path: ['organisation', 'settings'], message: 'this process cannot apply organisation settings' }],
        prepared: {},
      };
    const problems: Problem[] = [];
    const prepared: Record<string, unknown> = {};
    for (const name of names) {
      const verdict = this.settingsPolicy.prepare({ [name]: given[name] });
      for (const p of verdict.problems)
        problems.push({
          path: ['organisation', 'settings', name],
          message: p.startsWith(`${name}: `) ? p.slice(name.length + 2) : p,
        });
      Object.assign(prepared, verdict.settings);
    }
    return { problems, prepared };
  }
}

/** Draws the ids and turns the file into one new stream per record, each decided as the administrators' commands decide it. */
class Allocation {
  private readonly appends: StreamEvents[] = [];

  constructor(private readonly db: DataSource) {}

  async plan(file: ProvisioningFile, hashes: string[], seal: (s: string) => string) {
    const org = (await drawIds(this.db, 'organisation', 1))[0]!;
    const o = file.organisation;
    this.add(streamOf.organisation(org), {
      type: 'identity.OrganisationProvisioned',
      data: { id: org, slug: o.slug, name: o.name, timezone: o.timezone, features: o.features, settings: o.settings },
    });
    const teams = await this.keyed('team', file.teams, (id, t, ids) => ({
      type: 'identity.TeamCreated',
      data: {
        id,
        organisationId: org,
        name: t.name,
        parentId: t.parent ? ids[t.parent]! : null,
        ...(t.description !== undefined && { description: t.description }),
        ...(t.icon !== undefined && { icon: t.icon }),
        ...(t.hidden !== undefined && { hidden: t.hidden }),
        ...(t.disabled !== undefined && { disabled: t.disabled }),
      },
    }));
    const profiles = await this.keyed('role_profile', file.role_profiles, (id, p) => ({
      type: 'identity.RoleProfileCreated',
      data: { id, organisationId: org, name: p.name },
    }));
    const categories = await this.keyed('activity_category', file.categories, (id, c) => ({
      type: 'identity.ActivityCategoryCreated',
      data: { id, organisationId: org, name: c.name },
    }));
    const organisation = { id: org, slug: o.slug };
    const userIds = await drawIds(this.db, 'user', file.users.length);
    const users: Record<string, number> = {};
    file.users.forEach((u, i) => {
      users[u.key] = userIds[i]!;
      const registered = decideRegister(
        null,
        {
          id: userIds[i]!,
          organisationId: org,
          entry: u,
          passwordHash: hashes[i]!,
          sealedTotpSecret: u.totp_secret ? seal(u.totp_secret) : null,
        },
        { organisation },
      );
      this.appends.push({ streamId: streamOf.user(userIds[i]!), events: registered });
    });
    const roles: Record<string, number[]> = {};
    const context = { teams: new Set(Object.values(teams)), roleProfiles: new Set(Object.values(profiles)) };
    for (const u of file.users) {
      const ids = await drawIds(this.db, 'role', u.roles.length);
      roles[u.key] = ids;
      u.roles.forEach((r, position) => {
        const assigned = decideAssignRole(
          null,
          {
            id: ids[position]!,
            organisationId: org,
            userId: users[u.key]!,
            teamId: teams[r.team]!,
            roleProfileId: profiles[r.role_profile]!,
            position,
          },
          context,
        );
        this.appends.push({ streamId: streamOf.role(ids[position]!), events: assigned });
      });
    }
    const result: ProvisionResult = { organisation, teams, role_profiles: profiles, categories, users, roles };
    return { appends: this.appends, result };
  }

  private async keyed<T extends { key: string }>(
    kind: 'team' | 'role_profile' | 'activity_category',
    items: T[],
    event: (id: number, item: T, ids: Record<string, number>, index: number) => DirectoryEvent,
  ): Promise<Record<string, number>> {
    const drawn = await drawIds(this.db, kind, items.length);
    const ids: Record<string, number> = {};
    items.forEach((item, i) => (ids[item.key] = drawn[i]!));
    const stream = { team: streamOf.team, role_profile: streamOf.roleProfile, activity_category: streamOf.category }[
      kind
    ];
    items.forEach((item, i) => this.add(stream(drawn[i]!), event(drawn[i]!, item, ids, i)));
    return ids;
  }

  private add(streamId: string, event: DirectoryEvent): void {
    this.appends.push({ streamId, events: [event] });
  }
}
