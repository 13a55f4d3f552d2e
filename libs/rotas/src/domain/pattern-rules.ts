import { type Refusal, refusal, requiredMessage } from './refusals.js';
import {
  arcOf,
  clockMinutes,
  clockTime,
  isWeekday,
  MAX_TIMESLOTS,
  overlapsWithEarlier,
  type Staffing,
  staffingNumberRefusal,
  staffingOrderRefusals,
  wallMinutes,
  type Weekday,
  type WeeklyTimeslot,
} from './weekly-timeslots.js';

/** A rule check: the value it yields, or every refusal. */
export type Checked<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusals: Refusal[] };

/** The value, or the refusals with one a field (the first: the most basic rule it breaks). */
export function checked<T>(refusals: readonly Refusal[], value: () => T): Checked<T> {
  if (!refusals.length) return { ok: true, value: value() };
  const seen = new Set<string>();
  return { ok: false, refusals: refusals.filter((r) => !seen.has(r.field) && seen.add(r.field)) };
}

/** The create-pattern body's timeslot part, as sent (types unchecked: every field is checked here). */
export interface PatternBody {
  readonly min?: unknown;
  readonly ideal?: unknown;
  readonly max?: unknown;
  readonly pattern?: unknown;
}

const STAFFING = ['min', 'ideal', 'max'] as const;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * docs/rota-domain.md#shift-patterns: the pattern's timeslots, each ending at the first weekday_end/end_time
 * after its start (equal start and end refused), none overlapping another (the week's wrap-around
 * included), 1 to 200 of them, with min ≤ ideal ≤ max, max ≥ 1, whole numbers ≥ 0; a timeslot that
 * leaves a number out takes the pattern's own. Decision: a pattern holds at least one timeslot (a
 * rota made from an empty one would be closed every day). Every refusal is returned, keyed
 * `pattern.3.max`; the timeslots come back in the order sent, times as `HH:MM`.
 */
export function checkPattern(body: PatternBody): Checked<WeeklyTimeslot[]> {
  const refusals: Refusal[] = STAFFING.flatMap((name) => staffingNumberRefusal(body[name], name) ?? []);
  const own = patternStaffing(body, refusals);
  if (own.min !== undefined && own.ideal !== undefined && own.max !== undefined) {
    refusals.push(...staffingOrderRefusals(own as Staffing, { min: 'min', ideal: 'ideal', max: 'max' }));
  }
  const items = body.pattern;
  if (items === undefined || items === null)
    return { ok: false, refusals: [...refusals, refusal('pattern', requiredMessage('pattern'))] };
  if (!Array.isArray(items))
    return { ok: false, refusals: [...refusals, refusal('pattern', 'The pattern field must be an array.')] };
  if (items.length === 0)
    return {
      ok: false,
      refusals: [...refusals, refusal('pattern', 'The pattern field must have at least 1 timeslot.')],
    };
  if (items.length > MAX_TIMESLOTS)
    return {
      ok: false,
      refusals: [
        ...refusals,
        refusal('pattern', `The pattern field must not have more than ${MAX_TIMESLOTS} timeslots.`),
      ],
    };
  const slots = items.map((item, i) => patternTimeslot(item, `pattern.${i}`, own, refusals));
  refusals.push(...overlapRefusals(slots, (i) => `pattern.${i}`));
  return checked(refusals, () => slots as WeeklyTimeslot[]);
}

/** The pattern's own numbers that are usable as defaults (absent or refused ones are undefined). */
function patternStaffing(body: PatternBody, refusals: readonly Refusal[]): Partial<Staffing> {
  const usable = (name: keyof Staffing) =>
    typeof body[name] === 'number' && !refusals.some((r) => r.field === name) ? (body[name] as number) : undefined;
  return { min: usable('min'), ideal: usable('ideal'), max: usable('max') };
}

