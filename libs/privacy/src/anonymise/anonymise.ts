import type { AnonymisationRequester, DirectoryEvent, UserState } from '#app/identity';
import { NotFoundError } from '#app/platform';

/** Anonymising one user (docs/privacy.md#anonymising-a-user). */
export interface AnonymiseUser {
  readonly userId: number;
  readonly requestedBy: AnonymisationRequester;
  readonly at: Date;
}

/**
 * The user's stream decides: an unknown user is a 404; a user anonymised already has nothing left
 * to anonymise (no event: the caller skips them, or answers 409); otherwise one
 * identity.UserAnonymised, with who asked and when and nothing personal.
 */
export function decideAnonymise(user: UserState | null, cmd: AnonymiseUser): DirectoryEvent[] {
  if (!user || user.id !== cmd.userId) throw new NotFoundError('User');
  if (user.anonymised) return [];
  return [
    {
      type: 'identity.UserAnonymised',
      data: {
        userId: user.id,
        organisationId: user.organisationId,
        requestedBy: cmd.requestedBy,
        anonymisedAt: cmd.at.toISOString(),
      },
    },
  ];
}
