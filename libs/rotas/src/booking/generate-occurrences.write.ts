import type { Cause, StreamEvents, Write, WriteQuery } from '#app/event-store';
import { gateOf, streamOf } from '../rotas.events.js';
import type { Booker, BookingFacts, BookingFactsQuery } from './booking-facts.js';
import { type ChunkPlan, decideGeneration, type GenerationEvent } from './generation.js';
import { evolve, type SeriesState } from './repeating-shift.js';
import { datesTouched } from './shift-times.js';

/** One chunk of a series' generation as its write decides it: the series read, its plan, the ids drawn, the user's standing. */
export interface GenerationChunk {
  readonly cause: Cause;
  readonly zone: string;
  readonly series: SeriesState;
  readonly plan: ChunkPlan;
  /** A shift id for each timed occurrence, by date. */
  readonly shiftIds: ReadonlyMap<string, number>;
  readonly bookers: ReadonlyMap<number, Booker>;
}

/** The occurrences of a chunk that get a shift (those whose times exist on their date). */
export const timedOf = (plan: ChunkPlan) => plan.occurrences.filter((o) => o.times !== null);

function chunkStreams(series: SeriesState, shiftIds: ReadonlyMap<string, number>) {
  return {
    series: { streamId: streamOf.series(series.id), evolve },
    ...Object.fromEntries(
      [...shiftIds].map(([date, id]) => [date, { streamId: streamOf.shift(id), expect: 'no_stream' as const }]),
    ),
  };
}

/**
 * One chunk (planChunk) as ONE append: the occurrences' ShiftBooked on new shift streams
 * ('no_stream') and the series' RepeatingShiftGenerated at the version read, through the gates of
 * every occurrence (rota-day and each user-day it is on duty advanced, the rota calendar held:
 * docs/adr/0008), as a booking request does. So:
 * - a chunk is all or nothing and moves generatedUntil; a killed worker's retry goes on from there;
 * - two runs of one series (a doubled or stalled job, the Started and an Extended job at once) both
 *   append at the same series version and through the same gates: one commits, the other loses,
 *   and retried (`retries`) reads the series moved on and plans the next chunk, or nothing;
 * - an occurrence date is considered once, after generatedUntil, so it is booked at most once per
 *   series. Event ids come from the cause (`cause.identify`, keyed by series and date), so even an
 *   attempt deciding the same chunk again appends nothing the store already holds.
 * The rota and the user's shifts are the write's facts (`read`), read after the gates (docs/adr/0011).
 */
export function generationWrite(
  chunk: GenerationChunk,
  read: (db: WriteQuery, ask: BookingFactsQuery) => Promise<BookingFacts>,
): Write<undefined, BookingFacts | null, ReturnType<typeof chunkStreams>> {
  const { cause, zone, series, plan, shiftIds, bookers } = chunk;
  const timed = timedOf(plan);
  return {
    gates: () => ({
      advance: timed.flatMap((o) => [
        gateOf.rotaDay(series.rotaId, o.date),
        ...datesTouched(o.times!, zone).map((d) => gateOf.userDay(series.userId, d)),
      ]),
      hold: [gateOf.rotaCalendar(series.rotaId)],
    }),
    facts: async (db) =>
      timed.length
        ? read(db, { rotaIds: [series.rotaId], users: { ids: [series.userId], spans: timed.map((o) => o.times!) } })
        : null,
    streams: () => chunkStreams(series, shiftIds),
    decide: (states, { facts, now }) =>
      streamsOf(
        cause,
        series.id,
        plan,
        decideGeneration(states.series as SeriesState | null, plan, {
          zone,
          rota: facts?.rotas.get(series.rotaId),
          booker: bookers.get(series.userId),
          userShifts: facts?.userShifts ?? [],
          shiftIds,
          now,
        }),
      ),
  };
}

/** Each event on its stream, with ids derived from the cause, keyed by series and date (stable across attempts). */
function streamsOf(cause: Cause, seriesId: number, plan: ChunkPlan, events: GenerationEvent[]): StreamEvents[] {
  return events.map((e) =>
    e.type === 'rotas.ShiftBooked'
      ? {
          streamId: streamOf.shift(e.data.id),
          events: cause.identify(`rotas.ShiftBooked/${seriesId}/${e.data.date}`, [e]),
        }
      : {
          streamId: streamOf.series(seriesId),
          events: cause.identify(`rotas.RepeatingShiftGenerated/${seriesId}/${plan.after}`, [e]),
        },
  );
}
