import { groupBy, instantToWallClock, type MailMessage, oneLine } from '#app/platform';
import { addDays } from '../domain/calendar-dates.js';
import { dayCoverage, type Interval, mostRequired } from '../domain/coverage.js';
import type { RotaCalendar, TimeslotOccurrence } from '../domain/rota-calendar.js';

/**
 * Cover alerts (docs/rota-domain.md#cover-alerts). Pure: the processors (cover-alerts.processor.ts)
 * read the rota, its shifts, the setting and the clock, and act on what this answers.
 *
 * - Watched: the occurrences that have not started and start before now + N × 24 h (N the
 *   setting, "0" off), on rotas active, not archived and not closed that day.
 * - Short: below minimum as the views say it (dayCoverage, the very function of the day view,
 *   fed the same shifts: those starting that date and the day before), so an alert never
 *   disagrees with what a coordinator sees.
 * - Who: the rota's contacts, on every rota; on a self-managed rota also the volunteers who could
 *   book it (identity chooses them: Teams.activeMembers); each person once (contacts first).
 * - Once: the outbox key names the organisation, rota, date, the timeslot's local start and the
 *   person, so nobody hears of one occurrence twice, whatever fills and empties it or re-runs.
 */

/** The organisation setting (libs/organisation's field table): a string holding 0–30, default "0". */
export const COVER_ALERT_SETTING = 'cover_alert_days';

const DAY_MS = 86_400_000;

/** The setting's days; the field table only stores whole numbers 0–30, so anything else is read as off. */
export function coverAlertDays(value: unknown): number {
  const days = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(days) ? days : 0;
}

/** The instants watched: starting after `now` (not started) and before now + days × 24 h. */
export interface CoverWindow {
  readonly from: number;
  readonly to: number;
}

export const coverWindow = (now: number, days: number): CoverWindow => ({ from: now, to: now + days * DAY_MS });

/** A booked shift as coverage reads it: its span (epoch ms) and the local date it starts on. */
export interface CoverShift extends Interval {
  readonly date: string;
}

/** An occurrence below minimum, and how many more volunteers it needs (the largest `required` of its hours). */
export interface ShortOccurrence {
  readonly occurrence: TimeslotOccurrence;
  readonly needed: number;
}

/**
 * The rota's occurrences inside the window that are below minimum. Each local date the window
 * touches is judged as the day view judges it: dayCoverage over the rota-day, with the booked
 * shifts starting that date and the day before (an overnight shift runs into it); cancelled
 * shifts are never handed in. Inactive, archived and closed days have no timeslots there.
 * `only`: that local date alone (an alert job re-checking its occurrence).
 */
export function shortOccurrences(
  rota: RotaCalendar,
  zone: string,
  shifts: readonly CoverShift[],
  window: CoverWindow,
  only?: string,
): ShortOccurrence[] {
  if (!(window.to > window.from)) return [];
  const byDate = groupBy(shifts, (s) => s.date);
  // An occurrence's date is the local date it starts on; those dates' occurrences outside the
  // window's instants (started, or too far ahead) are left out below.
  const [first, last] = windowDates(window, zone);
  const short: ShortOccurrence[] = [];
  for (let date = only ?? first; date <= (only ?? last); date = addDays(date, 1)) {
    const duty = [...(byDate.get(addDays(date, -1)) ?? []), ...(byDate.get(date) ?? [])];
    const coverage = dayCoverage(rota, date, zone, duty);
    for (const timeslot of coverage.timeslots) {
      const { occurrence } = timeslot;
      if (occurrence.start <= window.from || occurrence.start >= window.to) continue;
      if (timeslot.pattern_status === -2) short.push({ occurrence, needed: mostRequired(timeslot.hours) });
    }
  }
  return short;
}

/** The local dates an occurrence starting inside the window may start on (an occurrence's date is that of its start). */
export function windowDates(window: CoverWindow, zone: string): [string, string] {
  return [instantToWallClock(new Date(window.from), zone).date, instantToWallClock(new Date(window.to), zone).date];
}

/** What of a rota decides who may be alerted. */
export interface AlertRota {
  readonly teamId: number;
  readonly selfManage: boolean;
  readonly restrictedByRole: boolean;
  readonly roleProfileIds: readonly number[];
}

/**
 * The volunteers to ask identity for: members of the rota's own team, of an allowed profile when the
 * rota is restricted; none on a rota that is not self-managed (they could not book themselves).
 */
export function volunteerPool(rota: AlertRota): { teamId: number; profiles: readonly number[] | null } | null {
  if (!rota.selfManage) return null;
  return { teamId: rota.teamId, profiles: rota.restrictedByRole ? rota.roleProfileIds : null };
}

/** Someone to alert, as identity names them. */
export interface Recipient {
  readonly id: number;
  readonly email: string;
  readonly name: string;
  /** A contact of the rota (the mail says why they hear of it). */
  readonly contact: boolean;
}

/**
 * Everyone alerted of one short occurrence: the contacts (every rota), then the eligible volunteers
 * (already chosen: volunteerPool, less those booked at that time); one entry per person, a contact
 * who is also a volunteer once, as a contact. People without an address cannot be alerted.
 */
export function recipientsOf(
  contacts: readonly Omit<Recipient, 'contact'>[],
  volunteers: readonly Omit<Recipient, 'contact'>[],
): Recipient[] {
  const seen = new Set<number>();
  const out: Recipient[] = [];
  for (const [people, contact] of [
    [contacts, true],
    [volunteers, false],
  ] as const) {
    for (const person of people) {
      if (seen.has(person.id) || !person.email) continue;
      seen.add(person.id);
      out.push({ ...person, contact });
    }
  }
  return out;
}

/** `HH:MM` of a wall clock `YYYY-MM-DD HH:MM`. */
const clock = (wall: string) => wall.slice(11, 16);

/** The outbox key of one person's alert about one occurrence: (rota, date, timeslot start) and the person. */
export const coverAlertKey = (organisationId: number, rotaId: number, occurrence: TimeslotOccurrence, userId: number) =>
  `cover-alert-${organisationId}-${rotaId}-${occurrence.date}-${clock(occurrence.start_wall).replace(':', '')}-${userId}`;

/** The alert job of one occurrence: one at a time per occurrence, so two never send to one key at once. */
export const coverAlertJobId = (organisationId: number, rotaId: number, occurrence: TimeslotOccurrence) =>
  `cover-${organisationId}-${rotaId}-${occurrence.date}-${Math.floor(occurrence.start / 1000)}`;

/** The e-mail: the rota, the local date, the timeslot's local start and end, and how many more are needed. */
export function coverAlertMail(rotaName: string, short: ShortOccurrence, to: Recipient): MailMessage {
  const { occurrence, needed } = short;
  const [start, end] = [clock(occurrence.start_wall), clock(occurrence.end_wall)];
  const endDate = occurrence.end_wall.slice(0, 10);
  const until = endDate === occurrence.date ? end : `${end} (${endDate})`;
  const volunteers = needed === 1 ? '1 more volunteer' : `${needed} more volunteers`;
  const rota = oneLine(rotaName);
  const text = [
    `Hello ${oneLine(to.name)},`,
    '',
    `${rota} needs ${volunteers} on ${occurrence.date}, ${start} to ${until}.`,
    '',
    to.contact ? 'You are a contact of this rota.' : 'You can book a shift on this rota yourself if you are free then.',
    '',
  ].join('\n');
  return { to: to.email, subject: `Cover needed: ${rota}, ${occurrence.date} ${start}-${end}`, text };
}
