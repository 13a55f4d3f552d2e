import { Injectable } from '@nestjs/common';
import { todayIn, PreparedStatements } from '#app/platform';
import type { Caller } from '../auth/caller.js';

/** What other contexts need of an organisation that provisioning fixed: its zone and features. */
export interface OrganisationFacts {
  readonly timezone: string;
  readonly features: ReadonlySet<string>;
  /** Today's date in the organisation's zone ("today" for every rota rule). */
  readonly today: string;
}

/** Something to query with: a pooled connection, or a write's own query (WriteQuery). */
export type Queries = { query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]> };

@Injectable()
export class OrganisationFactsReader {
  constructor(private readonly prepared: PreparedStatements) {}

  /**
   * `db`: a write's own query, inside its transaction (else a pooled connection). A caller whose
   * log-in check read its organisation (Caller.standing) is answered without a query: the zone and
   * features are provisioning's, fixed for the request.
   */
  async of(
    tenant: Pick<Caller, 'organisationId'> & { readonly standing?: Caller['standing'] },
    db: Queries = this.prepared,
  ): Promise<OrganisationFacts> {
    const known = tenant.standing;
    if (known) return { timezone: known.timezone, features: new Set(known.features), today: todayIn(known.timezone) };
    const rows: { timezone: string; features: string[] }[] = await db.query(
      `SELECT timezone, features FROM organisations WHERE id = $1`,
      [tenant.organisationId],
    );
    const row = rows[0];
    if (!row) throw new Error(`organisation ${tenant.organisationId} is not provisioned`);
    return { timezone: row.timezone, features: new Set(row.features), today: todayIn(row.timezone) };
  }

  /** Whether any organisation is provisioned (a start on an empty database says how to provision one). */
  async anyProvisioned(): Promise<boolean> {
    const rows: { any: boolean }[] = await this.prepared.query(
      `SELECT EXISTS (SELECT 1 FROM organisations) AS any`,
      [],
    );
    return rows[0]?.any === true;
  }
}
