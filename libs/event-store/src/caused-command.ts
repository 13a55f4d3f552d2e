import { WorkerHost } from '@nestjs/bullmq';
import { Command, type CommandBus } from '@nestjs/cqrs';
import type { Job, JobsOptions } from 'bullmq';
import { causedBy, derivedEventId } from './actor.js';
import type { EventMetadata, NewEvent, StoredEvent } from './event.types.js';
import type { ReactorJob } from './reactor.js';

/**
 * Commands from the worker: reactor → BullMQ → processor → command bus → the log.
 *
 * - A reactor enqueues `causedJob(name, event)`: the event's data plus `cause`, the event's id and
 *   metadata (the runner already makes the event id the job id).
 * - The processor extends `CausedJobProcessor`: `react(data, cause)` does the side effect and issues
 *   `CausedCommand`s through the command bus (`issue`), as the system with the processor's reason.
 * - The command's handler appends with `cause.metadata` (actor system(reason), causationId the
 *   event, correlationId its chain) and `cause.identify(key, events)`: event ids derived from the
 *   causing event, so a retried job, or two workers running the same job, append each event once
 *   (the store keeps a stored event id and appends nothing for it). A decision that depends on state
 *   should also see that it happened already and return [], which spares the append altogether.
 */

/** The event a worker acts on, as the job carries it. */
export interface CauseRef {
  readonly eventId: string;
  readonly metadata: EventMetadata;
}

/** A job's data: the causing event's data, and the event itself as `cause`. */
export type CausedJob<D = unknown> = D & { readonly cause: CauseRef };

/**
 * The job a reactor enqueues for `event`: `data` (the event's data unless given) and the event as
 * `cause`. The runner makes the event id the job id.
 */
export function causedJob(
  name: string,
  event: StoredEvent,
  data: object = event.data as object,
  options?: Omit<JobsOptions, 'jobId'>,
): ReactorJob {
  const payload: CausedJob<object> = { ...data, cause: { eventId: event.eventId, metadata: event.metadata } };
  return { name, data: payload, ...(options && { options }) };
}

/** Why the system acts: the causing event, and the reason a person reading the history would want. */
export class Cause {
  constructor(
    readonly event: CauseRef,
    readonly reason: string,
  ) {
    if (!event || !event.eventId) throw new Error('Cause: the causing event has no id');
    if (!reason) throw new Error('Cause: a reason is needed');
  }

  /** Metadata for the events appended because of it (causedBy). */
  get metadata(): EventMetadata {
    return causedBy(this.event, this.reason);
  }

  /**
   * `events` with ids derived from the causing event: the i-th gets `derivedEventId(cause, "key/i")`.
   * `key` names this effect among everything the cause makes happen (one per command, or per stream
   * when one job writes several), so two effects of one event never share an id. It must not change
   * between attempts: the same key and events give the same ids.
   */
  identify<E extends NewEvent>(key: string, events: readonly E[]): (E & { readonly eventId: string })[] {
    if (!key) throw new Error('Cause.identify: a key is needed');
    return events.map((e, i) => ({ ...e, eventId: derivedEventId(this.event.eventId, `${key}/${i}`) }));
  }
}

/** A command the system issues because of an event; its handler appends with `cause.metadata` and `cause.identify`. */
export abstract class CausedCommand<R = void> extends Command<R> {
  constructor(readonly cause: Cause) {
    super();
  }
}

/**
 * A BullMQ processor for a reactor's `causedJob`s: `react` gets the event's data and the cause
 * (with this processor's `reason`), and issues commands with `issue`. A job may run more than once
 * (BullMQ retries a failed one, a stalled one runs again): `react` must be safe to repeat, which the
 * derived event ids give the commands' appends.
 */
export abstract class CausedJobProcessor<D extends object> extends WorkerHost {
  /** The system's reason, as the history shows it ("finance mail"). */
  protected abstract readonly reason: string;

  constructor(protected readonly commands: CommandBus) {
    super();
  }

  async process(job: Job<CausedJob<D>>): Promise<void> {
    await this.react(job.data, new Cause(this.causeOf(job.data), this.reason));
  }

  /** The job's work; `data` is the job's data (its `cause` too), `cause` what its commands carry. */
  protected abstract react(data: D, cause: Cause): Promise<void>;

  /** The job's cause; override to read jobs enqueued before they carried one. */
  protected causeOf(data: CausedJob<D>): CauseRef {
    if (!data.cause) throw new Error(`${this.constructor.name}: the job carries no cause`);
    return data.cause;
  }

  /** Executes a command caused by this job's event. */
  protected issue<R>(command: CausedCommand<R>): Promise<R> {
    return this.commands.execute(command);
  }
}
