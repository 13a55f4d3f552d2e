import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { type Actor, EventStore, PersonalDataKeys } from '#app/event-store';
import { ExpenseRecords } from '#app/expenses';
import { type AnonymisationRequester, type AnonymisationSubject, usersNamed } from '#app/identity';
import { NotFoundError } from '#app/platform';
import { AnonymisedUserShifts } from '#app/rotas';
import {
  type AnonymisedUser,
  anonymisedIn,
  type AnonymiseReads,
  anonymiseUsersWrite,
} from './anonymise-users.write.js';

export type { AnonymisedUser } from './anonymise-users.write.js';

export interface AnonymiseUsersRequest {
  readonly userIds: number[];
  readonly requestedBy: AnonymisationRequester;
  readonly actor: Actor;
  readonly at?: Date;
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

/** The users looked up (unknown: 404), then one write per organisation (anonymiseUsersWrite). */
@CommandHandler(AnonymiseUsersCommand)
export class AnonymiseUsersHandler implements ICommandHandler<AnonymiseUsersCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly shifts: AnonymisedUserShifts,
    private readonly expenses: ExpenseRecords,
    private readonly keys: PersonalDataKeys,
  ) {}

  async execute({ request: { userIds, requestedBy, actor, at } }: AnonymiseUsersCommand): Promise<AnonymisedUser[]> {
    const ids = [...new Set(userIds)];
    const found = await usersNamed(this.dataSource, ids.map(String));
    const subjects = ids.map((id) => found.get(String(id)) ?? null);
    if (subjects.some((s) => s === null)) throw new NotFoundError('User');
    const byOrganisation = new Map<number, AnonymisationSubject[]>();
    for (const s of subjects as AnonymisationSubject[])
      if (s.anonymisedAt === null)
        byOrganisation.set(s.organisationId, [...(byOrganisation.get(s.organisationId) ?? []), s]);
    const reads: AnonymiseReads = {
      destroyKeys: (ids, db) => this.keys.destroy(ids, db),
      shiftsPlan: (users, at, db) => this.shifts.plan(users, at, db),
      attachmentRemovals: (ids, db) => this.expenses.attachmentRemovals(ids, db),
    };
    const out: AnonymisedUser[] = [];
    for (const [organisationId, users] of byOrganisation) {
      const write = anonymiseUsersWrite({ organisationId, users, requestedBy, actor, at }, reads);
      out.push(...anonymisedIn((await this.store.write(write)).events));
    }
    return out.sort((a, b) => a.id - b.id);
  }
}
