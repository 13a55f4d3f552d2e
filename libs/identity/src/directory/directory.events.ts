import type { Permission, TwoFactorMethod, UserStatus } from '../permissions.js';

/**
 * What provisioning records. Each record is its own stream (`identity.Organisation-1`,
 * `identity.Team-4`, …); ids come from sequences before the events are written.
 */
export type DirectoryEvent =
  | {
      type: 'identity.OrganisationProvisioned';
      data: {
        id: number;
        slug: string;
        name: string;
        timezone: string;
        features: string[];
        settings: Record<string, unknown>;
      };
    }
  /** `description`, `icon`, `hidden`, `disabled`: as the provisioning file gave them; events from before they existed lack them (none, '', false). */
  | {
      type: 'identity.TeamCreated';
      data: {
        id: number;
        organisationId: number;
        name: string;
        parentId: number | null;
        description?: string;
        icon?: string;
        hidden?: boolean;
        disabled?: boolean;
      };
    }
  | { type: 'identity.RoleProfileCreated'; data: { id: number; organisationId: number; name: string } }
  | { type: 'identity.ActivityCategoryCreated'; data: { id: number; organisationId: number; name: string } }
  | {
      type: 'identity.UserRegistered';
      data: {
        id: number;
        organisationId: number;
        email: string;
        passwordHash: string;
        displayName: string;
        title: string | null;
        phone: string | null;
        status: UserStatus;
        twoFactor: TwoFactorMethod | null;
        /** Sealed with the SecretBox: the log never holds a TOTP secret in clear. */
        totpSecret: string | null;
        permissions: Permission[];
      };
    }
  | {
      type: 'identity.RoleAssigned';
      data: {
        id: number;
        organisationId: number;
        userId: number;
        teamId: number;
        roleProfileId: number;
        position: number;
      };
    }
  /** A TOTP code's time step, once used, is never accepted again for that user. */
  | { type: 'identity.TotpStepUsed'; data: { userId: number; step: number } }
  /** An administrator's change (`users:grant` / `users:revoke`): what changed, and the user's permissions after it. */
  | {
      type: 'identity.PermissionsGranted';
      data: { userId: number; organisationId: number; granted: Permission[]; permissions: Permission[] };
    }
  | {
      type: 'identity.PermissionsRevoked';
      data: { userId: number; organisationId: number; revoked: Permission[]; permissions: Permission[] };
    }
  /**
   * `users:hold`: the user's status becomes `on_hold` (as a provisioning file's `users[].status`
   * sets it; docs/http-conventions.md#user-summary): they still log in; rota bookings of them need
   * `ignore_on_hold`, and they cannot add shifts to themselves. Not a log-in block.
   */
  | { type: 'identity.UserHeld'; data: { userId: number; organisationId: number } }
  /** `users:release`: the user's status is `active` again. */
  | { type: 'identity.UserReleased'; data: { userId: number; organisationId: number } }
  /**
   * docs/privacy.md#anonymising-a-user: the user is anonymised, for good. No personal data: who asked
   * (`requestedBy`; the actor is the metadata's) and when. Every read table holding their personal data
   * reacts to it in an inline projection, in the same transaction.
   */
  | { type: 'identity.UserAnonymised'; data: UserAnonymisedData };

export type AnonymisationRequester = 'self' | 'manager' | 'operator' | 'retention';

export interface UserAnonymisedData {
  userId: number;
  organisationId: number;
  requestedBy: AnonymisationRequester;
  /** ISO instant. */
  anonymisedAt: string;
}

/** The event other contexts' projections key on (by its type string). */
export type UserAnonymisedEvent = { type: 'identity.UserAnonymised'; data: UserAnonymisedData };

export const streamOf = {
  organisation: (id: number) => `identity.Organisation-${id}`,
  team: (id: number) => `identity.Team-${id}`,
  roleProfile: (id: number) => `identity.RoleProfile-${id}`,
  category: (id: number) => `identity.ActivityCategory-${id}`,
  user: (id: number) => `identity.User-${id}`,
  role: (id: number) => `identity.Role-${id}`,
};

/**
 * Gates (docs/adr/0011-declarative-writes.md) of identity's. `user`: an anonymisation advances it;
 * a write that adds personal data of the user's in another context (a booking) holds it and reads
 * the user's standing after it, so it either commits before the anonymisation plans (which then
 * sees it) or sees the user anonymised (docs/privacy.md#anonymising-a-user).
 */
export const gateOf = {
  user: (id: number) => `identity.UserGate-${id}`,
};
