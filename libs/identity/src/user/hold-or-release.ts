import type { DataSource } from 'typeorm';
import type { EventStore } from '#app/event-store';
import { type DirectoryEvent, streamOf } from '../directory/directory.events.js';
import { accessOf, adminMetadata, adminTarget, type UserAccess } from './admin.js';
import { decideHold, decideRelease, evolve } from './user.js';

/** What `users:hold` and `users:release` answer: the user as the command left them (`held`: status on_hold). */
export type HoldResult = UserAccess;

/** The user's stream, decided and appended at the version read; nothing to do appends nothing. */
export async function holdOrRelease(
  store: EventStore,
  db: DataSource,
  email: string,
  command: 'users:hold' | 'users:release',
): Promise<HoldResult> {
  const target = await adminTarget(db, email);
  let events: DirectoryEvent[] = [];
  const decide = command === 'users:hold' ? decideHold : decideRelease;
  const { state } = await store.handle(
    streamOf.user(target.id),
    evolve,
    (user) => (events = decide(user, { userId: target.id })),
    {
      metadata: adminMetadata(target.organisationId, command),
    },
  );
  const after = events.reduce(evolve, state)!;
  return accessOf(target, after, events.length > 0);
}
