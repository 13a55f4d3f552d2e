import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sql, type Tenant, tenantScope, tenantSql } from '#app/platform';
import type { ShiftTimesData } from '../rotas.events.js';

/** A shift's row as the worker reads it, booked or cancelled (a cancelled row keeps the times it had). */
export interface SystemShiftRow extends ShiftTimesData {
  readonly id: number;
  readonly rotaId: number;
  readonly teamId: number;
  readonly userId: number;
  readonly cancelled: boolean;
}

type Row = {
  id: string;
  rota_id: string;
  team_id: string;
  user_id: string;
  date: string;
  starts_at: Date;
  ends_at: Date;
  start_wall: string;
  end_wall: string;
  status: string;
};

const COLUMNS = sql.raw(
  `s.id, s.rota_id, s.team_id, s.user_id, s.date::text AS date, s.starts_at, s.ends_at, s.start_wall, s.end_wall, s.status`,
);

const rowOf = (r: Row): SystemShiftRow => ({
  id: Number(r.id),
  rotaId: Number(r.rota_id),
  teamId: Number(r.team_id),
  userId: Number(r.user_id),
  date: r.date,
  start: r.starts_at.toISOString(),
  end: r.ends_at.toISOString(),
  startWall: r.start_wall,
  endWall: r.end_wall,
  cancelled: r.status === 'cancelled',
});

/**
 * The notification worker's reads of shifts and contacts: no caller, so each takes the
 * organisation (`{ organisationId }`) explicitly and is scoped to it like every other statement.
 */
@Injectable()
export class ShiftSystemQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** Shifts of `ids`, booked or cancelled, keyed by id (other organisations' are simply absent). */
  async shifts(tenant: Tenant, ids: readonly number[]): Promise<Map<number, SystemShiftRow>> {
    if (ids.length === 0) return new Map();
    const q = tenantSql(
      tenant,
    )`SELECT ${COLUMNS} FROM rota_shifts s WHERE ${tenantScope('s')} AND s.id = ANY(${ids}::bigint[])`;
    return new Map(((await this.dataSource.query(q.text, q.values)) as Row[]).map((r) => [Number(r.id), rowOf(r)]));
  }

  /** The contacts' user ids of each of `rotaIds` (a rota without contacts is absent). */
  async contactUsers(tenant: Tenant, rotaIds: readonly number[]): Promise<Map<number, number[]>> {
    const byRota = new Map<number, number[]>();
    if (rotaIds.length === 0) return byRota;
    const q = tenantSql(
      tenant,
    )`SELECT rota_id, user_id FROM rota_contacts WHERE ${tenantScope()} AND rota_id = ANY(${rotaIds}::bigint[]) ORDER BY id`;
    for (const r of (await this.dataSource.query(q.text, q.values)) as { rota_id: string; user_id: string }[]) {
      const rota = Number(r.rota_id);
      byRota.set(rota, [...(byRota.get(rota) ?? []), Number(r.user_id)]);
    }
    return byRota;
  }
}
