import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Cause, CausedCommand, ConcurrencyError, EventStore } from '#app/event-store';
import { OrganisationFactsReader } from '#app/identity';
import type { Tenant } from '#app/platform';
import { RotaIds } from '../next-id.js';
import { type RepeatingShiftEvent, streamOf } from '../rotas.events.js';
import { type Booker, BookingFactsReader } from './booking-facts.js';
import { generationWrite, timedOf } from './generate-occurrences.write.js';
import { type ChunkPlan, planChunk } from './generation.js';
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

/** One chunk at a time (planChunk), each one write (generationWrite), until the series is generated or a limit is hit. */
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
  private async chunk(cause: Cause, tenant: Tenant, zone: string, series: SeriesState, plan: ChunkPlan) {
    try {
      const timed = timedOf(plan);
      const ids = await this.ids.many('shift', timed.length);
      const shiftIds = new Map(timed.map((o, i) => [o.date, ids[i]!]));
      const bookers = timed.length ? await this.facts.bookers(tenant, [series.userId]) : new Map<number, Booker>();
      const write = generationWrite({ cause, zone, series, plan, shiftIds, bookers }, (db, ask) =>
        this.facts.read(db, tenant, ask, zone),
      );
      const written = await this.store.write({ ...write, metadata: cause.metadata });
      return written.events.some((e) => e.streamId === streamOf.series(series.id));
    } catch (error) {
      if (error instanceof ConcurrencyError) return false;
      throw error;
    }
  }
}
