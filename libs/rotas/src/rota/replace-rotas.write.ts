import type { RotaChange } from './rota-change.write.js';
import { decideReplace, type ReplaceCommand, type ReplaceContext } from './replace-rotas.js';
import { rotasToRead } from './bulk.js';

/**
 * `POST /api/rotas/replace` (decideReplace): the caller's reach, today and the pattern (tenant-scoped,
 * from the `shift_patterns` table) are read first, and the timeslot ids drawn, the pattern's count
 * for each rota; then one decision over every listed rota's stream, appended together or not at
 * all, with the cancellations of the shifts left outside the new timeslots (rotaChangeWrite). A
 * pattern is never changed after it is made (only archived), so its timeslots read before are the
 * ones it holds at the write.
 */
export function replaceRotasChange(command: ReplaceCommand, context: ReplaceContext, zone: string): RotaChange {
  return { zone, rotaIds: rotasToRead(command.rotaIds), decide: ({ rotas }) => decideReplace(rotas, command, context) };
}
