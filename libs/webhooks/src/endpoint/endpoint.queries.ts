import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotFoundError, sql, type Tenant, tenantScope, tenantSql } from '#app/platform';

/** The Endpoint record (docs/webhooks.md#endpoints); never its secret. */
export interface EndpointView {
  id: number;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

const COLUMNS = sql.raw(`id, url, events, description, enabled,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at`);

type Row = Omit<EndpointView, 'id'> & { id: string };
const viewOf = (r: Row): EndpointView => ({
  id: Number(r.id),
  url: r.url,
  events: r.events,
  description: r.description,
  enabled: r.enabled,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** Reads of webhook_endpoints: tenant-scoped for the API; by organisation id for the worker. */
@Injectable()
export class EndpointQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** Newest first. */
  async list(tenant: Tenant): Promise<EndpointView[]> {
    const q = tenantSql(
      tenant,
    )`SELECT ${COLUMNS} FROM webhook_endpoints WHERE ${tenantScope()} ORDER BY created_at DESC, id DESC`;
    return ((await this.dataSource.query(q.text, q.values)) as Row[]).map(viewOf);
  }

  /** Another organisation's endpoint, or an unknown id: 404. */
  async get(tenant: Tenant, id: number): Promise<EndpointView> {
    const q = tenantSql(tenant)`SELECT ${COLUMNS} FROM webhook_endpoints WHERE ${tenantScope()} AND id = ${id}`;
    const [row]: Row[] = await this.dataSource.query(q.text, q.values);
    if (!row) throw new NotFoundError('Webhook endpoint');
    return viewOf(row);
  }

  /** The sealed secret that signs now (a rotation keeps it as the previous one), or null for an unknown endpoint. */
  async sealedSecret(tenant: Tenant, id: number): Promise<string | null> {
    const q = tenantSql(tenant)`SELECT secret FROM webhook_endpoints WHERE ${tenantScope()} AND id = ${id}`;
    const [row]: { secret: string }[] = await this.dataSource.query(q.text, q.values);
    return row?.secret ?? null;
  }

  /** The organisation's enabled endpoints and what they subscribe to (the fan-out's targets). */
  async enabledOf(organisationId: number): Promise<{ id: number; events: string[] }[]> {
    const q = tenantSql({
      organisationId,
    })`SELECT id, events FROM webhook_endpoints WHERE ${tenantScope()} AND enabled`;
    const rows: { id: string; events: string[] }[] = await this.dataSource.query(q.text, q.values);
    return rows.map((r) => ({ id: Number(r.id), events: r.events }));
  }
}
