import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Teams } from '#app/identity';
import { type Tenant, tenantScope, tenantSql } from '#app/platform';
import type { BookedSpan, BookingRota } from '../domain/booking-rules.js';
import type { Timeline } from '../domain/timeslot-timeline.js';

/** A rota as a booking reads it: the rules' view, and its name (notifications). */
export interface RotaForBooking extends BookingRota {
  readonly name: string;
}

/** What the booking rules know of a user (absent: not a user of the organisation). */
export interface Booker {
  readonly onHold: boolean;
  readonly roleProfileIds: ReadonlySet<number>;
  readonly seen: ReadonlySet<number>;
}

type RotaRow = {
  id: string;
  team_id: string;
  name: string;
  start_date: string;
  end_date: string | null;
  archived: boolean;
  closed_dates: string[];
  timeline: Timeline;
  self_manage: boolean;
  allow_same_day_add: boolean;
  allow_same_day_cancel: boolean;
  allow_same_day_edit: boolean;
  restricted_by_role: boolean;
  role_profile_ids: number[];
  require_full_timeslot: boolean;
};

type SpanRow = { id: string; user_id: string; rota_id: string; date: string; starts_at: Date; ends_at: Date };

const spanOf = (r: SpanRow): BookedSpan => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  rotaId: Number(r.rota_id),
  date: r.date,
  start: r.starts_at.getTime(),
  end: r.ends_at.getTime(),
});

/**
 * The reads of a booking decision, tenant-scoped. The clash reads (`shiftsOfUsers`, `onRotaDays`)
 * and the rota are what the gates protect: handlers call them inside the store's decision, after the
 * gates were read (docs/adr/0008-booking-gates.md).
 */
@Injectable()
export class BookingFactsReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly teams: Teams,
  ) {}

  async rotas(tenant: Tenant, ids: readonly number[], zone: string): Promise<Map<number, RotaForBooking>> {
    if (ids.length === 0) return new Map();
    const q = tenantSql(
      tenant,
    )`SELECT r.id, r.team_id, r.name, r.start_date::text AS start_date, r.end_date::text AS end_date, r.archived, r.closed_dates, r.timeline,
        r.self_manage, r.allow_same_day_add, r.allow_same_day_cancel, r.allow_same_day_edit, r.restricted_by_role, r.role_profile_ids, r.require_full_timeslot
       FROM rotas r WHERE ${tenantScope('r')} AND r.id = ANY(${ids}::bigint[])`;
    const rows: RotaRow[] = await this.dataSource.query(q.text, q.values);
    return new Map(
      rows.map((r) => [
        Number(r.id),
        {
          id: Number(r.id),
          teamId: Number(r.team_id),
          name: r.name,
          zone,
          calendar: {
            start_date: r.start_date,
            end_date: r.end_date,
            archived: r.archived,
            closed_dates: new Set(r.closed_dates),
            timeline: r.timeline,
          },
          selfManage: r.self_manage,
          requireFullTimeslot: r.require_full_timeslot,
          restrictedByRole: r.restricted_by_role,
          roleProfileIds: r.role_profile_ids.map(Number),
          allowSameDayAdd: r.allow_same_day_add,
          allowSameDayEdit: r.allow_same_day_edit,
          allowSameDayCancel: r.allow_same_day_cancel,
        },
      ]),
    );
  }

  bookers(tenant: Tenant, userIds: readonly number[]): Promise<Map<number, Booker>> {
    return this.teams.bookersOf(tenant, [...new Set(userIds)]);
  }

  /** Booked shifts of `userIds` on any rota that overlap [from, to). */
  async shiftsOfUsers(tenant: Tenant, userIds: readonly number[], from: Date, to: Date): Promise<BookedSpan[]> {
    if (userIds.length === 0) return [];
    const q = tenantSql(
      tenant,
    )`SELECT s.id, s.user_id, s.rota_id, s.date::text AS date, s.starts_at, s.ends_at FROM rota_shifts s
      WHERE ${tenantScope('s')} AND s.status = 'booked' AND s.user_id = ANY(${[...new Set(userIds)]}::bigint[])
        AND s.starts_at < ${to.toISOString()}::timestamptz AND s.ends_at > ${from.toISOString()}::timestamptz`;
    return ((await this.dataSource.query(q.text, q.values)) as SpanRow[]).map(spanOf);
  }

  /** Booked shifts on each (rota, date) asked for, keyed `rotaId date`. */
  async onRotaDays(
    tenant: Tenant,
    days: readonly { rotaId: number; date: string }[],
  ): Promise<Map<string, BookedSpan[]>> {
    const byDay = new Map<string, BookedSpan[]>(days.map((d) => [`${d.rotaId} ${d.date}`, []]));
    if (days.length === 0) return byDay;
    const q = tenantSql(
      tenant,
    )`SELECT s.id, s.user_id, s.rota_id, s.date::text AS date, s.starts_at, s.ends_at FROM rota_shifts s
      WHERE ${tenantScope('s')} AND s.status = 'booked' AND s.rota_id = ANY(${[...new Set(days.map((d) => d.rotaId))]}::bigint[])
        AND s.date = ANY(${[...new Set(days.map((d) => d.date))]}::date[])`;
    for (const span of ((await this.dataSource.query(q.text, q.values)) as SpanRow[]).map(spanOf))
      byDay.get(`${span.rotaId} ${span.date}`)?.push(span);
    return byDay;
  }
}
