import type { StreamRead, Write } from '#app/event-store';
import { type Caller, identityGateOf, metadataOf } from '#app/identity';
import { gateOf, type ShiftEvent, streamOf } from '../rotas.events.js';
import type { BookingFactsReader } from './booking-facts.js';
import { evolve, type ShiftState } from './shift.js';
import { datesTouched } from './shift-times.js';
import type { ShiftQueries, ShiftRow } from './shift.queries.js';
import { decideTakeOver, type TakeOver, type TakeOverContext } from './take-over.js';

/** What the take-over reads: the shift routes' queries and the booking rules' facts. */
export interface TakeOverReads {
  readonly shifts: Pick<ShiftQueries, 'seen'>;
  readonly facts: Pick<BookingFactsReader, 'read' | 'bookers'>;
}

type Streams = { shift: StreamRead<ShiftState, ShiftEvent> };
type Facts = Omit<TakeOverContext, 'now'>;

/** The planned shift still has the times its gates were named for (a move since: planned again). */
export const sameTimes = (state: ShiftState | null, row: ShiftRow): boolean =>
  !state || state.cancelled !== null || (state.start === row.start && state.end === row.end);

/**
 * The take-over as one write (docs/adr/0011-declarative-writes.md), gated like a booking of the
 * taker: the shift the caller sees (404 / 403) planned first; the taker's user-days advanced (rule
 * 6: a booking of theirs at that time queues behind this), the rota's calendar and the taker's
 * identity gate held; the rota, the taker's standing and their shifts read after the gates; the
 * shift's stream read and decided on (decideTakeOver). Two takers of one shift both read it open;
 * the second append loses on the stream's version and the store runs it again, when it meets no
 * open request any more: a 409. No rota-day gate: a hand-over adds no place (rule 7 not applied).
 */
export function takeOverWrite(
  reads: TakeOverReads,
  caller: Caller,
  command: TakeOver & { shiftId: number },
  zone: string,
): Write<ShiftRow, Facts, Streams> {
  const { takerId } = command;
  return {
    plan: () => reads.shifts.seen(caller, command.reach, command.shiftId),
    gates: (row) => ({
      advance: datesTouched(row, zone).map((d) => gateOf.userDay(takerId, d)),
      hold: [gateOf.rotaCalendar(row.rotaId), identityGateOf.user(takerId)],
    }),
    facts: async (db, row) => {
      // One after the other: both go through the write's one connection.
      const read = await reads.facts.read(
        db,
        caller,
        { rotaIds: [row.rotaId], users: { ids: [takerId], spans: [row] } },
        zone,
      );
      const bookers = await reads.facts.bookers(caller, [takerId], db);
      return { rota: read.rotas.get(row.rotaId), taker: bookers.get(takerId), takerShifts: read.userShifts };
    },
    streams: (row) => ({ shift: { streamId: streamOf.shift(row.id), evolve } }),
    holds: ({ shift }, { plan }) => sameTimes(shift, plan),
    decide: ({ shift }, { plan, facts, now }) => [
      { streamId: streamOf.shift(plan.id), events: decideTakeOver(shift, command, { ...facts, now }) },
    ],
    metadata: metadataOf(caller),
  };
}
