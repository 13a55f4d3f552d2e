import { Injectable } from '@nestjs/common';
import {
  combineStreams,
  EventStore,
  type StatesByName,
  type StreamEvents,
  type StreamReads,
  streamsById,
  type WriteQuery,
} from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { type Tenant, tenantScope, tenantSql, groupBy } from '#app/platform';
import { evolve as evolveSeries, type SeriesState } from '../booking/repeating-shift.js';
import { gateOf, type RotaEvent, streamOf } from '../rotas.events.js';
import {
  calendarChangesOf,
  decideMisfits,
  type MisfitEvent,
  type MisfitRows,
  misfitsStateOf,
  misfitStreams,
} from './misfits.js';
import { evolve as evolveShift, type ShiftState } from '../booking/shift.js';
import { evolve, type RotaState } from './rota.js';

/** A change of existing rotas, as its handler describes it to RotaChanges.write. */
export interface RotaChange<R extends StreamReads = StreamReads> {
  readonly caller: Caller;
  /** The organisation's zone (the rota zone). */
  readonly zone: string;
  /** The existing rotas the change decides over: read, and handed to `decide` by id (the null ones left out). */
  readonly rotaIds: readonly number[];
  /** False for a change that moves no calendar (bulk name, reopen, contacts): no gate, nothing to cancel. */
  readonly movesCalendars?: boolean;
  /** Other streams the change appends to (a create's new rotas and its teams), by name. */
  readonly streams?: R;
  /** The change's own decision, pure; `states` holds the states of `streams` by their names. */
  readonly decide: (rotas: ReadonlyMap<number, RotaState>, states: StatesByName<R>) => readonly StreamEvents[];
}

/**
 * The rota changes that can move a calendar (timeslots, replace, bulk, a create ending a running
 * rota) go through here (docs/rota-domain.md#shifts-that-no-longer-fit): one write (docs/adr/0011)
 * whose plan reads the rotas and decides the change, so it knows which calendars change; that
 * advances the rotas' calendar gates, so no booking or move of those rotas commits until it does
 * (they hold the gates: docs/adr/0008); reads the booked shifts that have not started and the open
 * series of those rotas (rows, inside the write, hence exact); reads the rotas' streams again and
 * the shifts and series the changes touch (misfitStreams); and appends, with the change, a
 * ShiftCancelled to each shift that no longer fits and a RepeatingShiftEnded to each series it cuts
 * short, at the versions read, with the caller's metadata. A rota that changed since the plan (the
 * same decision gives other calendar changes) does not hold: the store plans again, as after any
 * lost race (a 409 only when it keeps losing). So the cancellations are decided on the shifts' own
 * streams, in a few statements however many rotas and shifts.
 */
@Injectable()
export class RotaChanges {
  constructor(private readonly store: EventStore) {}

  async write<R extends StreamReads>(change: RotaChange<R>): Promise<void> {
    const { caller, zone, rotaIds } = change;
    const rotaStreams = streamsById(rotaIds, streamOf.rota, evolve);
    const own = combineStreams(change.streams ?? ({} as R), rotaStreams);
    const decided = (states: StatesByName<typeof own>) => {
      const rotas = new Map<number, RotaState>();
      const rotaStates = states as StatesByName<typeof rotaStreams>;
      for (const id of rotaIds) {
        const state = rotaStates[id];
        if (state) rotas.set(id, state);
      }
      const events = change.decide(rotas, states as StatesByName<R>);
      return { events, changes: calendarChangesOf(rotas, events.flatMap((d) => d.events) as RotaEvent[]) };
    };
    if (!(change.movesCalendars ?? true) || rotaIds.length === 0) {
      await this.store.write({
        streams: () => own,
        decide: (states) => decided(states).events,
        metadata: metadataOf(caller),
      });
      return;
    }
    await this.store.write({
      plan: async ({ read, now }) => ({ changes: decided(await read(own)).changes, now }),
      gates: () => ({ advance: rotaIds.map(gateOf.rotaCalendar) }),
      facts: (db, { now }) => misfitRows(db, caller, rotaIds, now),
      streams: ({ changes, now }, rows) => {
        const wanted = misfitStreams(changes, rows, { zone, now });
        return combineStreams(own, {
          ...Object.fromEntries(
            wanted.shifts.map((id) => [`shift ${id}`, { streamId: streamOf.shift(id), evolve: evolveShift }]),
          ),
          ...Object.fromEntries(
            wanted.series.map((id) => [`series ${id}`, { streamId: streamOf.series(id), evolve: evolveSeries }]),
          ),
        } as StreamReads);
      },
      holds: (states, { plan }) => JSON.stringify(decided(states).changes) === JSON.stringify(plan.changes),
      decide: (states, { plan: { changes }, facts, now }) => {
        const { events } = decided(states);
        if (changes.length === 0) return events;
        const wanted = misfitStreams(changes, facts, { zone, now });
        const named = states as Readonly<Record<string, unknown>>;
        const state = misfitsStateOf(
          wanted.shifts.map((id) => (named[`shift ${id}`] ?? null) as ShiftState | null),
          wanted.series.map((id) => (named[`series ${id}`] ?? null) as SeriesState | null),
        );
        return [...events, ...byStream(decideMisfits(state, changes, { zone, now }))];
      },
      metadata: metadataOf(caller),
    });
  }
}

/** One statement: the rotas' booked shifts that have not started, and their series that have not ended. */
async function misfitRows(
  db: WriteQuery,
  tenant: Tenant,
  rotaIds: readonly number[],
  now: number,
): Promise<MisfitRows> {
  const q = tenantSql(tenant)`SELECT
      (SELECT coalesce(json_agg(s), '[]') FROM (
        SELECT s.id, s.rota_id AS "rotaId", s.date::text AS date,
          floor(extract(epoch FROM s.starts_at) * 1000)::bigint AS start, floor(extract(epoch FROM s.ends_at) * 1000)::bigint AS "end"
        FROM rota_shifts s WHERE ${tenantScope('s')} AND s.status = 'booked' AND s.rota_id = ANY(${rotaIds}::bigint[])
          AND s.starts_at > ${new Date(now).toISOString()}::timestamptz) s) AS shifts,
      (SELECT coalesce(json_agg(r), '[]') FROM (
        SELECT r.id, r.rota_id AS "rotaId", r.end_date::text AS "endDate" FROM rota_repeating_shifts r
        WHERE ${tenantScope('r')} AND r.rota_id = ANY(${rotaIds}::bigint[]) AND r.ended_reason IS NULL) r) AS series`;
  // Ids and instants (bigint) come back as JSON numbers.
  const [row] = await db.query<MisfitRows>(q.text, q.values);
  return row!;
}

/** The decision's events grouped by the stream each belongs to, in the order decided. */
function byStream(events: readonly MisfitEvent[]): StreamEvents[] {
  const grouped = groupBy(events, (e) =>
    e.type === 'rotas.ShiftCancelled' ? streamOf.shift(e.data.id) : streamOf.series(e.data.id),
  );
  return [...grouped].map(([streamId, own]) => ({ streamId, events: own }));
}
