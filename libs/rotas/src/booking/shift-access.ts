import type { Caller } from '#app/identity';
import { NotFoundError } from '#app/platform';
import { type BookingAction, checkBookingAccess } from '../domain/booking-rules.js';
import type { CallerReach } from '../rotas.policy.js';
import type { BookingFactsReader, RotaForBooking } from './booking-facts.js';
import { ownerOf } from './shift-changes.js';
import { bookingCaller } from './shift-decisions.js';
import type { ShiftQueries, ShiftRow } from './shift.queries.js';

/** The 404 / 403s before anything else: the shift (seen), its rota and the caller's right to act on the user's shifts there. */
/** The shift the caller sees (404 / 403) and its rota as the rules read it (404 when it went). */
export async function shiftWithRota(
  shifts: ShiftQueries,
  facts: BookingFactsReader,
  caller: Caller,
  reach: CallerReach,
  shiftId: number,
  zone: string,
): Promise<{ row: ShiftRow; rota: RotaForBooking }> {
  const row = await shifts.seen(caller, reach, shiftId);
  const rota = (await facts.rotas(caller, [row.rotaId], zone)).get(row.rotaId);
  if (!rota) throw new NotFoundError('Shift');
  return { row, rota };
}

export async function shiftToChange(
  shifts: ShiftQueries,
  facts: BookingFactsReader,
  caller: Caller,
  reach: CallerReach,
  action: BookingAction,
  shiftId: number,
  zone: string,
): Promise<{ row: ShiftRow; rota: RotaForBooking }> {
  const { row, rota } = await shiftWithRota(shifts, facts, caller, reach, shiftId, zone);
  checkBookingAccess({ action, rota, user: ownerOf(row.userId), caller: bookingCaller({ reach }, rota.teamId) });
  return { row, rota };
}
