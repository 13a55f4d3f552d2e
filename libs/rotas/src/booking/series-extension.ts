import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Job, Queue } from 'bullmq';
import {
  AsReconciler,
  derivedEventId,
  EventStore,
  type ReconcileReason,
  type Reconciles,
  systemActor,
} from '#app/event-store';
import { OrganisationFactsReader } from '#app/identity';
import { addCalendarMonths, isCalendarDate } from '#app/platform';
import { HORIZON_MONTHS } from '../domain/series-dates.js';
import { streamOf } from '../rotas.events.js';
import { decideExtension } from './generation.js';
import { evolve } from './repeating-shift.js';
import { SeriesQueries } from './series.queries.js';

/**
 * The daily extension (docs/rota-domain.md#extension): a BullMQ job scheduler on a queue of its own adds one
 * EXTEND_JOB a day, which moves every open-ended series on to its horizon (RepeatingShiftExtended); the
 * generation reactor then books the new occurrences. Both BullMQ backends keep job schedulers (Redis, and the
 * PostgreSQL backend of the embedded and server modes: its `scheduler` table), so one mechanism
 * serves every mode. Its own queue: the scheduler's next job waits there delayed, and a PostgreSQL
 * backend worker that no notification wakes (embedded mode) sleeps until its queue's next delayed
 * job: right for this queue (it wakes when the job is due), wrong for generation's.
 */
export const SERIES_EXTENSION = 'rotas-series-extension';
export const EXTEND_JOB = 'extend-series';
/** One scheduler, upserted by every worker at start: a second worker, or a restart, changes nothing. */
export const SERIES_EXTENSION_SCHEDULER = 'rotas-series-extension';
/** 03:00 UTC: after midnight in every European and American zone, so "today" has moved on there. */
export const SERIES_EXTENSION_PATTERN = '0 3 * * *';

/** The extension job's data: nothing, or (tests, a catch-up by hand) the date to extend as of instead of each organisation's today. */
export interface ExtensionJob {
  readonly asOf?: string;
}

const REASON = 'series extension';
const EXTEND_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 60_000 },
  removeOnComplete: { age: 7 * 24 * 3600 },
  removeOnFail: { age: 30 * 24 * 3600 },
} as const;

/** Moves one series on to its horizon as of `today`, if it is open-ended and short of it. Answers whether it did. */
export class ExtendSeriesCommand extends Command<boolean> {
  constructor(
    readonly seriesId: number,
    readonly organisationId: number,
    readonly today: string,
    /** The extension run (its job id): what the history correlates the extension by. */
    readonly correlationId: string,
  ) {
    super();
  }
}

/**
 * decideExtension on the series' stream, as the system ("series extension"). The event id is
 * derived from the series and the new `until`, so two runs deciding the same extension at once
 * append it once; a run after it decides [] (the series already reaches its horizon).
 */
@CommandHandler(ExtendSeriesCommand)
export class ExtendSeriesHandler implements ICommandHandler<ExtendSeriesCommand> {
  constructor(private readonly store: EventStore) {}

  async execute({ seriesId, organisationId, today, correlationId }: ExtendSeriesCommand): Promise<boolean> {
    const stream = streamOf.series(seriesId);
    const { events } = await this.store.handle(
      stream,
      evolve,
      (state) =>
        decideExtension(state, { today }).map((e) => ({
          ...e,
          eventId: derivedEventId(stream, `${e.type}/${e.data.until}`),
        })),
      { metadata: { organisationId, actor: systemActor(REASON), correlationId }, retries: 3 },
    );
    return events.length > 0;
  }
}

/**
 * The scheduled job: for each organisation with open-ended series, its today (the organisation's
 * zone), then each series short of the horizon extended. Safe to run twice, or twice at once: the
 * decision is made on each series' stream. Answers (the job's return value) how many it extended.
 */
@Processor(SERIES_EXTENSION)
export class SeriesExtensionProcessor extends WorkerHost {
  constructor(
    private readonly series: SeriesQueries,
    private readonly organisations: OrganisationFactsReader,
    private readonly commands: CommandBus,
  ) {
    super();
  }

  async process(job: Job<ExtensionJob>): Promise<number> {
    const asOf = job.data?.asOf;
    if (asOf !== undefined && !isCalendarDate(asOf))
      throw new Error(`${EXTEND_JOB}: asOf is not a date: ${String(asOf)}`);
    let extended = 0;
    for (const organisationId of await this.series.organisationsWithOpenSeries()) {
      const today = asOf ?? (await this.organisations.of({ organisationId })).today;
      for (const id of await this.series.toExtend({ organisationId }, addCalendarMonths(today, HORIZON_MONTHS))) {
        if (await this.commands.execute(new ExtendSeriesCommand(id, organisationId, today, `${EXTEND_JOB}:${job.id}`)))
          extended++;
      }
    }
    return extended;
  }
}

/**
 * Registers the daily scheduler when the worker starts, and again on each full reconciliation (an
 * upsert: idempotent across restarts and workers), so a Redis that comes back empty has it again
 * within RECONCILE_MS. After such a loss a catch-up run is added too (one a day at most, by its id):
 * the day's run may have been among what was lost, and a run finding nothing to extend costs little.
 */
@AsReconciler()
@Injectable()
export class SeriesExtensionScheduler implements OnApplicationBootstrap, Reconciles {
  private readonly logger = new Logger(SeriesExtensionScheduler.name);

  constructor(@InjectQueue(SERIES_EXTENSION) private readonly queue: Queue<ExtensionJob>) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.ensure();
    this.logger.log(`series extension scheduled daily (${SERIES_EXTENSION_PATTERN} UTC)`);
  }

  async reconcile(reason: ReconcileReason): Promise<void> {
    await this.ensure();
    if (reason === 'lost')
      await this.queue.add(
        EXTEND_JOB,
        {},
        { ...EXTEND_OPTIONS, jobId: `extend-catch-up-${new Date().toISOString().slice(0, 10)}` },
      );
  }

  private async ensure(): Promise<void> {
    await this.queue.upsertJobScheduler(
      SERIES_EXTENSION_SCHEDULER,
      { pattern: SERIES_EXTENSION_PATTERN, tz: 'UTC' },
      {
        name: EXTEND_JOB,
        data: {} satisfies ExtensionJob,
        opts: EXTEND_OPTIONS,
      },
    );
  }
}
