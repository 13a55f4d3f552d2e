import type { EventMetadata, StoredEvent } from './event.types.js';
import type { EventUpcasters } from './upcasters.js';

export const EVENT_COLUMNS = `position, transaction_id::text AS transaction_id, event_id, stream_id, stream_version,
  type, schema_version, data, metadata, recorded_at`;

export interface EventRow {
  position: string;
  transaction_id: string;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

export function toStoredEvent(row: EventRow, upcasters: EventUpcasters): StoredEvent {
  const { schemaVersion, data } = upcasters.upcast(row.type, row.schema_version, row.data);
  return {
    position: Number(row.position),
    transactionId: row.transaction_id,
    eventId: row.event_id,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    schemaVersion,
    data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
  };
}
