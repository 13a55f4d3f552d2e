import { Injectable } from '@nestjs/common';
import { AsReactor, type Reactor, type ReactorJob, type StoredEvent } from '#app/event-store';
import { EVENT_SOURCES } from '../event-types.js';
import { WEBHOOKS_FAN_OUT_QUEUE } from './delivery-queue.js';

/** One internal event that may become webhooks: what the fan-out needs to build them. */
export interface FanOutJob {
  eventId: string;
  type: string;
  organisationId: number;
  recordId: number;
  /** ISO 8601: the body's `timestamp`. */
  recordedAt: string;
}

/**
 * Follows the log for the event types of docs/webhooks.md#event-types (event-types.ts, the one
 * table): one fan-out job per event, its id the event's, so a batch offered again adds nothing.
 */
@AsReactor()
@Injectable()
export class FanOutReactor implements Reactor {
  readonly name = 'webhooks.fan-out';
  readonly queue = WEBHOOKS_FAN_OUT_QUEUE;
  readonly handles = Object.freeze(Object.keys(EVENT_SOURCES));

  toJob(event: StoredEvent): ReactorJob | null {
    const source = EVENT_SOURCES[event.type];
    const data = event.data as Record<string, unknown>;
    const organisationId = Number(data.organisationId ?? event.metadata.organisationId);
    if (!source || !organisationId) return null;
    const job: FanOutJob = {
      eventId: event.eventId,
      type: event.type,
      organisationId,
      recordId: Number(data[source.idField]),
      recordedAt: new Date(event.recordedAt).toISOString(),
    };
    return { name: source.publicType, data: job };
  }
}
