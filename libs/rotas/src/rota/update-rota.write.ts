import type { NewEvent } from '#app/event-store';
import { idSource } from '../domain/timeslot-timeline.js';
import { managedRota } from '../domain/rota-access.js';
import type { CallerReach } from '../rotas.policy.js';
import { decideUpdateRota, type UpdateRota, type UpdateRotaContext } from './rota-decisions.js';
import type { RotaState } from './rota.js';

/** What an update reads before its write, and the contact ids drawn for it. */
export interface UpdateRotaReads extends Omit<UpdateRotaContext, 'contactIds'> {
  readonly reach: CallerReach;
  readonly contactIds: readonly number[];
}

/**
 * `PUT /api/rotas/{id}` (decideUpdateRota), on the rota's stream: manage-rotas over the rota's team
 * (404 unknown or another organisation's, 403 hidden or not managed), then the decision. The
 * settings and the replaced contact set go in one append; a concurrent change of the rota wins the
 * race and this one gets the 409.
 */
export function decideRotaUpdate(command: UpdateRota, reads: UpdateRotaReads) {
  const { reach, contactIds, ...context } = reads;
  return (state: RotaState | null): NewEvent[] => {
    managedRota(reach, state?.organisationId === command.organisationId ? state : null);
    return decideUpdateRota(state, command, { ...context, contactIds: idSource(contactIds) });
  };
}
