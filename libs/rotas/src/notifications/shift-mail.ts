import { type MailAttachment, type MailMessage, oneLine } from '#app/platform';
import { type CalendarShift, shiftCalendar } from './shift-calendar.js';

/** A shift as a mail names it: `localStart`/`localEnd` are the API's `YYYY-MM-DD HH:MM` in the rota zone. */
export interface MailShift extends CalendarShift {
  localStart: string;
  localEnd: string;
}

/** One change of a request, as it ends: a shift appears once, with its latest times. */
export interface ShiftChange {
  kind: 'booked' | 'changed' | 'cancelled';
  shift: MailShift;
  reason?: string;
}

export interface ShiftChangesMailInput {
  to: string;
  userName: string;
  changes: ShiftChange[];
  /** Who made the changes; null when a change to the rota did (the system). */
  actorName: string | null;
  host: string;
  now: Date;
  /** The invitations' ORGANIZER: the address the mail is sent from (default no-reply@<host>). */
  organizer?: string;
}

const SECTIONS = [
  { kind: 'booked', heading: 'Booked:', subject: 'Shift booked' },
  { kind: 'changed', heading: 'Changed (new times):', subject: 'Shift changed' },
  { kind: 'cancelled', heading: 'Cancelled:', subject: 'Shift cancelled' },
] as const;

/**
 * The one e-mail a volunteer gets for a request in which someone else booked, changed or cancelled
 * their shifts (docs/rota-domain.md#notifications). A calendar object carries one METHOD, so the booked and
 * changed shifts travel as invite.ics (METHOD:REQUEST) and the cancelled ones as cancel.ics
 * (METHOD:CANCEL), each present only when it has shifts.
 */
export function shiftChangesMail(input: ShiftChangesMailInput): MailMessage {
  const { to, userName, changes, actorName, host, now, organizer } = input;
  if (!changes.length) throw new Error('shiftChangesMail: no change to send');
  // A request may list its shifts in any order; the reader wants them by date.
  const sorted = [...changes].sort((a, b) => a.shift.start.getTime() - b.shift.start.getTime());
  const sections = SECTIONS.map((section) => ({
    ...section,
    changes: sorted.filter((c) => c.kind === section.kind),
  })).filter((s) => s.changes.length);

  const subject =
    changes.length === 1
      ? `${sections[0]!.subject}: ${headline(changes[0]!.shift)}`
      : `Your shifts: ${sections.map((s) => `${s.changes.length} ${s.kind}`).join(', ')}`;

  // The volunteer is the attendee of every invitation, whatever the caller filled in.
  const shiftsOf = (list: ShiftChange[]) => list.map(({ shift }) => ({ ...shift, userEmail: to, userName }));
  const open = shiftsOf(sorted.filter((c) => c.kind !== 'cancelled'));
  const cancelled = shiftsOf(sorted.filter((c) => c.kind === 'cancelled'));
  const attachments: MailAttachment[] = [];
  if (open.length)
    attachments.push(
      calendarFile('REQUEST', 'invite.ics', shiftCalendar({ method: 'REQUEST', shifts: open, host, now, organizer })),
    );
  if (cancelled.length)
    attachments.push(
      calendarFile(
        'CANCEL',
        'cancel.ics',
        shiftCalendar({ method: 'CANCEL', shifts: cancelled, host, now, organizer }),
      ),
    );

  const text = [
    `Hello ${oneLine(userName)},`,
    '',
    actorName === null
      ? 'A change to the rota has changed your shifts:'
      : `${oneLine(actorName)} has changed your shifts:`,
    ...sections.flatMap((s) => ['', s.heading, ...s.changes.map((c) => line(c.shift, c.reason))]),
    '',
    calendarNote(open.length > 0, cancelled.length > 0),
    '',
  ].join('\n');

  return { to, subject, text, attachments };
}

export interface SelfCancelledMailInput {
  /** The rota's contacts and the managers with add-user-shifts over its team. */
  to: string[];
  volunteerName: string;
  shift: MailShift;
}

/**
 * Tells the rota's contacts and managers that a volunteer cancelled their own shift: one message per
 * address (deduplicated, case aside), so no recipient sees the others' addresses and each is sent,
 * and retried, on its own. No calendar part: the shift was never in these people's calendars.
 */
export function selfCancelledMail({ to, volunteerName, shift }: SelfCancelledMailInput): MailMessage[] {
  const subject = `Shift cancelled by ${oneLine(volunteerName)}: ${headline(shift)}`;
  const text = [
    'Hello,',
    '',
    `${oneLine(volunteerName)} has cancelled their shift:`,
    '',
    line(shift),
    '',
    'Their place on the rota is free again.',
    '',
  ].join('\n');
  const addresses = new Map<string, string>();
  for (const address of to) if (!addresses.has(address.toLowerCase())) addresses.set(address.toLowerCase(), address);
  return [...addresses.values()].map((address) => ({ to: address, subject, text }));
}

export function calendarFile(method: 'REQUEST' | 'CANCEL', filename: string, content: string): MailAttachment {
  return { filename, content, contentType: `text/calendar; method=${method}; charset=UTF-8` };
}

function calendarNote(open: boolean, cancelled: boolean): string {
  if (open && cancelled)
    return 'The attached invite.ics puts the booked and changed shifts in your calendar; cancel.ics takes the cancelled ones out.';
  return open
    ? 'The attached invite.ics puts these shifts in your calendar.'
    : 'The attached cancel.ics takes these shifts out of your calendar.';
}

/** "Café, Thursday 2027-07-01 07:30": for a subject. */
export function headline(shift: MailShift): string {
  const [date, time] = shift.localStart.split(' ');
  return `${oneLine(shift.rotaName)}, ${weekday(date!)} ${date} ${time}`;
}

/** "- Café (North): Thursday 2027-07-01, 07:30–15:00"; an overnight shift names its end's date. */
export function line(shift: MailShift, reason?: string): string {
  const [date, start] = shift.localStart.split(' ');
  const [endDate, end] = shift.localEnd.split(' ');
  const times = endDate === date ? `${start}–${end}` : `${start} to ${weekday(endDate!)} ${endDate} ${end}`;
  const because = reason ? ` (${oneLine(reason)})` : '';
  return `- ${oneLine(shift.rotaName)} (${oneLine(shift.teamName)}): ${weekday(date!)} ${date}, ${times}${because}`;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The weekday of a local date; computed in UTC so the server's zone cannot shift it. */
function weekday(date: string): string {
  return WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
}
