import { Injectable } from '@nestjs/common';
import { PreparedStatements, tenantScope, tenantSql, type Tenant } from '#app/platform';

/** An organisation as system work that walks every organisation sees it (the retention sweep). */
export interface OrganisationSummary {
  readonly id: number;
  readonly slug: string;
  readonly name: string;
  readonly timezone: string;
}

/** A user's account as system work needs it: where to write, and whether anonymised (privacy contract §4). */
export interface UserAccount {
  readonly id: number;
  readonly email: string;
  readonly displayName: string;
  readonly anonymised: boolean;
}

/** Reads for work that acts for no caller (the retention sweep): organisations, and users by id. */
@Injectable()
export class UserAccounts {
  constructor(private readonly prepared: PreparedStatements) {}

  /** Every organisation, or the one with `slug` (none: empty), by id. */
  async organisations(slug?: string): Promise<OrganisationSummary[]> {
    const rows: { id: string; slug: string; name: string; timezone: string }[] = await this.prepared.query(
      `SELECT id, slug, name, timezone FROM organisations WHERE $1::text IS NULL OR slug = $1 ORDER BY id`,
      [slug ?? null],
    );
    return rows.map((r) => ({ id: Number(r.id), slug: r.slug, name: r.name, timezone: r.timezone }));
  }

  /** The accounts of `ids` in the tenant's organisation (others are absent), keyed by id. */
  async of(tenant: Tenant, ids: readonly number[]): Promise<Map<number, UserAccount>> {
    if (ids.length === 0) return new Map();
    const q = tenantSql(tenant)`SELECT u.id, u.email, u.display_name, u.anonymised_at IS NOT NULL AS anonymised
        FROM users u WHERE ${tenantScope('u')} AND u.id = ANY(${ids}::bigint[])`;
    const rows: { id: string; email: string; display_name: string; anonymised: boolean }[] = await this.prepared.query(
      q.text,
      q.values,
    );
    return new Map(
      rows.map((r) => [
        Number(r.id),
        { id: Number(r.id), email: r.email, displayName: r.display_name, anonymised: r.anonymised },
      ]),
    );
  }
}
