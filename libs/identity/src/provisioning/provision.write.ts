import { type StreamEvents, systemActor } from '#app/event-store';
import { type DirectoryEvent, streamOf } from '../directory/directory.events.js';
import { decideAssignRole, decideRegister } from '../user/user.js';
import type { OrganisationSettingsPolicy } from './organisation-settings-policy.js';
import type { Problem } from './problems.js';
import type { ProvisioningFile } from './provisioning-file.js';

export interface ProvisionResult {
  organisation: { id: number; slug: string };
  teams: Record<string, number>;
  role_profiles: Record<string, number>;
  categories: Record<string, number>;
  users: Record<string, number>;
  roles: Record<string, number[]>;
}

/** The ids drawn for a file, in its order: one organisation, one per team, profile, category and user, the roles per user. */
export interface ProvisionIds {
  readonly organisation: number;
  readonly teams: readonly number[];
  readonly roleProfiles: readonly number[];
  readonly categories: readonly number[];
  readonly users: readonly number[];
  readonly roles: readonly (readonly number[])[];
}

/** What the file's users need beside it, prepared before the write: each password hashed, each TOTP secret sealed. */
export interface ProvisionSecrets {
  readonly hashes: readonly string[];
  readonly sealedTotpSecrets: readonly (string | null)[];
}

/**
 * The organisation context judges the settings with the update route's rules. It is asked one
 * setting at a time: it stops at its first kind of problem, and a file's problems are all
 * reported at once.
 */
export function checkSettings(
  given: Record<string, unknown>,
  policy: OrganisationSettingsPolicy | undefined,
): { problems: Problem[]; prepared: Record<string, unknown> } {
  const names = Object.keys(given);
  if (names.length === 0) return { problems: [], prepared: {} };
  if (!policy)
    return {
      problems: [{ path: ['organisation', 'settings'], message: 'this process cannot apply organisation settings' }],
      prepared: {},
    };
  const problems: Problem[] = [];
  const prepared: Record<string, unknown> = {};
  for (const name of names) {
    const verdict = policy.prepare({ [name]: given[name] });
    for (const p of verdict.problems)
      problems.push({
        path: ['organisation', 'settings', name],
        message: p.startsWith(`${name}: `) ? p.slice(name.length + 2) : p,
      });
    Object.assign(prepared, verdict.settings);
  }
  return { problems, prepared };
}

/**
 * Brings an organisation up from a valid provisioning file (provisioning.md): every record is a new
 * stream under a drawn id, each decided as the administrators' commands decide it; none is read,
 * all are appended together or none.
 */
export function provisionWrite(file: ProvisioningFile, ids: ProvisionIds, secrets: ProvisionSecrets) {
  const appends: StreamEvents[] = [];
  const add = (streamId: string, event: DirectoryEvent) => appends.push({ streamId, events: [event] });
  const org = ids.organisation;
  const o = file.organisation;
  add(streamOf.organisation(org), {
    type: 'identity.OrganisationProvisioned',
    data: { id: org, slug: o.slug, name: o.name, timezone: o.timezone, features: o.features, settings: o.settings },
  });
  const keyed = <T extends { key: string }>(
    drawn: readonly number[],
    items: T[],
    stream: (id: number) => string,
    event: (id: number, item: T, ids: Record<string, number>) => DirectoryEvent,
  ): Record<string, number> => {
    const byKey: Record<string, number> = {};
    items.forEach((item, i) => (byKey[item.key] = drawn[i]!));
    items.forEach((item, i) => add(stream(drawn[i]!), event(drawn[i]!, item, byKey)));
    return byKey;
  };
  const teams = keyed(ids.teams, file.teams, streamOf.team, (id, t, byKey) => ({
    type: 'identity.TeamCreated',
    data: {
      id,
      organisationId: org,
      name: t.name,
      parentId: t.parent ? byKey[t.parent]! : null,
      ...(t.description !== undefined && { description: t.description }),
      ...(t.icon !== undefined && { icon: t.icon }),
      ...(t.hidden !== undefined && { hidden: t.hidden }),
      ...(t.disabled !== undefined && { disabled: t.disabled }),
    },
  }));
  const profiles = keyed(ids.roleProfiles, file.role_profiles, streamOf.roleProfile, (id, p) => ({
    type: 'identity.RoleProfileCreated',
    data: { id, organisationId: org, name: p.name },
  }));
  const categories = keyed(ids.categories, file.categories, streamOf.category, (id, c) => ({
    type: 'identity.ActivityCategoryCreated',
    data: { id, organisationId: org, name: c.name },
  }));
  const organisation = { id: org, slug: o.slug };
  const users: Record<string, number> = {};
  file.users.forEach((u, i) => {
    const id = ids.users[i]!;
    users[u.key] = id;
    const registered = decideRegister(
      null,
      {
        id,
        organisationId: org,
        entry: u,
        passwordHash: secrets.hashes[i]!,
        sealedTotpSecret: secrets.sealedTotpSecrets[i] ?? null,
      },
      { organisation },
    );
    appends.push({ streamId: streamOf.user(id), events: registered });
  });
  const roles: Record<string, number[]> = {};
  const context = { teams: new Set(Object.values(teams)), roleProfiles: new Set(Object.values(profiles)) };
  file.users.forEach((u, i) => {
    const roleIds = [...(ids.roles[i] ?? [])];
    roles[u.key] = roleIds;
    u.roles.forEach((r, position) => {
      const assigned = decideAssignRole(
        null,
        {
          id: roleIds[position]!,
          organisationId: org,
          userId: users[u.key]!,
          teamId: teams[r.team]!,
          roleProfileId: profiles[r.role_profile]!,
          position,
        },
        context,
      );
      appends.push({ streamId: streamOf.role(roleIds[position]!), events: assigned });
    });
  });
  const result: ProvisionResult = { organisation, teams, role_profiles: profiles, categories, users, roles };
  return {
    result,
    streams: () =>
      Object.fromEntries(appends.map((a) => [a.streamId, { streamId: a.streamId, expect: 'no_stream' as const }])),
    decide: () => appends,
    metadata: { organisationId: org, actor: systemActor('provisioning') },
    // New streams under drawn ids: a lost race would lose again, so it answers 409 at once.
    retries: 0,
  };
}
