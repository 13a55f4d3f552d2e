import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { type Actor, EventStore, PersonalDataKeys, type StreamEvents, type StreamRead } from '#app/event-store';
import { ExpenseRecords } from '#app/expenses';
import {
  type AnonymisationRequester,
  type AnonymisationSubject,
  evolveUser,
  identityGateOf,
  identityStreamOf,
  type UserState,
  usersNamed,
} from '#app/identity';
import { NotFoundError } from '#app/platform';
import { AnonymisedUserShifts } from '#app/rotas';
import { decideAnonymise } from './anonymise.js';

export interface AnonymiseUsersRequest {
  readonly userIds: number[];
  readonly requestedBy: AnonymisationRequester;
  readonly actor: Actor;
  readonly at?: Date;
}

/** What each anonymised user's answer says (users already anonymised are skipped and not listed). */
export interface AnonymisedUser {
  readonly id: number;
  readonly anonymised_at: string;
}

/**
 * docs/privacy.md#anonymising-a-user: anonymises the users, for good. Who may ask is the caller's
 * business (the routes, the CLI, the retention sweep); an unknown id is a 404 and nobody is anonymised.
 */
export class AnonymiseUsersCommand extends Command<AnonymisedUser[]> {
  constructor(readonly request: AnonymiseUsersRequest) {
    super();
  }
}

/**
 * One write per organisation: every user's stream (identity.UserAnonymised), the shifts of theirs
 * that have not started (cancelled) and their series (ended that day), and the attachments of their
 * expenses (removed), appended together with every context's inline projection of them, so all of
 * it is in the read tables when the command answers. Each user's identity gate is advanced first and
 * the plan read after it, so a booking racing it is either cancelled or refused. A shift or series
 * that moved meanwhile makes the store plan the write again.
 */
@CommandHandler(AnonymiseUsersCommand)
export class AnonymiseUsersHandler implements ICommandHandler<AnonymiseUsersCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly shifts: AnonymisedUserShifts,
    private readonly expenses: ExpenseRecords,
    private readonly keys: PersonalDataKeys,
  ) {}

  async execute({ request }: AnonymiseUsersCommand): Promise<AnonymisedUser[]> {
    const at = request.at ?? new Date();
    const ids = [...new Set(request.userIds)];
    const found = await usersNamed(this.dataSource, ids.map(String));
    const subjects = ids.map((id) => found.get(String(id)) ?? null);
    if (subjects.some((s) => s === null)) throw new NotFoundError('User');
    const byOrganisation = new Map<number, AnonymisationSubject[]>();
    for (const s of subjects as AnonymisationSubject[])
      if (s.anonymisedAt === null)
        byOrganisation.set(s.organisationId, [...(byOrganisation.get(s.organisationId) ?? []), s]);
    const out: AnonymisedUser[] = [];
    for (const [organisationId, users] of byOrganisation)
      out.push(...(await this.anonymise(organisationId, users, request, at)));
    return out.sort((a, b) => a.id - b.id);
  }

  private async anonymise(
    organisationId: number,
    users: readonly AnonymisationSubject[],
    request: AnonymiseUsersRequest,
    at: Date,
  ): Promise<AnonymisedUser[]> {
    const userIds = users.map((u) => u.id);
    // Each user's identity gate advanced first: a booking holding it has committed (the plan below
    // sees its shift) or waits, and then finds the user anonymised (docs/privacy.md#anonymising-a-user).
    // The plan is read after the gates, in the facts step.
    const written = await this.store.write({
      gates: () => ({ advance: userIds.map(identityGateOf.user) }),
      // Inside the write's transaction, after the gates, before the append.
      // Their keys go in this transaction: from its commit nothing opens their sealed fields
      // (docs/privacy.md#sealed-fields-in-the-log). Rolled back with the write if it is planned again.
      facts: async (db) => {
        await this.keys.destroy(userIds, db);
        // One after the other: one connection, the write's.
        const shiftsPlan = await this.shifts.plan(
          users.map((u) => ({ userId: u.id, organisationId })),
          at,
          db,
        );
        const attachments = await this.expenses.attachmentRemovals(userIds, db);
        return { shiftsPlan, attachments };
      },
      streams: (_plan, { shiftsPlan, attachments }) => {
        const userStreams: Record<string, StreamRead<UserState, never>> = Object.fromEntries(
          userIds.map((id) => [`user-${id}`, { streamId: identityStreamOf.user(id), evolve: evolveUser as never }]),
        );
        const expenseStreams: Record<string, StreamRead> = Object.fromEntries(
          attachments.map((a) => [`expense-${a.streamId}`, { streamId: a.streamId, expect: 'any' as const }]),
        );
        return { ...userStreams, ...shiftsPlan.streams, ...expenseStreams };
      },
      decide: (states: Readonly<Record<string, unknown>>, { facts: { shiftsPlan, attachments } }): StreamEvents[] => {
        const anonymised: StreamEvents[] = [];
        for (const id of userIds) {
          const events = decideAnonymise(states[`user-${id}`] as UserState | null, {
            userId: id,
            requestedBy: request.requestedBy,
            at,
          });
          if (events.length) anonymised.push({ streamId: identityStreamOf.user(id), events });
        }
        // Anonymised meanwhile by another request: nothing else to do for them.
        if (anonymised.length === 0) return [];
        return [...anonymised, ...shiftsPlan.decide(states, at.getTime()), ...attachments];
      },
      metadata: { organisationId, actor: request.actor },
    });
    return written.events
      .filter((e) => e.type === 'identity.UserAnonymised')
      .map((e) => {
        const d = e.data as { userId: number; anonymisedAt: string };
        return { id: d.userId, anonymised_at: d.anonymisedAt };
      });
  }
}
