import type { EntityManager } from 'typeorm';

/** A user as the anonymisation finds them (docs/privacy.md#anonymising-a-user). */
export interface AnonymisationSubject {
  readonly id: number;
  readonly organisationId: number;
  /** ISO instant; null while they are not anonymised. */
  readonly anonymisedAt: string | null;
}

type Db = Pick<EntityManager, 'query'>;

const subjectOf = (r: { id: string; organisation_id: string; anonymised_at: Date | string | null }) => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  anonymisedAt: r.anonymised_at === null ? null : new Date(r.anonymised_at).toISOString(),
});

/**
 * The users an operator names, each by e-mail address (any case) or id: one entry per name, null
 * where it names nobody. An anonymised user has no address left, so only their id finds them.
 */
export async function usersNamed(db: Db, names: readonly string[]): Promise<Map<string, AnonymisationSubject | null>> {
  const ids = names.filter((n) => /^[1-9]\d{0,15}$/.test(n)).map(Number);
  const emails = names.filter((n) => !/^\d+$/.test(n)).map((n) => n.trim().toLowerCase());
  const rows: { id: string; organisation_id: string; anonymised_at: Date | null; email: string | null }[] =
    await db.query(
      `SELECT id, organisation_id, anonymised_at, lower(email) AS email FROM users
        WHERE id = ANY($1::bigint[]) OR lower(email) = ANY($2::text[])`,
      [ids, emails],
    );
  return new Map(
    names.map((name) => {
      const row = /^\d+$/.test(name)
        ? rows.find((r) => r.id === String(Number(name)) && Number.isSafeInteger(Number(name)))
        : rows.find((r) => r.email === name.trim().toLowerCase());
      return [name, row ? subjectOf(row) : null];
    }),
  );
}

/** The user `id` of the organisation, anonymised or not; null for another organisation's or nobody's id. */
export async function subjectIn(db: Db, organisationId: number, id: number): Promise<AnonymisationSubject | null> {
  const [row] = await db.query(
    `SELECT id, organisation_id, anonymised_at FROM users WHERE id = $1 AND organisation_id = $2`,
    [id, organisationId],
  );
  return row ? subjectOf(row) : null;
}

/** Every anonymised user, oldest anonymisation first (`privacy:anonymised`, kept outside the backups). */
export async function anonymisedUsers(
  db: Db,
): Promise<{ user_id: number; organisation: string; anonymised_at: string }[]> {
  const rows: { id: string; slug: string; anonymised_at: Date }[] = await db.query(
    `SELECT u.id, o.slug, u.anonymised_at FROM users u JOIN organisations o ON o.id = u.organisation_id
      WHERE u.anonymised_at IS NOT NULL ORDER BY u.anonymised_at, u.id`,
  );
  return rows.map((r) => ({
    user_id: Number(r.id),
    organisation: r.slug,
    anonymised_at: new Date(r.anonymised_at).toISOString(),
  }));
}
