import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Cause, CausedCommand, ConcurrencyError, EventStore, type StreamEvents } from '#app/event-store';
import { OrganisationFactsReader } from '#app/identity';
import type { Tenant } from '#app/platform';
import { RotaIds } from '../next-id.js';
import { gateOf, type RepeatingShiftEvent, streamOf } from '../rotas.events.js';
import { BookingFactsReader } from './booking-facts.js';
import { datesTouched } from './shift-times.js';
import { type ChunkPlan, decideGeneration, type GenerationEvent, planChunk } from './generation.js';
import { evolve, type SeriesState } from './repeating-shift.js';

/** Test hooks: a smaller chunk, and a stop after some chunks (a worker killed between two chunks). */
export interface GenerationLimits {
  readonly chunkSize?: number;
  readonly maxChunks?: number;
}

/**
 * Books a series' occurrences up to its `until` (or its end), chunk by chunk; caused by the
 * RepeatingShiftStarted or RepeatingShiftExtended whose job runs it. Answers the chunks it wrote.
 */
export class GenerateOccurrencesCommand extends CausedCommand<number> {
  constructor(
    cause: Cause,
    readonly seriesId: number,
    readonly organisationId: number,
    readonly limits: GenerationLimits = {},
  ) {
    super(cause);
  }
}

/** Chunks in a row that were stale or lost their race before the handler gives up (the job's retry starts afresh). */
const STALE_PLANS = 20;

/**
 * One chunk at a time (planChunk), each ONE append: the occurrences' ShiftBooked on new shift
 * streams ('no_stream') and the series' RepeatingShiftGenerated at the version read, through the
 * gates of every occurrence (rota-day and each user-day it is on duty advanced, the rota calendar
 * held: docs/adr/0008), as a booking request does. So:
 * - a chunk is all or nothing and moves generatedUntil; a killed worker's retry goes on from there;
 * - two runs of one series (a doubled or stalled job, the Started and an Extended job at once) both
 *   append at the same series version and through the same gates: one commits, the other loses,
 *   and retried (`retries`) reads the series moved on and plans the next chunk, or nothing;
 * - an occurrence date is considered once, after generatedUntil, so it is booked at most once per
 *   series. Event ids come from the cause (`cause.identify`, keyed by series and date), so even an
 *   attempt deciding the same chunk again appends nothing the store already holds.
 * The rota and the user's shifts are the write's facts, read after the gates (docs/adr/0011).
 */
@CommandHandler(GenerateOccurrencesCommand)
export class GenerateOccurrencesHandler implements ICommandHandler<GenerateOccurrencesCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly facts: BookingFactsReader,
    private readonly organisations: OrganisationFactsReader,
    private readonly ids: RotaIds,
  ) {}

  async execute({ cause, seriesId, organisationId, limits }: GenerateOccurrencesCommand): Promise<number> {
    const tenant: Tenant = { organisationId };
    const { timezone: zone } = await this.organisations.of(tenant);
    const stream = streamOf.series(seriesId);
    let [written, stale] = [0, 0];
    while (written < (limits.maxChunks ?? Infinity)) {
      const state = (await this.store.readStream(stream)).reduce<SeriesState | null>(
        (s, e) => evolve(s, e as unknown as RepeatingShiftEvent),
        null,
      );
      const plan = planChunk(state, zone, limits.chunkSize);
      if (!state || !plan) break;
      if (await this.chunk(cause, tenant, zone, state, plan)) [written, stale] = [written + 1, 0];
      else if (++stale >= STALE_PLANS)
        throw new Error(
          `Series ${seriesId}: ${STALE_PLANS} plans in a row were stale or lost; the job's retry will go on`,
        );
    }
    return written;
  }

  /**
   * Appends one chunk; false when the series no longer planned it, or the race was still lost after
   * the store's retries (another run of the series keeps winning): the loop reads and plans again.
   */
  private async chunk(
    cause: Cause,
    tenant: Tenant,
    zone: string,
    series: SeriesState,
    plan: ChunkPlan,
  ): Promise<boolean> {
    try {
      return await this.append(cause, tenant, zone, series, plan);
    } catch (error) {
      if (error instanceof ConcurrencyError) return false;
      throw error;
    }
  }

  private async append(
    cause: Cause,
    tenant: Tenant,
    zone: string,
    series: SeriesState,
    plan: ChunkPlan,
  ): Promise<boolean> {
    const timed = plan.occurrences.filter((o) => o.times !== null);
    const ids = await this.ids.many('shift', timed.length);
    const shiftIds = new Map(timed.map((o, i) => [o.date, ids[i]!]));
    const bookers = timed.length ? await this.facts.bookers(tenant, [series.userId]) : new Map();
    const written = await this.store.write({
      gates: () => ({
        advance: timed.flatMap((o) => [
          gateOf.rotaDay(series.rotaId, o.date),
          ...datesTouched(o.times!, zone).map((d) => gateOf.userDay(series.userId, d)),
        ]),
        hold: [gateOf.rotaCalendar(series.rotaId)],
      }),
      facts: async (db) =>
        timed.length
          ? this.facts.read(
              db,
              tenant,
              {
                rotaIds: [series.rotaId],
                users: { ids: [series.userId], spans: timed.map((o) => o.times!) },
              },
              zone,
            )
          : null,
      streams: () => ({
        series: { streamId: streamOf.series(series.id), evolve },
        ...Object.fromEntries(
          timed.map((o) => [o.date, { streamId: streamOf.shift(shiftIds.get(o.date)!), expect: 'no_stream' as const }]),
        ),
      }),
      decide: (states, { facts, now }) =>
        this.streamsOf(
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
      metadata: cause.metadata,
    });
    return written.events.some((e) => e.streamId === streamOf.series(series.id));
  }

  /** Each event on its stream, with ids derived from the cause, keyed by series and date (stable across attempts). */
  private streamsOf(cause: Cause, seriesId: number, plan: ChunkPlan, events: GenerationEvent[]): StreamEvents[] {
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
}
