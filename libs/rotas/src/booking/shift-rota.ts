import type { Caller, OrganisationFactsReader } from '#app/identity';
import type { CallerReach, RotasPolicy } from '../rotas.policy.js';
import type { BookingFactsReader, RotaForBooking } from './booking-facts.js';
import { shiftWithRota } from './shift-access.js';
import type { ShiftQueries } from './shift.queries.js';

/** What shiftRota reads with. */
export interface ShiftRotaReads {
  readonly policy: RotasPolicy;
  readonly facts: BookingFactsReader;
  readonly shifts: ShiftQueries;
  readonly organisations: OrganisationFactsReader;
}

/** Before a decision on one shift's stream: the caller's reach, then shiftWithRota (404 / 403, its rota). */
export async function shiftRota(
  reads: ShiftRotaReads,
  caller: Caller,
  shiftId: number,
): Promise<{ reach: CallerReach; rota: RotaForBooking }> {
  const [{ timezone: zone }, reach] = await Promise.all([reads.organisations.of(caller), reads.policy.reach(caller)]);
  const { rota } = await shiftWithRota(reads.shifts, reads.facts, caller, reach, shiftId, zone);
  return { reach, rota };
}
