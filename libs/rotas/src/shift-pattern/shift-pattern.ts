import { ConflictError, isIdRef, NotFoundError } from '#app/platform';
import { type Checked, checked, checkPattern } from '../domain/pattern-rules.js';
import { type Refusal, refusal, throwIfRefused } from '../domain/refusals.js';
import { checkRotaName } from '../domain/rota-rules.js';
import { byWeekStart, type RotaTimeslot, type Staffing, type WeeklyTimeslot } from '../domain/weekly-timeslots.js';
import type { ShiftPatternEvent } from '../rotas.events.js';

/**
 * A shift pattern as its decisions see it. One stream per pattern (`rotas.ShiftPattern-<id>`): it
 * is created once and may be archived; nothing else changes it (a rota copies its timeslots when it
 * is made, so rotas never follow a pattern afterwards).
 */
export interface ShiftPatternState {
  readonly id: number;
  readonly organisationId: number;
  readonly name: string;
  readonly min: number;
  readonly ideal: number;
  readonly max: number;
  readonly categoryId: number | null;
  readonly timeslots: readonly RotaTimeslot[];
  readonly archived: boolean;
}

export function evolve(state: ShiftPatternState | null, event: ShiftPatternEvent): ShiftPatternState | null {
  switch (event.type) {
    case 'rotas.ShiftPatternCreated':
      return { ...event.data, archived: false };
    case 'rotas.ShiftPatternArchived':
      return state && { ...state, archived: true };
  }
}

/** The create body as sent (types unchecked: `checkShiftPattern` checks every field). */
export interface ShiftPatternBody {
  readonly name?: unknown;
  readonly min?: unknown;
  readonly ideal?: unknown;
  readonly max?: unknown;
  readonly category?: unknown;
  readonly pattern?: unknown;
}

/** What the handler looked up before deciding: whether the body's `category.id` is an activity category of the organisation. */
export interface CreateContext {
  readonly categoryKnown: boolean;
}

/** A body that passed every rule: the pattern's numbers (defaults filled in) and its timeslots in week order. */
export interface CheckedShiftPattern extends Staffing {
  readonly name: string;
  readonly categoryId: number | null;
  readonly timeslots: readonly WeeklyTimeslot[];
}

