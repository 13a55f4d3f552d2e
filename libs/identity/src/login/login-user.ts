import type { EntityManager } from 'typeorm';
import type { TwoFactorMethod } from '../permissions.js';

export interface LoginUser {
  readonly id: number;
  readonly organisationId: number;
  readonly organisationSlug: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly displayName: string;
  readonly title: string | null;
  readonly phone: string | null;
  readonly twoFactor: TwoFactorMethod | null;
  readonly totpSecret: string | null;
}

const COLUMNS = `u.id, u.organisation_id, o.slug, u.email, u.password_hash, u.display_name, u.title, u.phone, u.two_factor, u.totp_secret`;

type Row = {
  id: string;
  organisation_id: string;
  slug: string;
  email: string;
  password_hash: string;
  display_name: string;
  title: string | null;
  phone: string | null;
  two_factor: TwoFactorMethod | null;
  totp_secret: string | null;
};

function toUser(r: Row): LoginUser {
  return {
    id: Number(r.id),
    organisationId: Number(r.organisation_id),
    organisationSlug: r.slug,
    email: r.email,
    passwordHash: r.password_hash,
    displayName: r.display_name,
    title: r.title,
    phone: r.phone,
    twoFactor: r.two_factor,
    totpSecret: r.totp_secret,
  };
}

/** Log-in knows only an e-mail address; the organisation follows from the user. */
export async function userByEmail(db: Pick<EntityManager, 'query'>, email: string): Promise<LoginUser | null> {
  const [row] = await db.query(
    `SELECT ${COLUMNS} FROM users u JOIN organisations o ON o.id = u.organisation_id WHERE lower(u.email) = lower($1) AND u.anonymised_at IS NULL`,
    [email],
  );
  return row ? toUser(row) : null;
}

/** An anonymised user is nobody to log in as (docs/privacy.md#anonymising-a-user): null, as for an unknown id. */
export async function userById(db: Pick<EntityManager, 'query'>, id: number): Promise<LoginUser | null> {
  const [row] = await db.query(
    `SELECT ${COLUMNS} FROM users u JOIN organisations o ON o.id = u.organisation_id WHERE u.id = $1 AND u.anonymised_at IS NULL`,
    [id],
  );
  return row ? toUser(row) : null;
}
