import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Actor, EventStore, type StoredEvent } from '#app/event-store';

/*
 * STAND-IN (helper "retention", privacy contract §3): the real command, with everything an
 * anonymisation does (docs/privacy.md#anonymising-a-user), is the "anonymise" helper's, at this
 * same path with this same signature; the coordinator keeps that one. This one only appends
 * identity.UserAnonymised to each user's identity stream (identity's projection then sets
 * users.anonymised_at), so the retention sweep has something to call.
 */

export type AnonymiseRequester = 'self' | 'manager' | 'operator' | 'retention';

export interface AnonymiseUsers {
  readonly userIds: number[];
  readonly requestedBy: AnonymiseRequester;
  readonly actor: Actor;
  readonly at?: Date;
}

export class AnonymiseUsersCommand extends Command<{ id: number; anonymised_at: string }[]> {
  constructor(readonly input: AnonymiseUsers) {
    super();
  }
}

interface AnonymisableUser {
  readonly organisationId: number;
  readonly anonymised: boolean;
}

type UserEvent =
  | { type: 'identity.UserRegistered'; data: { organisationId: number } }
  | { type: 'identity.UserAnonymised'; data: { organisationId: number } };

function evolve(state: AnonymisableUser | null, event: StoredEvent): AnonymisableUser | null {
  const e = event as unknown as UserEvent;
  if (e.type === 'identity.UserRegistered') return { organisationId: e.data.organisationId, anonymised: false };
  if (e.type === 'identity.UserAnonymised') return state && { ...state, anonymised: true };
  return state;
}

/** The user's own identity stream (identity's `streamOf.user`, which identity does not export). */
const userStream = (id: number) => `identity.User-${id}`;

@CommandHandler(AnonymiseUsersCommand)
export class AnonymiseUsersHandler implements ICommandHandler<AnonymiseUsersCommand> {
  constructor(private readonly store: EventStore) {}

  async execute({ input }: AnonymiseUsersCommand): Promise<{ id: number; anonymised_at: string }[]> {
    const anonymisedAt = (input.at ?? new Date()).toISOString();
    const done: { id: number; anonymised_at: string }[] = [];
    for (const userId of [...new Set(input.userIds)]) {
      const { events } = await this.store.handle(
        userStream(userId),
        evolve,
        (user) =>
          !user || user.anonymised
            ? []
            : [
                {
                  type: 'identity.UserAnonymised',
                  data: { userId, organisationId: user.organisationId, requestedBy: input.requestedBy, anonymisedAt },
                },
              ],
        { metadata: { actor: input.actor } },
      );
      if (events.length > 0) done.push({ id: userId, anonymised_at: anonymisedAt });
    }
    return done;
  }
}