const STAFFING = ['min', 'ideal', 'max'] as const;
const TIMESLOT_FIELDS: ReadonlySet<string> = new Set([
  'weekday_start',
  'start_time',
  'weekday_end',
  'end_time',
  ...STAFFING,
]);
const isWholeNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Decision (the interface marks only `name` required; docs/rota-domain.md#shift-patterns): the pattern's own
 * min, ideal and max are optional. One left out defaults to 1, moved only as far as the numbers given need to keep
 * min ≤ ideal ≤ max (only max 5 gives 1/1/5, only min 3 gives 3/3/3, only ideal 0 gives 0/0/1).
 * A timeslot that leaves a number out takes the pattern's (docs/rota-domain.md#shift-patterns). `null` is refused: the
 * record's numbers are never null.
 */
export function patternStaffing(body: ShiftPatternBody): {
  numbers: Record<keyof Staffing, unknown>;
  refusals: Refusal[];
} {
  const refusals = STAFFING.flatMap((name) =>
    body[name] === null ? [refusal(name, `The ${name} field must not be null.`)] : [],
  );
  const given = (name: keyof Staffing) => (isWholeNumber(body[name]) ? body[name] : undefined);
  const [gMin, gIdeal, gMax] = [given('min'), given('ideal'), given('max')];
  // A number sent but wrong (a string, -1) stays as sent, for checkPattern to refuse.
  const sent = (name: keyof Staffing) => body[name] !== undefined && body[name] !== null;
  const min = sent('min') ? body.min : Math.min(1, gIdeal ?? Infinity, gMax ?? Infinity);
  const max = sent('max') ? body.max : Math.max(1, gMin ?? 0, gIdeal ?? 0);
  const low = isWholeNumber(min) ? min : 0;
  const high = isWholeNumber(max) ? max : Infinity;
  const ideal = sent('ideal') ? body.ideal : Math.min(Math.max(1, low), high);
  return { numbers: { min, ideal, max }, refusals };
}

/** Keys a pattern timeslot does not have: each refused under its own key (`pattern.2.colour`). */
function unknownTimeslotFields(pattern: unknown): Refusal[] {
  if (!Array.isArray(pattern)) return [];
  return pattern.flatMap((item, i) =>
    isObject(item)
      ? Object.keys(item)
          .filter((key) => !TIMESLOT_FIELDS.has(key))
          .map((key) => refusal(`pattern.${i}.${key}`, `The pattern.${i}.${key} field is not allowed.`))
      : [],
  );
}

function categoryOf(category: unknown, ctx: CreateContext): { id: number | null; refusals: Refusal[] } {
  if (category === undefined || category === null) return { id: null, refusals: [] };
  if (!isIdRef(category))
    return { id: null, refusals: [refusal('category', 'The category field must be an object { "id": … } or null.')] };
  if (!ctx.categoryKnown)
    return {
      id: null,
      refusals: [refusal('category.id', 'The selected category.id is not an activity category of the organisation.')],
    };
  return { id: category.id, refusals: [] };
}

/**
 * Every rule of docs/rota-domain.md#shift-patterns over a create body, all refusals together (one 422):
 * `name` 1–255 characters; the pattern's numbers (patternStaffing); `category` null, absent or
 * `{ id }` of one of the organisation's activity categories; `pattern` 1–200 timeslots that do
 * not overlap, the week's wrap-around included (checkPattern), with no fields of their own beyond
 * the entry's. The timeslots come back in week order (Monday 00:00 first).
 */
export function checkShiftPattern(body: ShiftPatternBody, ctx: CreateContext): Checked<CheckedShiftPattern> {
  const { numbers, refusals: nulls } = patternStaffing(body);
  const category = categoryOf(body.category, ctx);
  const pattern = checkPattern({ ...numbers, pattern: body.pattern });
  const refusals = [
    ...checkRotaName(body.name, 'name'),
    ...nulls,
    ...category.refusals,
    ...unknownTimeslotFields(body.pattern),
    ...(pattern.ok ? [] : pattern.refusals),
  ];
  return checked(refusals, () => ({
    name: body.name as string,
    ...(numbers as Record<keyof Staffing, number>),
    categoryId: category.id,
    timeslots: byWeekStart((pattern as { value: WeeklyTimeslot[] }).value),
  }));
}

export interface CreateShiftPattern {
  readonly id: number;
  readonly organisationId: number;
  readonly body: ShiftPatternBody;
  /** Drawn by the handler, one per timeslot of the checked body; given to the timeslots in week order. */
  readonly timeslotIds: readonly number[];
}

/** A new pattern: its stream must be new (the id was just drawn), and its body pass checkShiftPattern. */
export function decideCreate(
  state: ShiftPatternState | null,
  cmd: CreateShiftPattern,
  ctx: CreateContext,
): ShiftPatternEvent[] {
  if (state) throw new ConflictError('The shift pattern exists already.');
  const result = checkShiftPattern(cmd.body, ctx);
  if (!result.ok) {
    throwIfRefused(result.refusals);
    throw new Error('unreachable');
  }
  const { timeslots, ...pattern } = result.value;
  if (cmd.timeslotIds.length !== timeslots.length)
    throw new Error(`decideCreate: ${timeslots.length} timeslots, ${cmd.timeslotIds.length} ids drawn`);
  return [
    {
      type: 'rotas.ShiftPatternCreated',
      data: {
        id: cmd.id,
        organisationId: cmd.organisationId,
        ...pattern,
        timeslots: timeslots.map((slot, i) => ({ id: cmd.timeslotIds[i]!, ...slot })),
      },
    },
  ];
}

export interface ArchiveShiftPattern {
  readonly organisationId: number;
}

/**
 * `DELETE /api/shift-patterns/{id}`: another organisation's pattern, or none, is not found.
 * Decision: archiving an archived pattern changes nothing and records nothing (a 204 again, as a
 * repeated DELETE should be); its `deleted_at` stays the first archive's.
 */
export function decideArchive(state: ShiftPatternState | null, cmd: ArchiveShiftPattern): ShiftPatternEvent[] {
  if (!state || state.organisationId !== cmd.organisationId) throw new NotFoundError('Shift pattern');
  if (state.archived) return [];
  return [{ type: 'rotas.ShiftPatternArchived', data: { id: state.id, organisationId: state.organisationId } }];
}
