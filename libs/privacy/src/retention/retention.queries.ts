import { Injectable } from '@nestjs/common';
import { PreparedStatements, tenantScope, tenantSql, type Tenant } from '#app/platform';
import type { UserActivity } from './due-date.js';

const at = (v: string | Date | null) => (v === null ? null : new Date(v));

/** The retention read model (last-activity.projection.ts), one organisation at a time. */
@Injectable()
export class RetentionQueries {
  constructor(private readonly prepared: PreparedStatements) {}

  /** Every user of the organisation the read model knows, with their activities and last shift end. */
  async activities(tenant: Tenant): Promise<UserActivity[]> {
    const q = tenantSql(tenant)`
      SELECT a.user_id, a.registered_at, a.last_login_at, a.last_finance_change_at, s.last_end
        FROM retention_activity a
        LEFT JOIN LATERAL (SELECT max(s.ends_at) AS last_end FROM retention_shifts s WHERE s.user_id = a.user_id) s ON true
       WHERE ${tenantScope('a')}
       ORDER BY a.user_id`;
    const rows: {
      user_id: string;
      registered_at: string | Date | null;
      last_login_at: string | Date | null;
      last_finance_change_at: string | Date | null;
      last_end: string | Date | null;
    }[] = await this.prepared.query(q.text, q.values);
    return rows.map((r) => ({
      userId: Number(r.user_id),
      registeredAt: at(r.registered_at),
      lastLoginAt: at(r.last_login_at),
      lastFinanceChangeAt: at(r.last_finance_change_at),
      lastShiftEndAt: at(r.last_end),
    }));
  }
}
