import type { EventMetadata, StoredEvent } from './event.types.js';

/** Thrown when a projection reads a field of a pending event that only the database assigns. */
export class NotYetStored extends Error {
  constructor(field: string) {
    super(`${field} is assigned when the event is stored`);
  }
}

export interface PendingFields {
  readonly eventId: string;
  readonly streamId: string;
  readonly streamVersion: number;
  readonly type: string;
  readonly schemaVersion: number;
  readonly recordedAt: Date;
}

/**
 * An event as it will be stored, before it is: everything but `position` and `transactionId`,
 * which throw. Projections see it so their writes can travel in the append's own statement; one
 * that reads those fields throws NotYetStored, and the append takes the path that stores first.
 * Data and metadata come as the JSON sent to the jsonb columns, so projections see what a read
 * of the stored event would give.
 */
export function pendingEvent(fields: PendingFields, dataJson: string, metadataJson: string): StoredEvent {
  const event = { ...fields, data: JSON.parse(dataJson) as unknown, metadata: JSON.parse(metadataJson) as EventMetadata };
  for (const field of ['position', 'transactionId']) {
    Object.defineProperty(event, field, {
      enumerable: false,
      get() {
        throw new NotYetStored(field);
      },
    });
  }
  return event as unknown as StoredEvent;
}
