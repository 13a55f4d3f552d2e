import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Tenant, tenantScope, tenantSql } from '#app/platform';
import type { ReminderShift } from './reminder-plan.js';

/** A shift as its reminder names it. */
export interface ReminderShiftRow extends ReminderShift {
  readonly id: number;
  readonly userId: number;
  readonly rotaName: string;
  /** `YYYY-MM-DD HH:MM` in the rota zone. */
  readonly startWall: string;
  readonly endWall: string;
}

type Row = {
  id: string;
  user_id: string;
  status: string;
  starts_at: Date;
  start_wall: string;
  end_wall: string;
  rota_name: string;
};

const DAY_MS = 86_400_000;

/** The reminder worker's reads: no caller, so each takes the organisation explicitly. */
@Injectable()
export class ReminderQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** A shift, booked or cancelled (a cancelled row keeps its times), with its rota's name. */
  async shift(tenant: Tenant, id: number): Promise<ReminderShiftRow | undefined> {
    const q = tenantSql(
      tenant,
    )`SELECT s.id, s.user_id, s.status, s.starts_at, s.start_wall, s.end_wall, r.name AS rota_name
      FROM rota_shifts s JOIN rotas r ON r.id = s.rota_id AND ${tenantScope('r')} WHERE ${tenantScope('s')} AND s.id = ${id}`;
    const [row] = (await this.dataSource.query(q.text, q.values)) as Row[];
    if (!row) return undefined;
    return {
      id: Number(row.id),
      userId: Number(row.user_id),
      booked: row.status === 'booked',
      start: row.starts_at,
      startWall: row.start_wall,
      endWall: row.end_wall,
      rotaName: row.rota_name,
    };
  }

  /** The organisations with a booked shift starting after `after` (the reconciler's round: no caller, every organisation). */
  async organisationsWithUpcoming(after: Date): Promise<number[]> {
    const rows: { organisation_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT organisation_id FROM rota_shifts WHERE status = 'booked' AND starts_at > $1 ORDER BY organisation_id`,
      [after.toISOString()],
    );
    return rows.map((r) => Number(r.organisation_id));
  }

  /**
   * The organisation's booked shifts starting after `after`: those a changed setting reschedules.
   * Through its rotas and the booked shifts' (rota, date) index: rota_shifts has no index that leads
   * with the organisation (migration Shifts). A local date is never more than a day before the
   * UTC one, so the date bound keeps every shift that starts after `after`.
   */
  async upcoming(tenant: Tenant, after: Date): Promise<{ id: number; start: Date }[]> {
    const fromDate = new Date(after.getTime() - DAY_MS).toISOString().slice(0, 10);
    const q = tenantSql(tenant)`SELECT s.id, s.starts_at FROM rota_shifts s
      WHERE ${tenantScope('s')} AND s.rota_id IN (SELECT r.id FROM rotas r WHERE ${tenantScope('r')})
        AND s.status = 'booked' AND s.date >= ${fromDate}::date AND s.starts_at > ${after.toISOString()}::timestamptz
      ORDER BY s.starts_at, s.id`;
    const rows = (await this.dataSource.query(q.text, q.values)) as { id: string; starts_at: Date }[];
    return rows.map((r) => ({ id: Number(r.id), start: r.starts_at }));
  }
}
