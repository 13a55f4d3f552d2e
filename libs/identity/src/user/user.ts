import { ConflictError, NotFoundError, ValidationError } from '#app/platform';
import type { DirectoryEvent } from '../directory/directory.events.js';
import { type Permission, PERMISSIONS } from '../permissions.js';
import type { UserEntry } from '../provisioning/user-entries.js';

/**
 * A user (stream `identity.User-<id>`) as the administrators' commands see it: provisioning and
 * `users:add` register it, `users:grant` / `users:revoke` change its permissions, `users:hold` /
 * `users:release` set its status to `on_hold` and back to `active` (`held` is `status === 'on_hold'`,
 * whether provisioned so or held since; an on-hold user still logs in).
 */
export interface UserState {
  readonly id: number;
  readonly organisationId: number;
  readonly email: string;
  readonly permissions: readonly Permission[];
  readonly held: boolean;
  /** docs/privacy.md#anonymising-a-user: for good. */
  readonly anonymised?: boolean;
}

export function evolve(state: UserState | null, event: DirectoryEvent): UserState | null {
  switch (event.type) {
    case 'identity.UserRegistered':
      return {
        id: event.data.id,
        organisationId: event.data.organisationId,
        email: event.data.email,
        permissions: event.data.permissions,
        held: event.data.status === 'on_hold',
      };
    case 'identity.PermissionsGranted':
    case 'identity.PermissionsRevoked':
      return state && { ...state, permissions: event.data.permissions };
    case 'identity.UserHeld':
      return state && { ...state, held: true };
    case 'identity.UserReleased':
      return state && { ...state, held: false };
    case 'identity.UserAnonymised':
      return state && { ...state, anonymised: true };
    default:
      return state;
  }
}

/** An organisation (stream `identity.Organisation-<id>`), as far as registering its users needs it. */
export interface OrganisationState {
  readonly id: number;
  readonly slug: string;
}

export function evolveOrganisation(state: OrganisationState | null, event: DirectoryEvent): OrganisationState | null {
  return event.type === 'identity.OrganisationProvisioned' ? { id: event.data.id, slug: event.data.slug } : state;
}

/** A role (stream `identity.Role-<id>`): one user in one team with one role profile. */
export interface RoleState {
  readonly id: number;
}

export function evolveRole(state: RoleState | null, event: DirectoryEvent): RoleState | null {
  return event.type === 'identity.RoleAssigned' ? { id: event.data.id } : state;
}

/** A user of a provisioning or `users:add` file, under an id drawn for it; the password already hashed, a TOTP secret sealed. */
export interface RegisterUser {
  readonly id: number;
  readonly organisationId: number;
  readonly entry: Omit<UserEntry, 'key' | 'password' | 'roles' | 'totp_secret'>;
  readonly passwordHash: string;
  readonly sealedTotpSecret: string | null;
}

/** Registering a user: into an organisation that exists, under an id nobody has. E-mail uniqueness is the read table's unique index (a lost race). */
export function decideRegister(
  state: UserState | null,
  cmd: RegisterUser,
  ctx: { readonly organisation: OrganisationState | null },
): DirectoryEvent[] {
  if (!ctx.organisation || ctx.organisation.id !== cmd.organisationId) throw new NotFoundError('Organisation');
  if (state) throw new ConflictError(`User ${cmd.id} exists already.`);
  const e = cmd.entry;
  return [
    {
      type: 'identity.UserRegistered',
      data: {
        id: cmd.id,
        organisationId: cmd.organisationId,
        email: e.email,
        passwordHash: cmd.passwordHash,
        displayName: e.display_name,
        title: e.title ?? null,
        phone: e.phone ?? null,
        status: e.status,
        twoFactor: e.two_factor,
        totpSecret: cmd.sealedTotpSecret,
        permissions: e.permissions,
      },
    },
  ];
}

export interface AssignRole {
  readonly id: number;
  readonly organisationId: number;
  readonly userId: number;
  readonly teamId: number;
  readonly roleProfileId: number;
  /** The role's place among the user's roles, as the file lists them. */
  readonly position: number;
}

