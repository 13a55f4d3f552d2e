import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Caller, type UserBase, UserBases } from '#app/identity';
import {
  ForbiddenError,
  NotFoundError,
  offsetOf,
  type PageRequest,
  type Sql,
  sql,
  tenantScope,
  tenantSql,
} from '#app/platform';
import { type ShiftView, ShiftQueries } from '../booking/shift.queries.js';
import { type CallerReach, isManager, managedTeams } from '../rotas.policy.js';
import type { SwapStatus } from './shift-swap.js';

/** The Swap record (docs/rota-domain.md#swaps). */
export interface SwapView {
  id: number;
  status: SwapStatus;
  shift: ShiftView;
  with: ShiftView;
  proposed_by: UserBase;
  created_at: string;
  decided_at: string | null;
}

type Row = {
  id: string;
  status: SwapStatus;
  shift_id: string;
  with_id: string;
  shift_team_id: string;
  with_team_id: string;
  with_user_id: string;
  proposed_by: string;
  created_at: Date;
  decided_at: Date | null;
};

// A side no longer as proposed: cancelled, moved, or in other hands.
const changed = (side: 'a' | 'b', prefix: 'shift' | 'with') =>
  `(${side}.status <> 'booked' OR ${side}.user_id <> w.${prefix}_user_id
    OR ${side}.starts_at <> w.${prefix}_starts_at OR ${side}.ends_at <> w.${prefix}_ends_at)`;
const STARTED = `least(w.shift_starts_at, w.with_starts_at) <= now()`;
const EXPIRED = `(${STARTED} OR ${changed('a', 'shift')} OR ${changed('b', 'with')} OR NOT ra.self_manage OR NOT rb.self_manage)`;

/**
 * Each swap with its status as it stands (docs/rota-domain.md#swaps): a swap its stream left
 * `proposed` is `expired` as soon as a shift starts, is no longer as proposed, or a rota is no longer
 * self-managed, judged here against the shifts' and rotas' rows; its `decided_at` is then the
 * earliest of those moments the rows know.
 */
const SWAPS = sql.raw(`(SELECT w.id, w.organisation_id, w.shift_id, w.with_id, w.shift_team_id, w.with_team_id,
    w.with_user_id, w.proposed_by, w.created_at,
    CASE WHEN w.status <> 'proposed' THEN w.status WHEN ${EXPIRED} THEN 'expired' ELSE 'proposed' END AS status,
    CASE WHEN w.status <> 'proposed' THEN w.decided_at WHEN ${EXPIRED} THEN least(
      CASE WHEN ${STARTED} THEN least(w.shift_starts_at, w.with_starts_at) END,
      CASE WHEN ${changed('a', 'shift')} THEN coalesce(a.cancelled_at, a.updated_at) END,
      CASE WHEN ${changed('b', 'with')} THEN coalesce(b.cancelled_at, b.updated_at) END,
      CASE WHEN NOT ra.self_manage THEN ra.updated_at END,
      CASE WHEN NOT rb.self_manage THEN rb.updated_at END) END AS decided_at
  FROM rota_shift_swaps w
  JOIN rota_shifts a ON a.id = w.shift_id JOIN rota_shifts b ON b.id = w.with_id
  JOIN rotas ra ON ra.id = w.shift_rota_id JOIN rotas rb ON rb.id = w.with_rota_id)`);

/** Reads of swaps for the API, tenant-scoped. */
@Injectable()
export class ShiftSwapQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly shifts: ShiftQueries,
    private readonly users: UserBases,
  ) {}

  /** One swap: 404 for none or another organisation's; 403 when the caller is neither party nor a manager of either rota. */
  async seen(caller: Caller, reach: CallerReach, id: number): Promise<SwapView> {
    const [row] = await this.rows(caller, sql`s.id = ${id}`);
    if (!row) throw new NotFoundError('Shift swap');
    const mine = [Number(row.proposed_by), Number(row.with_user_id)].includes(caller.userId);
    if (!mine && !isManager(reach, Number(row.shift_team_id)) && !isManager(reach, Number(row.with_team_id)))
      throw new ForbiddenError('This swap is not yours.');
    return (await this.toViews(caller, [row]))[0]!;
  }

  /** `GET /api/rota/shift-swaps`: the caller's swaps, and those on rotas they manage, newest first. */
  async list(
    caller: Caller,
    reach: CallerReach,
    status: SwapStatus | undefined,
    page: PageRequest,
  ): Promise<{ items: SwapView[]; total: number }> {
    const managed = managedTeams(reach);
    const where = sql`(s.proposed_by = ${caller.userId} OR s.with_user_id = ${caller.userId}
      OR s.shift_team_id = ANY(${managed}::bigint[]) OR s.with_team_id = ANY(${managed}::bigint[]))
      ${status ? sql`AND s.status = ${status}` : sql``}`;
    const q = tenantSql(
      caller,
    )`SELECT s.*, count(*) OVER () AS total FROM ${SWAPS} s WHERE ${tenantScope('s')} AND ${where}
      ORDER BY s.created_at DESC, s.id DESC LIMIT ${page.perPage} OFFSET ${offsetOf(page)}`;
    const rows: (Row & { total: string })[] = await this.dataSource.query(q.text, q.values);
    const total = rows.length > 0 ? Number(rows[0]!.total) : page.page > 1 ? await this.count(caller, where) : 0;
    return { items: await this.toViews(caller, rows), total };
  }

  private async count(caller: Caller, where: Sql): Promise<number> {
    const q = tenantSql(caller)`SELECT count(*) AS n FROM ${SWAPS} s WHERE ${tenantScope('s')} AND ${where}`;
    const [row]: { n: string }[] = await this.dataSource.query(q.text, q.values);
    return Number(row!.n);
  }

  private rows(caller: Caller, where: Sql): Promise<Row[]> {
    const q = tenantSql(caller)`SELECT s.* FROM ${SWAPS} s WHERE ${tenantScope('s')} AND ${where}`;
    return this.dataSource.query(q.text, q.values);
  }

  private async toViews(caller: Caller, rows: readonly Row[]): Promise<SwapView[]> {
    if (rows.length === 0) return [];
    const [shifts, users] = await Promise.all([
      this.shifts.views(caller, [...new Set(rows.flatMap((r) => [Number(r.shift_id), Number(r.with_id)]))]),
      this.users.of(caller, [...new Set(rows.map((r) => Number(r.proposed_by)))], 'add-user-shifts'),
    ]);
    const byId = new Map(shifts.map((s) => [s.id, s]));
    return rows.map((r) => ({
      id: Number(r.id),
      status: r.status,
      shift: byId.get(Number(r.shift_id))!,
      with: byId.get(Number(r.with_id))!,
      proposed_by: users.get(Number(r.proposed_by))!,
      created_at: r.created_at.toISOString(),
      decided_at: r.decided_at?.toISOString() ?? null,
    }));
  }
}
