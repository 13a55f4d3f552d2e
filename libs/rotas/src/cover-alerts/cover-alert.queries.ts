import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sql, type Tenant, tenantScope, tenantSql } from '#app/platform';
import { addDays } from '../domain/calendar-dates.js';
import { rotaForBooking, type RotaForBooking, ROTA_RULE_COLUMNS, type RotaRuleRow } from '../booking/rota-row.js';
import type { CoverShift } from './cover-alert-plan.js';

/** A booked shift of a rota, as coverage reads it. */
export interface CoverShiftRow extends CoverShift {
  readonly rotaId: number;
}

/** The cover alerts' reads: no caller, so each takes the organisation explicitly. */
@Injectable()
export class CoverAlertQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** The organisations with a rota not archived and not ended before `fromDate` (the hourly round: every organisation). */
  async organisationsWithLiveRotas(fromDate: string): Promise<number[]> {
    const rows: { organisation_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT organisation_id FROM rotas WHERE NOT archived AND (end_date IS NULL OR end_date >= $1::date)
        ORDER BY organisation_id`,
      [fromDate],
    );
    return rows.map((r) => Number(r.organisation_id));
  }

  /** The rotas (all, or the one) not archived and active on a day of [fromDate, toDate], as the booking rules read them. */
  async rotas(
    tenant: Tenant,
    zone: string,
    rotaId: number | null,
    fromDate: string,
    toDate: string,
  ): Promise<RotaForBooking[]> {
    const only = rotaId === null ? sql`` : sql`AND r.id = ${rotaId}`;
    const q = tenantSql(tenant)`SELECT ${ROTA_RULE_COLUMNS} FROM rotas r
      WHERE ${tenantScope('r')} AND NOT r.archived AND r.start_date <= ${toDate}::date
        AND (r.end_date IS NULL OR r.end_date >= ${fromDate}::date) ${only} ORDER BY r.id`;
    const rows: RotaRuleRow[] = await this.dataSource.query(q.text, q.values);
    return rows.map((r) => rotaForBooking(r, zone));
  }

  /**
   * The shifts coverage counts of the rotas starting on [fromDate, toDate] (the rota_shifts_rota_date
   * index): booked, never cancelled ones nor those looking for a stand-in (docs/rota-domain.md#stand-ins-and-take-overs).
   */
  async shifts(tenant: Tenant, rotaIds: readonly number[], fromDate: string, toDate: string): Promise<CoverShiftRow[]> {
    if (rotaIds.length === 0) return [];
    const q = tenantSql(tenant)`SELECT s.rota_id, s.date::text AS date,
        (extract(epoch FROM s.starts_at) * 1000)::float8 AS start, (extract(epoch FROM s.ends_at) * 1000)::float8 AS "end"
       FROM rota_shifts s
      WHERE ${tenantScope('s')} AND s.status = 'booked' AND s.stand_in_requested_at IS NULL
        AND s.rota_id = ANY(${rotaIds}::bigint[]) AND s.date BETWEEN ${fromDate}::date AND ${toDate}::date`;
    const rows: { rota_id: string; date: string; start: number; end: number }[] = await this.dataSource.query(
      q.text,
      q.values,
    );
    return rows.map((r) => ({ rotaId: Number(r.rota_id), date: r.date, start: Number(r.start), end: Number(r.end) }));
  }

  /** The rota's contacts (user ids). */
  async contacts(tenant: Tenant, rotaId: number): Promise<number[]> {
    const q = tenantSql(
      tenant,
    )`SELECT DISTINCT user_id FROM rota_contacts WHERE ${tenantScope()} AND rota_id = ${rotaId}
      ORDER BY user_id`;
    const rows: { user_id: string }[] = await this.dataSource.query(q.text, q.values);
    return rows.map((r) => Number(r.user_id));
  }

  /**
   * The users with a booked shift, on any rota of the organisation, overlapping [start, end): those
   * who cannot cover an occurrence then (booking rule 6). A shift looking for a stand-in is still
   * its volunteer's, so they are among them: never alerted about their own shift. One statement, through the organisation's
   * rotas and the booked shifts' (rota, date) index; a shift lasts less than a week, so one starting
   * more than eight days before the occurrence's local date cannot reach it.
   */
  async bookedDuring(tenant: Tenant, date: string, start: number, end: number): Promise<number[]> {
    const q = tenantSql(tenant)`SELECT DISTINCT s.user_id FROM rota_shifts s
      WHERE ${tenantScope('s')} AND s.rota_id IN (SELECT r.id FROM rotas r WHERE ${tenantScope('r')})
        AND s.status = 'booked' AND s.date BETWEEN ${addDays(date, -8)}::date AND ${addDays(date, 8)}::date
        AND s.starts_at < ${new Date(end).toISOString()}::timestamptz AND s.ends_at > ${new Date(start).toISOString()}::timestamptz`;
    const rows: { user_id: string }[] = await this.dataSource.query(q.text, q.values);
    return rows.map((r) => Number(r.user_id));
  }
}
