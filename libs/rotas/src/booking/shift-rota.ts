import type { Caller, OrganisationFactsReader } from '#app/identity';
import { NotFoundError } from '#app/platform';
import type { CallerReach, RotasPolicy } from '../rotas.policy.js';
import type { BookingFactsReader, RotaForBooking } from './booking-facts.js';
import type { ShiftQueries } from './shift.queries.js';

/** What shiftRota reads with. */
export interface ShiftRotaReads {
  readonly policy: Pick<RotasPolicy, 'reach'>;
  readonly facts: Pick<BookingFactsReader, 'rotas'>;
  readonly shifts: Pick<ShiftQueries, 'seen'>;
  readonly organisations: Pick<OrganisationFactsReader, 'of'>;
}

/**
 * Before a decision on one shift's stream: the caller's reach, the booked shift they see (404 /
 * 403) and its rota as the rules read it (404 when it went).
 */
export async function shiftRota(
  reads: ShiftRotaReads,
  caller: Caller,
  shiftId: number,
): Promise<{ reach: CallerReach; rota: RotaForBooking }> {
  const [{ timezone: zone }, reach] = await Promise.all([reads.organisations.of(caller), reads.policy.reach(caller)]);
  const row = await reads.shifts.seen(caller, reach, shiftId);
  const rota = (await reads.facts.rotas(caller, [row.rotaId], zone)).get(row.rotaId);
  if (!rota) throw new NotFoundError('Shift');
  return { reach, rota };
}
