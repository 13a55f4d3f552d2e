/**
 * identity.UserAnonymised, declared here by its type (docs/contexts.md: another context's event;
 * its shape is the privacy contract's). It holds no personal data.
 */
export type UserAnonymised = {
  type: 'identity.UserAnonymised';
  data: {
    userId: number;
    organisationId: number;
    requestedBy: 'self' | 'manager' | 'operator' | 'retention';
    anonymisedAt: string;
  };
};
