import type { DataSource } from 'typeorm';
import { type EventMetadata, systemActor } from '#app/event-store';
import { DomainError } from '#app/platform';
import type { Permission } from '../permissions.js';
import type { UserState } from './user.js';

/**
 * The metadata of what an administrator's command line appends: the organisation, and the system as
 * actor with the command as its reason (`cli users:hold`), for whoever reads the history.
 */
export function adminMetadata(organisationId: number, command: string): EventMetadata {
  return { organisationId, actor: systemActor(`cli ${command}`) };
}

/** The user an administrator names by e-mail address (unique service-wide: log-in finds the organisation from it). */
export interface AdminTarget {
  readonly id: number;
  readonly organisationId: number;
  readonly organisationSlug: string;
  readonly email: string;
}

export class UnknownUser extends DomainError {
  constructor(email: string) {
    super('not_found', `No user has the e-mail address ${email}.`);
  }
}

export class UnknownOrganisation extends DomainError {
  constructor(slug: string) {
    super('not_found', `No organisation has the slug "${slug}".`);
  }
}

export async function adminTarget(db: DataSource, email: string): Promise<AdminTarget> {
  const [row] = await db.query(
    `SELECT u.id, u.organisation_id, o.slug, u.email FROM users u JOIN organisations o ON o.id = u.organisation_id WHERE lower(u.email) = lower($1)`,
    [email.trim()],
  );
  if (!row) throw new UnknownUser(email.trim());
  return {
    id: Number(row.id),
    organisationId: Number(row.organisation_id),
    organisationSlug: row.slug,
    email: row.email,
  };
}

/** What `users:grant`, `users:revoke`, `users:hold` and `users:release` answer: the user as the command left them. */
export interface UserAccess {
  readonly id: number;
  readonly email: string;
  readonly organisation: string;
  readonly permissions: readonly Permission[];
  readonly held: boolean;
  /** False when the command found nothing to do (and appended nothing). */
  readonly changed: boolean;
}

export function accessOf(target: AdminTarget, state: UserState, changed: boolean): UserAccess {
  return {
    id: target.id,
    email: target.email,
    organisation: target.organisationSlug,
    permissions: state.permissions,
    held: state.held,
    changed,
  };
}

/** Ids drawn from the identity context's sequences before the write. */
export async function drawIds(
  db: DataSource,
  kind: 'organisation' | 'team' | 'role_profile' | 'activity_category' | 'user' | 'role',
  count: number,
): Promise<number[]> {
  if (count === 0) return [];
  const rows: { id: string }[] = await db.query(
    `SELECT nextval('identity_${kind}_ids') AS id FROM generate_series(1, $1)`,
    [count],
  );
  return rows.map((r) => Number(r.id));
}

/** Which of these addresses (lower case) belong to users already. */
export async function takenEmails(db: DataSource, emails: readonly string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows: { email: string }[] = await db.query(
    `SELECT lower(email) AS email FROM users WHERE lower(email) = ANY($1::text[])`,
    [emails],
  );
  return new Set(rows.map((r) => r.email));
}

/**
 * An address checked free and then taken by another writer before the append: the users table's
 * unique index refuses the whole append, which is reported as the file's problem it now is.
 */
export function refuseTakenEmailRace(refuse: (problems: string[]) => Error): (err: unknown) => never {
  return (err) => {
    const e = ((err as { driverError?: unknown } | null)?.driverError ?? err) as {
      code?: string;
      constraint?: string;
      detail?: string;
    } | null;
    if (e?.code !== '23505' || e.constraint !== 'users_email') throw err;
    const email = /=\((.*)\) already exists/.exec(e.detail ?? '')?.[1];
    throw refuse([
      `users: ${email ?? 'an e-mail address'} was taken by another user while the file was being written; nothing was written`,
    ]);
  };
}

/** The ids among `ids` that are rows of `table` in the organisation. */
export async function organisationIdsAmong(
  db: DataSource,
  table: 'teams' | 'role_profiles',
  organisationId: number,
  ids: readonly number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows: { id: string }[] = await db.query(
    `SELECT id FROM ${table} WHERE organisation_id = $1 AND id = ANY($2::bigint[])`,
    [organisationId, ids],
  );
  return new Set(rows.map((r) => Number(r.id)));
}
