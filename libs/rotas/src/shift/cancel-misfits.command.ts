import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Cause, CausedCommand, EventStore, type HandledStream, type StreamEvents } from '#app/event-store';
import { OrganisationFactsReader } from '#app/identity';
import { shiftsThatNoLongerFit } from '../domain/shift-fit.js';
import { evolve as evolveSeries, type SeriesState } from '../repeating-shift/repeating-shift.js';
import { calendarOf, evolve as evolveRota, type RotaState } from '../rota/rota.js';
import { type RotaEvent, streamOf } from '../rotas.events.js';
import {
  bookedShiftOf,
  type CalendarChangeType,
  type CancelMisfits,
  decideCancelMisfits,
  evolveTrackedShift,
  type MisfitEvent,
  misfitsStateOf,
  seriesEndOf,
  type TrackedShift,
} from './misfits.js';
import { ShiftSystemQueries } from './shift-system.queries.js';

/** What the job carries of the rota change (misfits.reactor.ts). */
export interface MisfitJobData {
  readonly id: number;
  readonly organisationId: number;
  readonly effectiveFrom: string;
  readonly type: CalendarChangeType;
  readonly position: number;
  readonly streamVersion: number;
}

/** Answers how many shifts it cancelled. */
export class CancelMisfitsCommand extends CausedCommand<number> {
  constructor(
    cause: Cause,
    readonly change: MisfitJobData,
  ) {
    super(cause);
  }
}

/** A write that lost to a concurrent edit of one of its shifts decides again this often before the job fails (and BullMQ retries it). */
const MISFIT_RETRIES = 5;

/**
 * The worker's cancellation of the shifts a rota change left outside the rota (decideCancelMisfits).
 * Before the write: the rota's stream up to the change (the calendar before and after it), the
 * organisation's zone, and the rows of the rota's booked shifts from `effectiveFrom` on; only those
 * that may not fit the calendar after the change have their streams read. Then one handleMany over
 * those shift streams (and, for an archive or end date, the rota's open series) at the versions
 * read, as the system caused by the change, event ids derived from it per stream: a retried or
 * doubled job appends nothing twice, and a shift edited meanwhile makes the write lose and decide
 * again on the edit.
 */
@CommandHandler(CancelMisfitsCommand)
export class CancelMisfitsHandler implements ICommandHandler<CancelMisfitsCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly queries: ShiftSystemQueries,
    private readonly organisations: OrganisationFactsReader,
  ) {}

  async execute({ cause, change }: CancelMisfitsCommand): Promise<number> {
    const tenant = { organisationId: change.organisationId };
    const { before, after } = await this.rotaAround(change);
    if (!after || after.organisationId !== change.organisationId) return 0;
    const command: CancelMisfits = {
      change: change.type,
      organisationId: change.organisationId,
      rotaId: change.id,
      position: change.position,
      effectiveFrom: change.effectiveFrom,
      before: before && calendarOf(before),
      after: calendarOf(after),
    };
    const endsSeries = seriesEndOf(command) !== null;
    const [{ timezone: zone }, rows, seriesIds] = await Promise.all([
      this.organisations.of(tenant),
      this.queries.bookedOfRota(tenant, change.id, change.effectiveFrom),
      endsSeries ? this.queries.openSeriesOfRota(tenant, change.id) : Promise.resolve([]),
    ]);
    const context = { zone, requireFullTimeslot: after.requireFullTimeslot };
    // A row that fits now fits whatever its stream says: a later booking or move was checked against this calendar already.
    const candidates = shiftsThatNoLongerFit(command.after, rows.map(bookedShiftOf), {
      ...context,
      now: Date.now(),
      before: command.before,
    }).map((m) => m.shift_id);
    if (candidates.length === 0 && seriesIds.length === 0) return 0;
    const streams: HandledStream[] = [
      ...candidates.map((id) => ({ streamId: streamOf.shift(id), evolve: evolveTrackedShift })),
      ...seriesIds.map((id) => ({ streamId: streamOf.series(id), evolve: evolveSeries })),
    ];
    let cancelled = 0;
    await this.store.handleMany(
      streams,
      (states) => {
        const all = states as unknown as (TrackedShift | SeriesState | null)[];
        const state = misfitsStateOf(
          all.slice(0, candidates.length) as (TrackedShift | null)[],
          all.slice(candidates.length) as (SeriesState | null)[],
        );
        const events = decideCancelMisfits(state, command, { ...context, now: Date.now() });
        cancelled = events.filter((e) => e.type === 'rotas.ShiftCancelled').length;
        return byStream(events).map(({ streamId, events: own }) => ({
          streamId,
          events: cause.identify(streamId, own),
        }));
      },
      { metadata: cause.metadata, retries: MISFIT_RETRIES },
    );
    return cancelled;
  }

  /** The rota as it stood just before the change and just after it (later events have jobs of their own). */
  private async rotaAround(change: MisfitJobData): Promise<{ before: RotaState | null; after: RotaState | null }> {
    const events = (await this.store.readStream(streamOf.rota(change.id))) as unknown as (RotaEvent & {
      streamVersion: number;
    })[];
    const fold = (upTo: number) =>
      events.filter((e) => e.streamVersion <= upTo).reduce<RotaState | null>(evolveRota, null);
    return { before: fold(change.streamVersion - 1), after: fold(change.streamVersion) };
  }
}

/** The decision's events grouped by the stream each belongs to, in the order decided. */
function byStream(events: readonly MisfitEvent[]): StreamEvents[] {
  const grouped = new Map<string, MisfitEvent[]>();
  for (const e of events) {
    const streamId = e.type === 'rotas.ShiftCancelled' ? streamOf.shift(e.data.id) : streamOf.series(e.data.id);
    grouped.set(streamId, [...(grouped.get(streamId) ?? []), e]);
  }
  return [...grouped].map(([streamId, own]) => ({ streamId, events: own }));
}
