import { personalData } from '#app/event-store';

/**
 * Identity's personal data in the log (docs/privacy.md, "Sealed fields in the log"): sealed with
 * the user's key; once it is destroyed every reader sees the placeholders. The e-mail's placeholder
 * names only the user id, so the users table's unique address index holds for anonymised users.
 */
personalData.declare<{ id: number }>('identity.UserRegistered', {
  owner: (d) => d.id,
  fields: {
    email: (d: { id: number }) => `anonymised-${d.id}@anonymised.invalid`,
    passwordHash: '',
    displayName: 'Anonymised user',
    title: '',
    phone: null,
    totpSecret: null,
  },
});

/** Where a two-factor code went (their address or phone) and the sealed code itself. */
personalData.declare<{ userId: number }>('identity.TwoFactorChallengeIssued', {
  owner: (d) => d.userId,
  fields: { destination: '', sealedKey: '' },
});

// The organisation's own records: names and settings the provisioning file gave.
personalData.organisation('identity.OrganisationProvisioned', ['name', 'slug', 'settings.*']);
personalData.organisation('identity.TeamCreated', ['name', 'description']);
personalData.organisation(['identity.RoleProfileCreated', 'identity.ActivityCategoryCreated'], ['name']);
