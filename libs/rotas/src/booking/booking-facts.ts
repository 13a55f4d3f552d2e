import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WriteQuery } from '#app/event-store';
import { Teams } from '#app/identity';
import { sql, type Tenant, tenantScope, tenantSql } from '#app/platform';
import type { BookedSpan } from '../domain/booking-rules.js';
import { ROTA_RULE_COLUMNS, type RotaForBooking, rotaForBooking, type RotaRuleRow } from './rota-row.js';

export type { RotaForBooking } from './rota-row.js';

/** What the booking rules know of a user (absent: not a user of the organisation). */
export interface Booker {
  readonly onHold: boolean;
  readonly roleProfileIds: ReadonlySet<number>;
  readonly seen: ReadonlySet<number>;
}

/** What a booking, a move or a generated occurrence asks of the read tables (all optional). */
export interface BookingFactsQuery {
  readonly rotaIds: readonly number[];
  /** Booked shifts of these users, any rota, that overlap the time from the first span's start to the last one's end. */
  readonly users?: { readonly ids: readonly number[]; readonly spans: readonly { start: string; end: string }[] };
  /** Booked shifts on each (rota, date). */
  readonly days?: readonly { readonly rotaId: number; readonly date: string }[];
}

/** The rotas by id, the users' booked spans, and the booked spans of each rota-day keyed `rotaId date`. */
export interface BookingFacts {
  readonly rotas: Map<number, RotaForBooking>;
  readonly userShifts: BookedSpan[];
  readonly rotaDays: Map<string, BookedSpan[]>;
}

type SpanRow = { id: number; user_id: number; rota_id: number; date: string; starts_at: string; ends_at: string };

const spanOf = (r: SpanRow): BookedSpan => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  rotaId: Number(r.rota_id),
  date: r.date,
  start: Date.parse(r.starts_at),
  end: Date.parse(r.ends_at),
});

const SPAN_COLUMNS = sql.raw(`s.id, s.user_id, s.rota_id, s.date::text AS date, s.starts_at, s.ends_at`);
const SPAN_FIELDS = sql.raw(`s.id, s.user_id, s.rota_id, s.date, s.starts_at, s.ends_at`);

/**
 * The reads of the booking rules, tenant-scoped. `read` is one statement for the rotas and the
 * shifts that could clash; writes call it as their `facts`, inside the write after its gates, so it
 * sees every booking that passed them first (docs/adr/0011-declarative-writes.md). The users'
 * standing (identity's) is read inside a booking's write too, each user's identity gate held.
 */
@Injectable()
export class BookingFactsReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly teams: Teams,
  ) {}

  async read(db: WriteQuery, tenant: Tenant, ask: BookingFactsQuery, zone: string): Promise<BookingFacts> {
    const users =
      ask.users && ask.users.ids.length > 0 && ask.users.spans.length > 0
        ? {
            ids: ask.users.ids,
            from: new Date(Math.min(...ask.users.spans.map((t) => Date.parse(t.start)))),
            to: new Date(Math.max(...ask.users.spans.map((t) => Date.parse(t.end)))),
          }
        : null;
    const days = [...new Map((ask.days ?? []).map((d) => [`${d.rotaId} ${d.date}`, d])).values()];
    // Each user, and each (rota, date) pair, one lookup of its index (rota_shifts_user_start,
    // rota_shifts_rota_date) whatever the statistics say: OFFSET 0 keeps the planner from folding
    // the lateral reads into one join, which it planned, on stale statistics, as a scan of every
    // booked shift.
    const userSpans = users
      ? sql`SELECT ${SPAN_COLUMNS} FROM unnest(${[...new Set(users.ids)]}::bigint[]) AS u(id)
        CROSS JOIN LATERAL (SELECT ${SPAN_FIELDS} FROM rota_shifts s WHERE ${tenantScope('s')} AND s.status = 'booked'
          AND s.user_id = u.id AND s.starts_at < ${users.to.toISOString()}::timestamptz
          AND s.ends_at > ${users.from.toISOString()}::timestamptz OFFSET 0) s`
      : sql`SELECT ${SPAN_COLUMNS} FROM rota_shifts s WHERE false AND ${tenantScope('s')}`;
    const daySpans = sql`SELECT ${SPAN_COLUMNS} FROM unnest(${days.map((d) => d.rotaId)}::bigint[], ${days.map((d) => d.date)}::date[]) AS d(rota_id, date)
        CROSS JOIN LATERAL (SELECT ${SPAN_FIELDS} FROM rota_shifts s WHERE ${tenantScope('s')} AND s.status = 'booked'
          AND s.rota_id = d.rota_id AND s.date = d.date OFFSET 0) s`;
    const q = tenantSql(tenant)`SELECT
        (SELECT coalesce(json_agg(r), '[]') FROM (SELECT ${ROTA_RULE_COLUMNS} FROM rotas r
          WHERE ${tenantScope('r')} AND r.id = ANY(${[...new Set(ask.rotaIds)]}::bigint[])) r) AS rotas,
        (SELECT coalesce(json_agg(s), '[]') FROM (${userSpans}) s) AS user_shifts,
        (SELECT coalesce(json_agg(s), '[]') FROM (${daySpans}) s) AS day_shifts`;
    const [row] = await db.query<{ rotas: RotaRuleRow[]; user_shifts: SpanRow[]; day_shifts: SpanRow[] }>(
      q.text,
      q.values,
    );
    const rotaDays = new Map<string, BookedSpan[]>(days.map((d) => [`${d.rotaId} ${d.date}`, []]));
    for (const span of row!.day_shifts.map(spanOf)) rotaDays.get(`${span.rotaId} ${span.date}`)?.push(span);
    return {
      rotas: new Map(row!.rotas.map((r) => [Number(r.id), rotaForBooking(r, zone)])),
      userShifts: row!.user_shifts.map(spanOf),
      rotaDays,
    };
  }

  /** The rotas alone, outside any write (a cancellation's rules read no clash). */
  async rotas(tenant: Tenant, ids: readonly number[], zone: string): Promise<Map<number, RotaForBooking>> {
    if (ids.length === 0) return new Map();
    return (await this.read(this.dataSource, tenant, { rotaIds: ids }, zone)).rotas;
  }

  /** `db`: inside a write, its own query (after its gates). */
  bookers(tenant: Tenant, userIds: readonly number[], db?: WriteQuery): Promise<Map<number, Booker>> {
    return this.teams.bookersOf(tenant, [...new Set(userIds)], db);
  }
}
