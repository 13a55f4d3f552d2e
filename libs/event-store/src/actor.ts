import { createHash } from 'node:crypto';
import type { Actor, EventMetadata, StoredEvent } from './event.types.js';

export const userActor = (userId: number): Actor => ({ kind: 'user', userId });
export const systemActor = (reason: string): Actor => ({ kind: 'system', reason });

/** The actor of a stored event; events recorded before `actor` existed carry `actorId` only. */
export function actorOf(metadata: EventMetadata): Actor | null {
  if (metadata.actor) return metadata.actor;
  return typeof metadata.actorId === 'number' ? userActor(metadata.actorId) : null;
}

/** The user behind an event, or null for the system (what history views and `actor_id` columns show). */
export function actorUserId(metadata: EventMetadata): number | null {
  const actor = actorOf(metadata);
  return actor?.kind === 'user' ? actor.userId : null;
}

/**
 * Metadata for events a worker appends because of `cause`: the system as actor, the causing
 * event as causation, and the cause's correlation (its own id when it started the chain), so the
 * whole chain of one request can be followed through the log.
 */
export function causedBy(cause: Pick<StoredEvent, 'eventId' | 'metadata'>, reason: string): EventMetadata {
  return {
    ...(cause.metadata.organisationId !== undefined && { organisationId: cause.metadata.organisationId }),
    actor: systemActor(reason),
    correlationId: cause.metadata.correlationId ?? cause.eventId,
    causationId: cause.eventId,
  };
}

/**
 * A deterministic event id for the `n`-th event a worker appends because of `causeId` (a UUID in
 * form, from SHA-256): a retried or doubled job appends the same ids, and the store keeps the
 * first (re-appending a stored event id is a no-op).
 */
export function derivedEventId(causeId: string, n: number | string = 0): string {
  const h = createHash('sha256').update(`${causeId}/${n}`).digest('hex');
  // Version 8 ("custom") UUID layout: the version nibble and the RFC 4122 variant bits set.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
