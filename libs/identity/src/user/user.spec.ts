import { describe, expect, it } from '@jest/globals';
import { ConflictError, NotFoundError, testDecider, ValidationError } from '#app/platform';
import type { DirectoryEvent } from '../directory/directory.events.js';
import {
  decideAssignRole,
  decideGrant,
  decideHold,
  decideRegister,
  decideRelease,
  decideRevoke,
  evolve,
  evolveRole,
  type RegisterUser,
} from './user.js';

const registered: DirectoryEvent = {
  type: 'identity.UserRegistered',
  data: {
    id: 5,
    organisationId: 1,
    email: 'alice@riverside.example',
    passwordHash: 'hash',
    displayName: 'Alice',
    title: null,
    phone: null,
    status: 'active',
    twoFactor: null,
    totpSecret: null,
    permissions: ['create-expenses'],
  },
};
const registeredOnHold: DirectoryEvent = {
  ...registered,
  data: { ...registered.data, status: 'on_hold' },
} as DirectoryEvent;
const held: DirectoryEvent = { type: 'identity.UserHeld', data: { userId: 5, organisationId: 1 } };
const released: DirectoryEvent = { type: 'identity.UserReleased', data: { userId: 5, organisationId: 1 } };
const totpSpent: DirectoryEvent = { type: 'identity.TotpStepUsed', data: { userId: 5, step: 100 } };

describe('registering a user (provisioning, users:add)', () => {
  const user = testDecider({ evolve, decide: decideRegister });
  const register: RegisterUser = {
    id: 5,
    organisationId: 1,
    passwordHash: 'hash',
    sealedTotpSecret: null,
    entry: {
      email: 'alice@riverside.example',
      display_name: 'Alice',
      status: 'active',
      two_factor: null,
      permissions: ['create-expenses'],
    },
  };
  const riverside = { organisation: { id: 1, slug: 'riverside' } };

  it('given no user under the drawn id, when registered into an organisation that exists, then the user is registered with the entry as given', () => {
    user.given([]).when(register, riverside).then([registered]);
  });

  it('given no such organisation (or another one), when a user is registered into it, then it is not found', () => {
    user.given([]).when(register, { organisation: null }).thenThrows(NotFoundError, 'Organisation not found');
    user
      .given([])
      .when(register, { organisation: { id: 2, slug: 'elsewhere' } })
      .thenThrows(NotFoundError);
  });

  it('given a user under that id, when registered again, then it is a conflict', () => {
    user.given([registered]).when(register, riverside).thenThrows(ConflictError);
  });
});

describe('assigning a role (provisioning, users:add)', () => {
  const role = testDecider({ evolve: evolveRole, decide: decideAssignRole });
  const assign = { id: 9, organisationId: 1, userId: 5, teamId: 2, roleProfileId: 3, position: 0 };
  const ctx = { teams: new Set([1, 2]), roleProfiles: new Set([3]) };

  it('given a team and role profile of the organisation, when the role is assigned, then it is', () => {
    role
      .given([])
      .when(assign, ctx)
      .then([{ type: 'identity.RoleAssigned', data: assign }]);
  });

  it("given a team and a role profile that are not the organisation's, then both are named", () => {
    role
      .given([])
      .when({ ...assign, teamId: 7, roleProfileId: 8 }, ctx)
      .thenThrows(ValidationError, ['team', 'role_profile']);
  });

  it('given the role exists, when assigned again, then it is a conflict', () => {
    role
      .given([{ type: 'identity.RoleAssigned', data: assign }])
      .when(assign, ctx)
      .thenThrows(ConflictError);
  });
});

