import type { Actor, Planning, StoredEvent, StreamEvents, StreamRead, WriteQuery } from '#app/event-store';
import {
  type AnonymisationRequester,
  type AnonymisationSubject,
  evolveUser,
  identityGateOf,
  identityStreamOf,
  type UserState,
} from '#app/identity';
import type { UserShiftsEndPlan } from '#app/rotas';
import { decideAnonymise } from './anonymise.js';

/** What each anonymised user's answer says (users already anonymised are skipped and not listed). */
export interface AnonymisedUser {
  readonly id: number;
  readonly anonymised_at: string;
}

/** The users of one organisation to anonymise, and who asks; `at` only when the caller fixes the instant. */
export interface Anonymisation {
  readonly organisationId: number;
  readonly users: readonly AnonymisationSubject[];
  readonly requestedBy: AnonymisationRequester;
  readonly actor: Actor;
  readonly at?: Date;
}

/** The reads and the key destruction the write runs in its transaction, after its gates. */
export interface AnonymiseReads {
  destroyKeys(userIds: readonly number[], db: WriteQuery): Promise<unknown>;
  shiftsPlan(users: { userId: number; organisationId: number }[], at: Date, db: WriteQuery): Promise<UserShiftsEndPlan>;
  attachmentRemovals(userIds: readonly number[], db: WriteQuery): Promise<StreamEvents[]>;
}

/**
 * docs/privacy.md#anonymising-a-user, one write per organisation: every user's stream
 * (identity.UserAnonymised), the shifts of theirs that have not started (cancelled) and their series
 * (ended that day), and the attachments of their expenses (removed), appended together with every
 * context's inline projection of them, so all of it is in the read tables when the command answers.
 * Each user's identity gate is advanced first and the plan read after it (in the facts step), so a
 * booking racing it is either cancelled or refused. A shift or series that moved meanwhile makes the
 * store plan the write again. The instant is the caller's `at`, else the store's.
 */
export function anonymiseUsersWrite(a: Anonymisation, reads: AnonymiseReads) {
  const userIds = a.users.map((u) => u.id);
  return {
    plan: async ({ now }: Planning) => a.at?.getTime() ?? now,
    // A booking holding a gate has committed (the plan sees its shift) or waits, then finds the user anonymised.
    gates: () => ({ advance: userIds.map(identityGateOf.user) }),
    // Their keys go in this transaction: from its commit nothing opens their sealed fields
    // (docs/privacy.md#sealed-fields-in-the-log). Rolled back with the write if it is planned again.
    facts: async (db: WriteQuery, at: number) => {
      await reads.destroyKeys(userIds, db);
      // One after the other: one connection, the write's.
      const users = a.users.map((u) => ({ userId: u.id, organisationId: a.organisationId }));
      const shiftsPlan = await reads.shiftsPlan(users, new Date(at), db);
      const attachments = await reads.attachmentRemovals(userIds, db);
      return { shiftsPlan, attachments };
    },
    streams: (
      _at: number,
      { shiftsPlan, attachments }: { shiftsPlan: UserShiftsEndPlan; attachments: StreamEvents[] },
    ) => {
      const userStreams: Record<string, StreamRead<UserState, never>> = Object.fromEntries(
        userIds.map((id) => [`user-${id}`, { streamId: identityStreamOf.user(id), evolve: evolveUser as never }]),
      );
      const expenseStreams: Record<string, StreamRead> = Object.fromEntries(
        attachments.map((e) => [`expense-${e.streamId}`, { streamId: e.streamId, expect: 'any' as const }]),
      );
      return { ...userStreams, ...shiftsPlan.streams, ...expenseStreams };
    },
    decide: (
      states: Readonly<Record<string, unknown>>,
      {
        plan: at,
        facts: { shiftsPlan, attachments },
      }: { plan: number; facts: { shiftsPlan: UserShiftsEndPlan; attachments: StreamEvents[] } },
    ): StreamEvents[] => {
      const anonymised: StreamEvents[] = [];
      for (const id of userIds) {
        const events = decideAnonymise(states[`user-${id}`] as UserState | null, {
          userId: id,
          requestedBy: a.requestedBy,
          at: new Date(at),
        });
        if (events.length) anonymised.push({ streamId: identityStreamOf.user(id), events });
      }
      // Anonymised meanwhile by another request: nothing else to do for them.
      if (anonymised.length === 0) return [];
      return [...anonymised, ...shiftsPlan.decide(states, at), ...attachments];
    },
    metadata: { organisationId: a.organisationId, actor: a.actor },
  };
}

/** The answer of each user the write anonymised, from its events. */
export const anonymisedIn = (events: readonly StoredEvent[]): AnonymisedUser[] =>
  events
    .filter((e) => e.type === 'identity.UserAnonymised')
    .map((e) => {
      const d = e.data as { userId: number; anonymisedAt: string };
      return { id: d.userId, anonymised_at: d.anonymisedAt };
    });
