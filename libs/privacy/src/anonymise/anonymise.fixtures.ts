import type { DirectoryEvent } from '#app/identity';

/** A registered user (5 of organisation 1), for the anonymisation specs. */
export const registered: DirectoryEvent = {
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
    permissions: [],
  },
};
