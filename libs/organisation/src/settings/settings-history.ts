import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Caller, UserBases } from '#app/identity';
import { offsetOf, type PageRequest, tenantScope, tenantSql } from '#app/platform';

/** Who changed which settings when, newest first; secrets appear only as changed or cleared. */
@Injectable()
export class SettingsHistory {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserBases,
  ) {}

  async page(caller: Caller, page: PageRequest) {
    const count = tenantSql(caller)`SELECT count(*)::int AS total FROM organisation_settings_history WHERE ${tenantScope()}`;
    const [{ total }] = await this.dataSource.query(count.text, count.values);
    const q = tenantSql(caller)`SELECT position, actor_id, changed_at, fields FROM organisation_settings_history WHERE ${tenantScope()}
      ORDER BY position DESC LIMIT ${page.perPage} OFFSET ${offsetOf(page)}`;
    const rows: { position: string; actor_id: string | null; changed_at: Date; fields: Record<string, unknown> }[] = await this.dataSource.query(q.text, q.values);
    const actors = await this.users.of(caller, rows.flatMap((r) => (r.actor_id ? [Number(r.actor_id)] : [])), 'manage-organisation');
    const items = rows.map((r) => ({
      changed_at: r.changed_at.toISOString(),
      changed_by: r.actor_id ? (actors.get(Number(r.actor_id)) ?? null) : null,
      fields: r.fields,
    }));
    return { items, total };
  }
}