describe('users:grant', () => {
  const user = testDecider({ evolve, decide: decideGrant });

  it('given a user with create-expenses, when approve-claims and manage-rotas are granted, then both are added after what they hold', () => {
    user
      .given([registered])
      .when({ userId: 5, permissions: ['approve-claims', 'manage-rotas'] })
      .then([
        {
          type: 'identity.PermissionsGranted',
          data: {
            userId: 5,
            organisationId: 1,
            granted: ['approve-claims', 'manage-rotas'],
            permissions: ['create-expenses', 'approve-claims', 'manage-rotas'],
          },
        },
      ]);
  });

  it('given a user with create-expenses, when it and a new one are granted (one of them twice), then only the new one is granted, once', () => {
    user
      .given([registered])
      .when({ userId: 5, permissions: ['create-expenses', 'approve-claims', 'approve-claims'] })
      .then([
        {
          type: 'identity.PermissionsGranted',
          data: {
            userId: 5,
            organisationId: 1,
            granted: ['approve-claims'],
            permissions: ['create-expenses', 'approve-claims'],
          },
        },
      ]);
  });

  it('given a user who holds the permission, when it is granted again, then nothing changes', () => {
    user
      .given([registered])
      .when({ userId: 5, permissions: ['create-expenses'] })
      .then([]);
  });

  it('given permissions granted and revoked since registration, when granting, then the fold of those changes is what counts', () => {
    const granted: DirectoryEvent = {
      type: 'identity.PermissionsGranted',
      data: {
        userId: 5,
        organisationId: 1,
        granted: ['approve-claims'],
        permissions: ['create-expenses', 'approve-claims'],
      },
    };
    const revoked: DirectoryEvent = {
      type: 'identity.PermissionsRevoked',
      data: { userId: 5, organisationId: 1, revoked: ['create-expenses'], permissions: ['approve-claims'] },
    };
    user
      .given([registered, granted, revoked, totpSpent])
      .when({ userId: 5, permissions: ['approve-claims'] })
      .then([]);
    user
      .given([registered, granted, revoked])
      .when({ userId: 5, permissions: ['create-expenses'] })
      .then([
        {
          type: 'identity.PermissionsGranted',
          data: {
            userId: 5,
            organisationId: 1,
            granted: ['create-expenses'],
            permissions: ['approve-claims', 'create-expenses'],
          },
        },
      ]);
  });

  it('given any user, when a name outside the documented list is granted, then it is refused naming it and nothing is granted', () => {
    const err = user
      .given([registered])
      .when({ userId: 5, permissions: ['approve-claims', 'fly'] })
      .thenThrows(ValidationError, { permissions: ['"fly" is not a permission.'] });
    expect(err.message).toMatch(/^Unknown permission "fly"; the permissions are: manage-organisation, /);
  });

  it('given any user, when no permission is named, then it is refused', () => {
    user.given([registered]).when({ userId: 5, permissions: [] }).thenThrows(ValidationError, ['permissions']);
  });

  it('given no user, when granting, then it is not found', () => {
    user
      .given([])
      .when({ userId: 5, permissions: ['approve-claims'] })
      .thenThrows(NotFoundError, 'User not found');
  });
});

describe('users:revoke', () => {
  const user = testDecider({ evolve, decide: decideRevoke });
  const twoHeld: DirectoryEvent[] = [
    registered,
    {
      type: 'identity.PermissionsGranted',
      data: {
        userId: 5,
        organisationId: 1,
        granted: ['approve-claims'],
        permissions: ['create-expenses', 'approve-claims'],
      },
    },
  ];

  it('given a user with two permissions, when one is revoked, then the other remains', () => {
    user
      .given(twoHeld)
      .when({ userId: 5, permissions: ['create-expenses'] })
      .then([
        {
          type: 'identity.PermissionsRevoked',
          data: { userId: 5, organisationId: 1, revoked: ['create-expenses'], permissions: ['approve-claims'] },
        },
      ]);
  });

  it('given a user without the permission, when it is revoked, then nothing changes', () => {
    user
      .given([registered])
      .when({ userId: 5, permissions: ['manage-rotas'] })
      .then([]);
  });

  it('given any user, when an unknown name is revoked, then it is refused', () => {
    user
      .given(twoHeld)
      .when({ userId: 5, permissions: ['create-expenses', 'root'] })
      .thenThrows(ValidationError, ['permissions']);
  });

  it('given no user, when revoking, then it is not found', () => {
    user
      .given([])
      .when({ userId: 5, permissions: ['create-expenses'] })
      .thenThrows(NotFoundError);
  });
});

describe('users:hold and users:release', () => {
  const hold = testDecider({ evolve, decide: decideHold });
  const release = testDecider({ evolve, decide: decideRelease });

  it('given an active user, when held, then they are on hold', () => {
    hold.given([registered]).when({ userId: 5 }).then([held]);
  });

  it('given a held user, when held again, then nothing changes', () => {
    hold.given([registered, held]).when({ userId: 5 }).then([]);
  });

  it('given a user provisioned on hold (status on_hold), when held, then nothing changes', () => {
    hold.given([registeredOnHold]).when({ userId: 5 }).then([]);
  });

  it('given a user provisioned on hold, when released, then they are active', () => {
    release.given([registeredOnHold]).when({ userId: 5 }).then([released]);
  });

  it('given a held user, when released, then they are released; held again after a release, they are held again', () => {
    release.given([registered, held]).when({ userId: 5 }).then([released]);
    hold.given([registered, held, released]).when({ userId: 5 }).then([held]);
  });

  it('given an active user (never held, or released already), when released, then nothing changes', () => {
    release.given([registered]).when({ userId: 5 }).then([]);
    release.given([registered, held, released]).when({ userId: 5 }).then([]);
  });

  it('given no user, when held or released, then it is not found', () => {
    hold.given([]).when({ userId: 5 }).thenThrows(NotFoundError);
    release.given([]).when({ userId: 5 }).thenThrows(NotFoundError);
  });
});
