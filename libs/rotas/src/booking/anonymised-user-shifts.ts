import { Injectable } from '@nestjs/common';
import type { StreamEvents, StreamRead, WriteQuery } from '#app/event-store';
import { OrganisationFactsReader } from '#app/identity';
import { PreparedStatements, tenantScope, tenantSql } from '#app/platform';
import { streamOf } from '../rotas.events.js';
import { evolve as evolveSeries, type SeriesState } from './repeating-shift.js';
import { cancellation, endSeries } from './shift-changes.js';
import { evolve as evolveShift, type ShiftState } from './shift.js';

/** A user being anonymised, and the date the anonymisation falls on in their organisation's zone. */
export interface AnonymisedUser {
  readonly userId: number;
  readonly organisationId: number;
}

/**
 * What the anonymisation write (libs/privacy) does to a user's rota bookings, planned from the read
 * tables before it and decided on the streams it reads (docs/privacy.md#anonymising-a-user, 2): the
 * streams to read (under unique names) and the decision over their states.
 */
export interface UserShiftsEndPlan {
  readonly streams: Record<string, StreamRead<unknown, never>>;
  decide(states: Readonly<Record<string, unknown>>, now: number): StreamEvents[];
}

/**
 * The shifts that have not started are cancelled (`user_anonymised`: the contacts are told as of the
 * volunteer's own cancellation) and every series of theirs ends on the anonymisation's date in the
 * organisation's zone. A shift with attendance recorded is left alone, as a started one. Pure.
 */
export function decideEndUserShifts(
  shifts: readonly (ShiftState | null)[],
  series: readonly { readonly state: SeriesState | null; readonly today: string }[],
  now: number,
): StreamEvents[] {
  const out: StreamEvents[] = [];
  for (const shift of shifts) {
    if (!shift || shift.cancelled || shift.attendance || Date.parse(shift.start) <= now) continue;
    out.push({ streamId: streamOf.shift(shift.id), events: [cancellation(shift, 'user_anonymised')] });
  }
  for (const { state, today } of series) {
    const ended = state && endSeries(state, today, 'user_anonymised');
    if (ended) out.push({ streamId: streamOf.series(state.id), events: [ended] });
  }
  return out;
}

@Injectable()
export class AnonymisedUserShifts {
  constructor(
    private readonly prepared: PreparedStatements,
    private readonly organisations: OrganisationFactsReader,
  ) {}

  /** The users' bookings that have not started and their series not yet ended, read now; `decide` takes the states of `streams`. */
  /** `db`: the anonymisation's own query, inside its write after its gates. */
  async plan(users: readonly AnonymisedUser[], now: Date, db: WriteQuery = this.prepared): Promise<UserShiftsEndPlan> {
    const shiftIds: number[] = [];
    const series: { id: number; today: string }[] = [];
    for (const organisationId of new Set(users.map((u) => u.organisationId))) {
      const ids = users.filter((u) => u.organisationId === organisationId).map((u) => u.userId);
      const tenant = { organisationId };
      const { today } = await this.organisations.of(tenant, db);
      const s = tenantSql(tenant)`SELECT id FROM rota_shifts WHERE ${tenantScope()}
          AND user_id = ANY(${ids}::bigint[]) AND status = 'booked' AND starts_at > ${now.toISOString()}::timestamptz
          ORDER BY id`;
      const r = tenantSql(tenant)`SELECT id FROM rota_repeating_shifts WHERE ${tenantScope()}
          AND user_id = ANY(${ids}::bigint[]) AND (end_date IS NULL OR end_date > ${today}::date) ORDER BY id`;
      // One after the other: `db` may be a write's one connection.
      const shiftRows = await db.query<{ id: string }>(s.text, s.values);
      const seriesRows = await db.query<{ id: string }>(r.text, r.values);
      shiftIds.push(...shiftRows.map((row) => Number(row.id)));
      series.push(...seriesRows.map((row) => ({ id: Number(row.id), today })));
    }
    const streams: Record<string, StreamRead<unknown, never>> = {};
    for (const id of shiftIds) streams[`shift-${id}`] = { streamId: streamOf.shift(id), evolve: evolveShift as never };
    for (const { id } of series)
      streams[`series-${id}`] = { streamId: streamOf.series(id), evolve: evolveSeries as never };
    return {
      streams,
      decide: (states, at) =>
        decideEndUserShifts(
          shiftIds.map((id) => states[`shift-${id}`] as ShiftState | null),
          series.map(({ id, today }) => ({ state: states[`series-${id}`] as SeriesState | null, today })),
          at,
        ),
    };
  }
}
