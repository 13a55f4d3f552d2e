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
   * The user is anonymised (docs/privacy.md#anonymising-a-user; privacy contract §2): who asked and
   * when, no personal data. Who acted is the metadata's actor, as for every event.
   */
  | {
      type: 'identity.UserAnonymised';
      data: {
        userId: number;
        organisationId: number;
        requestedBy: 'self' | 'manager' | 'operator' | 'retention';
        anonymisedAt: string;
      };
    };

export const streamOf = {
  organisation: (id: number) => `identity.Organisation-${id}`,
  team: (id: number) => `identity.Team-${id}`,
  roleProfile: (id: number) => `identity.RoleProfile-${id}`,
  category: (id: number) => `identity.ActivityCategory-${id}`,
  user: (id: number) => `identity.User-${id}`,
  role: (id: number) => `identity.Role-${id}`,
};
