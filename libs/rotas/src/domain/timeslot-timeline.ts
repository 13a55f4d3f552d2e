import { addDays, isCalendarDate } from './calendar-dates.js';
import { type Checked, checked } from './pattern-rules.js';
import { type Refusal, refusal, requiredMessage } from './refusals.js';
import type { RotaTimeslot, WeeklyTimeslot } from './weekly-timeslots.js';

/**
 * docs/rota-domain.md#timeslot-versions: a rota's timeslots are a timeline of versions, each a weekly set
 * over a date range (`to` inclusive, null: open-ended). Versions are in date order and never
 * overlap; a date no version covers has no timeslots. A version with no timeslots closes the rota
 * on every date it covers.
 *
 * Ids: a timeslot's id belongs to its version's set. Writing a set gives each of its timeslots a
 * new id (from an id source the decision is handed, so the event carries the ids and evolve only
 * applies them: replay gives the same ids). The pieces a write leaves of a version it cuts, before
 * `from` and after `to`, keep that version's ids: they are the same set, and a split must not
 * change the ids views show for dates the write did not touch. So one id may appear in two versions
 * (never on one date twice), always with the same weekdays, times and numbers.
 */
export interface TimeslotVersion {
  readonly from: string;
  readonly to: string | null;
  readonly timeslots: readonly RotaTimeslot[];
}

export type Timeline = readonly TimeslotVersion[];

/** A set of timeslots written over `[from, to]`; `to` absent or null: from `from` on. */
export interface TimeslotWrite<T extends WeeklyTimeslot = RotaTimeslot> {
  readonly from: string;
  readonly to?: string | null;
  readonly timeslots: readonly T[];
}

/** Where new timeslot ids come from: the handler draws them from the context's sequence before deciding. */
export type IdSource = () => number;

/** An id source over ids drawn beforehand; asking for more than were drawn is a programming error. */
export function idSource(ids: readonly number[]): IdSource {
  let next = 0;
  return () => {
    if (next >= ids.length) throw new RangeError(`Only ${ids.length} timeslot ids were drawn`);
    return ids[next++]!;
  };
}

/** The timeslots with new ids, in their order. */
export const identify = (timeslots: readonly WeeklyTimeslot[], newIds: IdSource): RotaTimeslot[] =>
  timeslots.map((slot) => ({ id: newIds(), ...slot }));

/** A new rota's timeline: the pattern's timeslots from its start date on. */
export const initialTimeline = (startDate: string, timeslots: readonly RotaTimeslot[]): Timeline => [
  { from: startDate, to: null, timeslots },
];

/**
 * The timeline after a write of identified timeslots (evolve's half: deterministic, no ids drawn).
 * With `to` absent everything from `from` on is replaced; with `to` given, what stood after `to`
 * stands again (a version spanning `to` is split, its tail keeping its ids).
 */
export function applyTimeslots(timeline: Timeline, write: TimeslotWrite): Timeline {
  const to = write.to ?? null;
  const before: TimeslotVersion[] = [];
  const after: TimeslotVersion[] = [];
  const dayBefore = addDays(write.from, -1);
  for (const version of timeline) {
    if (version.from < write.from)
      before.push({ ...version, to: version.to === null || version.to > dayBefore ? dayBefore : version.to });
    if (to !== null && (version.to === null || version.to > to)) {
      const dayAfter = addDays(to, 1);
      after.push({ ...version, from: version.from > dayAfter ? version.from : dayAfter });
    }
  }
  return [...before, { from: write.from, to, timeslots: write.timeslots }, ...after];
}

/** The decision's half and evolve's half at once, for callers that need only the result. */
export const writeTimeslots = (timeline: Timeline, write: TimeslotWrite<WeeklyTimeslot>, newIds: IdSource): Timeline =>
  applyTimeslots(timeline, { ...write, timeslots: identify(write.timeslots, newIds) });

/** The version in force on a date, or null (no timeslots that date). */
export function versionOn(timeline: Timeline, date: string): TimeslotVersion | null {
  return timeline.find((v) => v.from <= date && (v.to === null || date <= v.to)) ?? null;
}

/** The names the range's fields go by: `from`/`to` for update timeslots, `start_date`/`end_date` for replace. */
export interface RangeFields {
  readonly from: string;
  readonly to: string;
}

/**
 * A write's range: `from` a date, today or later (the rota zone's today); `to` absent, null or a date
 * not before `from` (a range ending before it starts is a 422 naming the end field).
 */
export function checkWriteRange(
  range: { from?: unknown; to?: unknown },
  today: string,
  fields: RangeFields = { from: 'from', to: 'to' },
): Refusal[] {
  const refusals: Refusal[] = [];
  const { from, to } = range;
  if (from === undefined || from === null) refusals.push(refusal(fields.from, requiredMessage(fields.from)));
  else if (!isCalendarDate(from))
    refusals.push(refusal(fields.from, `The ${fields.from} field must be a date (YYYY-MM-DD).`));
  else if (from < today)
    refusals.push(refusal(fields.from, `The ${fields.from} field must be today (${today}) or later.`));
  if (to === undefined || to === null) return refusals;
  if (!isCalendarDate(to)) refusals.push(refusal(fields.to, `The ${fields.to} field must be a date (YYYY-MM-DD).`));
  else if (isCalendarDate(from) && to < from)
    refusals.push(refusal(fields.to, `The ${fields.to} field must be a date on or after ${fields.from}.`));
  return refusals;
}

export interface WriteContext {
  /** Today in the rota's zone. */
  readonly today: string;
  readonly newIds: IdSource;
}

/**
 * The decision of a timeslot write (update timeslots, replace, and a new rota's first version):
 * the range checked against today, the timeslots (already checked by checkWeekdays or the
 * pattern's rules) given ids. The result is what the event carries; evolve hands it to
 * applyTimeslots.
 */
export function decideTimeslotWrite(
  range: { from?: unknown; to?: unknown },
  timeslots: readonly WeeklyTimeslot[],
  context: WriteContext,
  fields?: RangeFields,
): Checked<TimeslotWrite> {
  const refusals = checkWriteRange(range, context.today, fields);
  return checked(refusals, () => ({
    from: range.from as string,
    to: (range.to as string | null | undefined) ?? null,
    timeslots: identify(timeslots, context.newIds),
  }));
}
