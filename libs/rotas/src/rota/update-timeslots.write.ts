import { idSource } from '../domain/timeslot-timeline.js';
import { MAX_TIMESLOTS } from '../domain/weekly-timeslots.js';
import { managedRota } from '../domain/rota-access.js';
import type { CallerReach } from '../rotas.policy.js';
import type { RotaChange } from './rota-change.write.js';
import { decideUpdateTimeslots, type UpdateTimeslots } from './rota-decisions.js';

/** How many timeslots the body holds (at most MAX_TIMESLOTS ids are drawn: more is refused). */
export function sentTimeslots(weekdays: unknown): number {
  if (typeof weekdays !== 'object' || weekdays === null) return 0;
  const count = Object.values(weekdays).reduce((n: number, day) => n + (Array.isArray(day) ? day.length : 0), 0);
  return Math.min(count, MAX_TIMESLOTS);
}

/** A timeslots change as its write decides it: the body, the caller's reach, the zone's today and the ids drawn. */
export interface TimeslotsChange {
  readonly rotaId: number;
  readonly command: UpdateTimeslots;
  readonly reach: CallerReach;
  readonly zone: string;
  readonly today: string;
  readonly timeslotIds: readonly number[];
}

/**
 * `PUT /api/rotas/{id}/timeslots` (decideUpdateTimeslots): manage-rotas over the rota's team (404
 * unknown or another organisation's, 403 hidden or not managed); "today" is the organisation
 * zone's; the new timeslots' ids are drawn before the decision. The shifts left outside the new
 * timeslots are cancelled in the same write (rotaChangeWrite).
 */
export function updateTimeslotsChange(c: TimeslotsChange): RotaChange {
  return {
    zone: c.zone,
    rotaIds: [c.rotaId],
    decide: ({ rotas }) => {
      const state = rotas.get(c.rotaId) ?? null;
      managedRota(c.reach, state?.organisationId === c.command.organisationId ? state : null);
      // A fresh source each attempt: the write may run again.
      return decideUpdateTimeslots(state, c.command, { today: c.today, newIds: idSource(c.timeslotIds) });
    },
  };
}
