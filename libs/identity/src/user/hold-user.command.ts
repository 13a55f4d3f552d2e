import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore, type StreamEvents } from '#app/event-store';
import { type DirectoryEvent, streamOf } from '../directory/directory.events.js';
import { loginStreamOf } from '../login/login.events.js';
import { decideEndForHold, evolve as evolveSession, type SessionState } from '../login/session.js';
import { accessOf, adminMetadata, adminTarget, type UserAccess } from './admin.js';
import { decideHold, decideRelease, evolve, type UserState } from './user.js';

/** What `users:hold` and `users:release` answer: the user, and how many of their log-ins ended. */
export interface HoldResult extends UserAccess {
  readonly sessions_ended: number;
}

/**
 * `users:hold <email>`: the user can no longer log in, refresh or use a token (the log-in routes
 * and the JWT check read the hold), and every log-in they have ends, so releasing them later does
 * not bring old tokens back. Holding a held user changes nothing.
 */
export class HoldUserCommand extends Command<HoldResult> {
  constructor(readonly email: string) {
    super();
  }
}

@CommandHandler(HoldUserCommand)
export class HoldUserHandler implements ICommandHandler<HoldUserCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
  ) {}

  execute(cmd: HoldUserCommand): Promise<HoldResult> {
    return holdOrRelease(this.store, this.dataSource, cmd.email, 'users:hold');
  }
}

/**
 * The user's stream and the streams of their live log-ins, decided together and appended at the
 * versions read: a log-in started or ended meanwhile makes it a lost race (409), never a half hold.
 * Holding ends every live log-in; releasing ends those that slipped in while the user was held (a
 * log-in whose password check came just before the hold), and releasing a user who is not held
 * touches nothing.
 */
export async function holdOrRelease(store: EventStore, db: DataSource, email: string, command: 'users:hold' | 'users:release'): Promise<HoldResult> {
  const target = await adminTarget(db, email);
  const live: { id: string }[] = await db.query(`SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL ORDER BY id`, [target.id]);
  const userStream = streamOf.user(target.id);
  let before: UserState | null = null;
  let userEvents: DirectoryEvent[] = [];
  let ended = 0;
  await store.handleMany(
    [{ streamId: userStream, evolve }, ...live.map((s) => ({ streamId: loginStreamOf.session(s.id), evolve: evolveSession }))],
    (states) => {
      const [user, ...sessions] = states as unknown as [UserState | null, ...(SessionState | null)[]];
      before = user;
      userEvents = command === 'users:hold' ? decideHold(user, { userId: target.id }) : decideRelease(user, { userId: target.id });
      const ending = command === 'users:hold' || userEvents.length > 0;
      const out: StreamEvents[] = [{ streamId: userStream, events: userEvents }];
      live.forEach((s, i) => {
        const events = ending ? decideEndForHold(sessions[i] ?? null) : [];
        ended += events.length > 0 ? 1 : 0;
        out.push({ streamId: loginStreamOf.session(s.id), events });
      });
      return out;
    },
    { metadata: adminMetadata(target.organisationId, command) },
  );
  const after = userEvents.reduce(evolve, before)!;
  return { ...accessOf(target, after, userEvents.length > 0 || ended > 0), sessions_ended: ended };
}
