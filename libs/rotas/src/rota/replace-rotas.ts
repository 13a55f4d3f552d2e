import { ConflictError, ValidationError } from '#app/platform';
import { type Refusal, refusal, throwIfRefused, toFieldErrors } from '../domain/refusals.js';
import { checkRotaName } from '../domain/rota-rules.js';
import { applyTimeslots, checkWriteRange, decideTimeslotWrite, idSource } from '../domain/timeslot-timeline.js';
import type { RotaTimeslot, WeeklyTimeslot } from '../domain/weekly-timeslots.js';
import type { RotaEvent } from '../rotas.events.js';
import { managedRotas, type Rotas } from './bulk.js';
import { calendarData } from './rota.js';

/**
 * `POST /api/rotas/replace` (docs/rota-domain.md#replace): each listed rota gets the pattern's timeslots over
 * `[start_date, end_date]` exactly as an update of timeslots would (end_date absent or null: from
 * start_date on, later versions dropped; given: what stood after it stands again), the pattern
 * recorded as the rota's pattern, and the new name when `name` is given. The rota's own start and
 * end do not move. All or nothing.
 *
 * Decisions where the docs are silent (also in the route's OpenAPI description):
 * - `name` null is the same as absent (no rename); `replace_rotas` may repeat an id (acted on once).
 * - An archived rota among `replace_rotas` refuses the whole request (409): an archived rota
 *   refuses every change.
 * - `start_date` may lie before a rota's start or after its end: the timeslots are written over the
 *   range all the same and count only on the dates the rota is active.
 */

/** A shift pattern as replace needs it (ShiftPatternQueries.forRota: null when unknown or another organisation's). */
export interface PatternForReplace {
  readonly id: number;
  readonly timeslots: readonly RotaTimeslot[];
  readonly archived: boolean;
}

export interface ReplaceCommand {
  readonly organisationId: number;
  readonly rotaIds: readonly number[];
  readonly patternId: number;
  readonly startDate: unknown;
  readonly endDate?: unknown;
  readonly name?: unknown;
}

export interface ReplaceContext {
  /** Today in the organisation's zone. */
  readonly today: string;
  /** The teams the caller's manage-rotas reaches. */
  readonly manages: ReadonlySet<number>;
  /** The pattern `patternId` names, among the organisation's (null: unknown, or another organisation's). */
  readonly pattern: PatternForReplace | null;
  /** Timeslot ids drawn beforehand: the pattern's count for each distinct rota. */
  readonly timeslotIds: readonly number[];
}

/** The pattern's timeslots without its own ids: each rota gives them new ones. */
const weekly = (timeslots: readonly RotaTimeslot[]): WeeklyTimeslot[] => timeslots.map(({ id: _id, ...slot }) => slot);

/** A pattern replace may use: one of the organisation's, not archived (else a 422 naming `pattern_id`). */
function checkPattern(pattern: PatternForReplace | null): Refusal[] {
  if (!pattern) return [refusal('pattern_id', 'The pattern_id field names no shift pattern of this organisation.')];
  if (pattern.archived)
    return [refusal('pattern_id', 'The pattern_id field names an archived shift pattern, which cannot be used.')];
  return [];
}

/**
 * Replace's decision. One 422 names every bad field (replace_rotas, pattern_id, name, start_date,
 * end_date); then an archived rota is a 409; then one RotaPatternReplaced a rota, with
 * `effectiveFrom` the start date and the calendar after the write.
 */
export function decideReplace(rotas: Rotas | null, cmd: ReplaceCommand, ctx: ReplaceContext): RotaEvent[] {
  const { rotas: targets, refusals } = managedRotas(
    rotas ?? new Map(),
    cmd.rotaIds,
    cmd.organisationId,
    ctx.manages,
    'replace_rotas',
  );
  refusals.push(...checkPattern(ctx.pattern));
  const renamed = cmd.name !== undefined && cmd.name !== null;
  if (renamed) refusals.push(...checkRotaName(cmd.name, 'name'));
  const fields = { from: 'start_date', to: 'end_date' };
  const range = { from: cmd.startDate, to: cmd.endDate };
  refusals.push(...checkWriteRange(range, ctx.today, fields));
  throwIfRefused(refusals);
  const archived = targets.filter((r) => r.archived).map((r) => r.id);
  if (archived.length)
    throw new ConflictError(
      `An archived rota refuses every change; replace_rotas names archived rotas: ${archived.join(', ')}.`,
    );
  const slots = weekly(ctx.pattern!.timeslots);
  const newIds = idSource(ctx.timeslotIds);
  return targets.map((r): RotaEvent => {
    const write = decideTimeslotWrite(range, slots, { today: ctx.today, newIds }, fields);
    // The range passed checkWriteRange above, so this refusal cannot happen; it stays a 422 if it did.
    if (!write.ok) throw new ValidationError(toFieldErrors(write.refusals));
    const timeline = applyTimeslots(r.timeline, write.value);
    return {
      type: 'rotas.RotaPatternReplaced',
      data: {
        id: r.id,
        organisationId: r.organisationId,
        effectiveFrom: write.value.from,
        calendar: calendarData({ ...r, timeline }),
        patternId: ctx.pattern!.id,
        from: write.value.from,
        to: write.value.to ?? null,
        timeslots: [...write.value.timeslots],
        name: renamed ? (cmd.name as string) : null,
      },
    };
  });
}