/** The teams and role profiles of the user's organisation (those the command names, looked up, or being created with it). */
export interface RoleContext {
  readonly teams: ReadonlySet<number>;
  readonly roleProfiles: ReadonlySet<number>;
}

/** A role in a team and with a role profile of the user's own organisation. */
export function decideAssignRole(state: RoleState | null, cmd: AssignRole, ctx: RoleContext): DirectoryEvent[] {
  if (state) throw new ConflictError(`Role ${cmd.id} exists already.`);
  const errors: Record<string, string[]> = {};
  if (!ctx.teams.has(cmd.teamId)) errors.team = [`Team ${cmd.teamId} is not a team of the organisation.`];
  if (!ctx.roleProfiles.has(cmd.roleProfileId))
    errors.role_profile = [`Role profile ${cmd.roleProfileId} is not a role profile of the organisation.`];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return [{ type: 'identity.RoleAssigned', data: { ...cmd } }];
}

/** Permission names as an administrator typed them. */
export interface ChangePermissions {
  readonly userId: number;
  readonly permissions: readonly string[];
}

export const unknownPermissions = (names: readonly string[]) =>
  names.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));

function checkNames(cmd: ChangePermissions): Permission[] {
  if (cmd.permissions.length === 0) throw new ValidationError({ permissions: ['Name at least one permission.'] });
  const unknown = unknownPermissions(cmd.permissions);
  if (unknown.length) {
    throw new ValidationError(
      { permissions: unknown.map((p) => `"${p}" is not a permission.`) },
      `Unknown permission ${unknown.map((p) => `"${p}"`).join(', ')}; the permissions are: ${PERMISSIONS.join(', ')}.`,
    );
  }
  return [...new Set(cmd.permissions as Permission[])];
}

function existing(state: UserState | null, userId: number): UserState {
  if (!state || state.id !== userId) throw new NotFoundError('User');
  return state;
}

/** `users:grant`: the permissions the user lacks are added; granting what they hold changes nothing. */
export function decideGrant(state: UserState | null, cmd: ChangePermissions): DirectoryEvent[] {
  const names = checkNames(cmd);
  const user = existing(state, cmd.userId);
  const granted = names.filter((p) => !user.permissions.includes(p));
  if (granted.length === 0) return [];
  return [
    {
      type: 'identity.PermissionsGranted',
      data: {
        userId: user.id,
        organisationId: user.organisationId,
        granted,
        permissions: [...user.permissions, ...granted],
      },
    },
  ];
}

/** `users:revoke`: the permissions the user holds are taken away; revoking what they lack changes nothing. */
export function decideRevoke(state: UserState | null, cmd: ChangePermissions): DirectoryEvent[] {
  const names = checkNames(cmd);
  const user = existing(state, cmd.userId);
  const revoked = names.filter((p) => user.permissions.includes(p));
  if (revoked.length === 0) return [];
  return [
    {
      type: 'identity.PermissionsRevoked',
      data: {
        userId: user.id,
        organisationId: user.organisationId,
        revoked,
        permissions: user.permissions.filter((p) => !revoked.includes(p)),
      },
    },
  ];
}

/** `users:hold`: the user's status becomes `on_hold` (they still log in); holding an on-hold user changes nothing. */
export function decideHold(state: UserState | null, cmd: { readonly userId: number }): DirectoryEvent[] {
  const user = existing(state, cmd.userId);
  return user.held
    ? []
    : [{ type: 'identity.UserHeld', data: { userId: user.id, organisationId: user.organisationId } }];
}

/** `users:release`: the user's status is `active` again; releasing an active user changes nothing. */
export function decideRelease(state: UserState | null, cmd: { readonly userId: number }): DirectoryEvent[] {
  const user = existing(state, cmd.userId);
  return user.held
    ? [{ type: 'identity.UserReleased', data: { userId: user.id, organisationId: user.organisationId } }]
    : [];
}
