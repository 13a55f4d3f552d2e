import { type EventMetadata, userActor } from '#app/event-store';
import type { Caller } from './caller.js';

/**
 * The metadata of every event a user's command appends: the organisation, the user as actor, and
 * the request's id as correlation, so the events of one request can be found together. Log-in,
 * which has no Caller yet, passes the user it is logging in.
 */
export function metadataOf(caller: Pick<Caller, 'organisationId' | 'userId' | 'requestId'>): EventMetadata {
  return {
    organisationId: caller.organisationId,
    actor: userActor(caller.userId),
    ...(caller.requestId !== undefined && { correlationId: caller.requestId }),
  };
}
