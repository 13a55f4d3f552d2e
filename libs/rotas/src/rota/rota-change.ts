import { Injectable } from '@nestjs/common';
import { EventStore, type StreamEvents, type StreamRead, type WriteQuery } from '#app/event-store';
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
import { PlanMoved } from '../booking/shift-changes.js';
import { evolve, type RotaState } from './rota.js';

/** A change of existing rotas, as its handler describes it to RotaChanges.write. */
export interface RotaChange {
  readonly caller: Caller;
  /** The organisation's zone (the rota zone). */
  readonly zone: string;
  /** The existing rotas the change decides over: read, and handed to `decide` by id (the null ones left out). */
  readonly rotaIds: readonly number[];
  /** False for a change that moves no calendar (bulk name, reopen, contacts): no gate, nothing to cancel. */
  readonly movesCalendars?: boolean;
  /** Other streams the change appends to (a create's new rotas and its teams), by name. */
  readonly streams?: Readonly<Record<string, StreamRead<any, any>>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The change's own decision; `states` holds the states of `streams` by their names. */
  readonly decide: (
    rotas: ReadonlyMap<number, RotaState>,
    states: Readonly<Record<string, unknown>>,
  ) => readonly StreamEvents[];
}

/**
 * The rota changes that can move a calendar (timeslots, replace, bulk, a create ending a running
 * rota) go through here (docs/rota-domain.md#shifts-that-no-longer-fit):
 * one write (docs/adr/0011) that advances the rotas' calendar gates first, so no booking or move
 * of those rotas commits until it does (they hold the gates: docs/adr/0008); reads the booked shifts
 * that have not started and the open series of those rotas (rows, inside the write, hence exact);
 * reads the rotas' streams and decides the change; and appends, with the change, a ShiftCancelled
 * to each shift that no longer fits and a RepeatingShiftEnded to each series it cuts short, at the
 * versions read, with the caller's metadata. A concurrent change of one of those streams makes
 * the store run the whole write again (a 409 only when it keeps losing).
 *
 * A shift or series stream is read only once the rows say the change touches it: the first attempt
 * of a change that leaves shifts behind learns which (misfitStreams) and throws PlanMoved, and the
 * store runs the write again with those streams named. So the cancellations are decided on the
 * shifts' own streams, in a few statements however many rotas and shifts: one rows read, one
 * streams read, one append.
 */
@Injectable()
export class RotaChanges {
  constructor(private readonly store: EventStore) {}

  async write(change: RotaChange): Promise<void> {
    const { caller, zone, rotaIds } = change;
    const named = { shifts: new Set<number>(), series: new Set<number>() };
    await this.store.write(async () => {
      const now = Date.now();
      const [shiftIds, seriesIds] = [[...named.shifts], [...named.series]];
      return {
        ...((change.movesCalendars ?? true) &&
          rotaIds.length > 0 && {
            gates: { advance: rotaIds.map(gateOf.rotaCalendar) },
            facts: (db: WriteQuery) => misfitRows(db, caller, rotaIds, now),
          }),
        streams: {
          ...change.streams,
          ...Object.fromEntries(rotaIds.map((id) => [`rota ${id}`, { streamId: streamOf.rota(id), evolve }])),
          ...Object.fromEntries(
            shiftIds.map((id) => [`shift ${id}`, { streamId: streamOf.shift(id), evolve: evolveShift }]),
          ),
          ...Object.fromEntries(
            seriesIds.map((id) => [`series ${id}`, { streamId: streamOf.series(id), evolve: evolveSeries }]),
          ),
        } as Record<string, StreamRead<unknown>>,
        decide: (states: Record<string, unknown>, rows: MisfitRows | undefined) => {
          const rotas = new Map<number, RotaState>();
          for (const id of rotaIds) {
            const state = states[`rota ${id}`] as RotaState | null;
            if (state) rotas.set(id, state);
          }
          const decided = change.decide(rotas, states);
          if (!rows) return decided;
          const changes = calendarChangesOf(rotas, decided.flatMap((d) => d.events) as RotaEvent[]);
          if (changes.length === 0) return decided;
          const wanted = misfitStreams(changes, rows, { zone, now });
          const unread = [
            ...wanted.shifts.filter((id) => !named.shifts.has(id)),
            ...wanted.series.filter((id) => !named.series.has(id)),
          ];
          if (unread.length > 0) {
            for (const id of wanted.shifts) named.shifts.add(id);
            for (const id of wanted.series) named.series.add(id);
            throw new PlanMoved();
          }
          const state = misfitsStateOf(
            shiftIds.map((id) => states[`shift ${id}`] as ShiftState | null),
            seriesIds.map((id) => states[`series ${id}`] as SeriesState | null),
          );
          return [...decided, ...byStream(decideMisfits(state, changes, { zone, now }))];
        },
        metadata: metadataOf(caller),
      };
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
