import type { EventMetadata, StoredEvent } from './event.types.js';

/** Thrown when a projection reads a field of a pending event that only the database assigns. */
export class NotYetStored extends Error {
  constructor(field: string) {
    super(`${field} is assigned when the event is stored`);
  }
}

/** What the appending process knows of an event before it is stored. */
export type PendingFields = Omit<StoredEvent, 'position' | 'transactionId' | 'data' | 'metadata'>;

/**
 * An event as it will be stored, before it is: everything but `position` and `transactionId`,
 * which throw. Projections see it so their writes can travel in the append's own statement; one
 * that reads those fields throws NotYetStored, and the append takes the path that stores first.
 * Data and metadata come as the JSON sent to the jsonb columns, so projections see what a read
 * of the stored event would give. A class, not per-object property definitions: this is built on
 * every write, and the throwing getters then live once, on the prototype.
 */
class PendingEvent implements PendingFields {
  readonly eventId: PendingFields['eventId'];
  readonly streamId: PendingFields['streamId'];
  readonly streamVersion: PendingFields['streamVersion'];
  readonly type: PendingFields['type'];
  readonly schemaVersion: PendingFields['schemaVersion'];
  readonly recordedAt: PendingFields['recordedAt'];
  readonly data: unknown;
  readonly metadata: EventMetadata;

  constructor(fields: PendingFields, dataJson: string, metadataJson: string) {
    this.eventId = fields.eventId;
    this.streamId = fields.streamId;
    this.streamVersion = fields.streamVersion;
    this.type = fields.type;
    this.schemaVersion = fields.schemaVersion;
    this.recordedAt = fields.recordedAt;
    this.data = JSON.parse(dataJson);
    this.metadata = JSON.parse(metadataJson) as EventMetadata;
  }

  get position(): never {
    throw new NotYetStored('position');
  }

  get transactionId(): never {
    throw new NotYetStored('transactionId');
  }
}

export function pendingEvent(fields: PendingFields, dataJson: string, metadataJson: string): StoredEvent {
  return new PendingEvent(fields, dataJson, metadataJson) as unknown as StoredEvent;
}