/** One pattern timeslot checked, or null when it breaks a rule (its refusals pushed). */
function patternTimeslot(
  item: unknown,
  at: string,
  defaults: Partial<Staffing>,
  refusals: Refusal[],
): WeeklyTimeslot | null {
  if (!isObject(item)) {
    refusals.push(refusal(at, `The ${at} field must be an object.`));
    return null;
  }
  const before = refusals.length;
  const weekday = (name: 'weekday_start' | 'weekday_end') => weekdayOf(item[name], `${at}.${name}`, refusals);
  const time = (name: 'start_time' | 'end_time') => timeOf(item[name], `${at}.${name}`, refusals);
  const [weekday_start, start_time, weekday_end, end_time] = [
    weekday('weekday_start'),
    time('start_time'),
    weekday('weekday_end'),
    time('end_time'),
  ];
  const staffing = staffingOf(item, at, defaults, refusals);
  if (
    refusals.length > before ||
    !weekday_start ||
    !weekday_end ||
    start_time === null ||
    end_time === null ||
    !staffing
  )
    return null;
  const slot = { weekday_start, start_time, weekday_end, end_time, ...staffing };
  if (wallMinutes(slot) === 0) {
    refusals.push(
      refusal(
        `${at}.end_time`,
        `The ${at}.end_time field must differ from its start: a timeslot ends at the first ${at}.weekday_end ${at}.end_time after its start.`,
      ),
    );
    return null;
  }
  return slot;
}

function weekdayOf(value: unknown, field: string, refusals: Refusal[]): Weekday | null {
  if (value === undefined || value === null) refusals.push(refusal(field, requiredMessage(field)));
  else if (!isWeekday(value))
    refusals.push(refusal(field, `The ${field} field must be a lower-case weekday name, monday to sunday.`));
  else return value;
  return null;
}

/** An `HH:MM` time as `HH:MM` (an `HH:MM:00` one shortened), or null with its refusal pushed. */
export function timeOf(value: unknown, field: string, refusals: Refusal[]): string | null {
  if (value === undefined || value === null) refusals.push(refusal(field, requiredMessage(field)));
  else {
    const minutes = clockMinutes(value);
    if (minutes !== null) return clockTime(minutes);
    refusals.push(refusal(field, `The ${field} field must be a time of the shape HH:MM (00:00 to 23:59).`));
  }
  return null;
}

/** A timeslot's numbers, its own or the pattern's; the order rule blames the field a number was written in. */
function staffingOf(
  item: Record<string, unknown>,
  at: string,
  defaults: Partial<Staffing>,
  refusals: Refusal[],
): Staffing | null {
  const values: Partial<Record<keyof Staffing, number>> = {};
  const fields = {} as Record<keyof Staffing, string>;
  const inherited: Partial<Record<keyof Staffing, boolean>> = {};
  let inheritedAll = true;
  for (const name of STAFFING) {
    const [field, value] = [`${at}.${name}`, item[name]];
    const wrong = staffingNumberRefusal(value, field);
    if (wrong) refusals.push(wrong);
    else if (typeof value === 'number') [values[name], fields[name], inheritedAll] = [value, field, false];
    else if (defaults[name] !== undefined) [values[name], fields[name], inherited[name]] = [defaults[name], name, true];
    else refusals.push(refusal(field, `The ${field} field is required when the pattern has no ${name}.`));
  }
  if (values.min === undefined || values.ideal === undefined || values.max === undefined) return null;
  const staffing = { min: values.min, ideal: values.ideal, max: values.max };
  // A timeslot taking all three from the pattern was checked with the pattern's own numbers.
  if (!inheritedAll) {
    const wrong = staffingOrderRefusals(staffing, fields, inherited);
    refusals.push(...wrong);
    if (wrong.length) return null;
  }
  return staffing;
}

/** Each timeslot overlapping an earlier one is refused under its own key, naming the earlier one. */
export function overlapRefusals(
  slots: readonly (WeeklyTimeslot | null)[],
  keyOf: (index: number) => string,
): Refusal[] {
  const valid = slots.flatMap((slot, index) => (slot ? [{ slot, index }] : []));
  return overlapsWithEarlier(valid.map(({ slot }) => arcOf(slot))).map(([earlier, later]) => {
    const key = keyOf(valid[later]!.index);
    return refusal(
      key,
      `The timeslot ${key} overlaps ${keyOf(valid[earlier]!.index)} (the week wraps around from Sunday to Monday).`,
    );
  });
}
