import { Injectable } from '@nestjs/common';
import type { ClaimView, ExpenseView } from '#app/expenses';
import { ExpenseRecords } from '#app/expenses';
import { FileRecords } from '#app/files';
import { type Caller, Hierarchy, type IdentityPersonalData, PersonalDataOfUsers, UserBases } from '#app/identity';
import { ForbiddenError, NotFoundError } from '#app/platform';
import { type PersonalShiftView, RotaRecords } from '#app/rotas';
import { peopleById } from './people-by-id.js';

/** The permission that reads another user's export (docs/api.md, permissions). */
export const MANAGE_DATA_PROTECTION = 'manage-data-protection' as const;

/** `GET /api/users/{id}/personal-data`'s `data` (docs/privacy.md#access-and-portability). */
export interface PersonalData {
  user: IdentityPersonalData['user'];
  roles: IdentityPersonalData['roles'];
  shifts: PersonalShiftView[];
  expenses: ExpenseView[];
  claims: ClaimView[];
  files: { id: number; name: string; size: number; created_at: string }[];
  logins: IdentityPersonalData['logins'];
  calendar_feeds: { created_at: string }[];
  generated_at: string;
}

/**
 * Everything the service holds about one user, composed from each context's own query (identity,
 * rotas, expenses, files: none reads another's tables). The records are the routes' renderings;
 * other people in them appear by id only, and no secret is read (password hash, two-factor
 * secret, feed token). An anonymised user's answer holds what their read tables kept.
 */
@Injectable()
export class PersonalDataExport {
  constructor(
    private readonly identity: PersonalDataOfUsers,
    private readonly rotas: RotaRecords,
    private readonly expenses: ExpenseRecords,
    private readonly files: FileRecords,
    private readonly hierarchy: Hierarchy,
    private readonly users: UserBases,
  ) {}

  /**
   * The caller's own data, or that of a user the caller manages through manage-data-protection (a
   * role in a team the caller's permission reaches). Another user of the organisation: 403; an
   * unknown user or another organisation's: 404 (docs/http-conventions.md#tenancy).
   */
  async forCaller(caller: Caller, userId: number): Promise<PersonalData> {
    if (userId !== caller.userId && !(await this.hierarchy.canManage(caller, userId, MANAGE_DATA_PROTECTION))) {
      if (!(await this.users.of(caller, [userId], 'any')).has(userId)) throw new NotFoundError('User');
      throw new ForbiddenError(
        'Only the user and holders of manage-data-protection over them may read their personal data.',
      );
    }
    const data = await this.of(caller.organisationId, userId);
    if (!data) throw new NotFoundError('User');
    return data;
  }

  /** The user's data in the organisation, or null when it has no such user (the CLI's `users:export`). */
  async of(organisationId: number, userId: number, now = new Date()): Promise<PersonalData | null> {
    const own = await this.identity.of({ organisationId }, userId);
    if (!own) return null;
    const rotas = await this.rotas.personalData(organisationId, userId);
    const finance = await this.expenses.personalData(organisationId, userId);
    const files = await this.files.ownedBy({ organisationId }, userId);
    return peopleById(
      {
        user: own.user,
        roles: own.roles,
        shifts: rotas.shifts,
        expenses: finance.expenses,
        claims: finance.claims,
        files,
        logins: own.logins,
        calendar_feeds: rotas.calendar_feeds,
        generated_at: now.toISOString(),
      },
      userId,
    );
  }
}
