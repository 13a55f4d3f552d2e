import { type MailMessage, oneLine } from '#app/platform';
import { shiftCalendar } from './shift-calendar.js';
import { calendarFile, headline, line, type MailShift } from './shift-mail.js';

/**
 * The stand-in e-mails (docs/rota-domain.md#stand-ins-and-take-overs): a request told to one of the
 * rota's contacts, and a take-over told to the shift's previous volunteer, whose calendar loses it.
 */

export interface StandInWantedMailInput {
  to: string;
  volunteerName: string;
  shift: MailShift;
  note: string | null;
}

/** To one contact of the rota; no calendar part (the shift was never in their calendar). */
export function standInWantedMail({ to, volunteerName, shift, note }: StandInWantedMailInput): MailMessage {
  const text = [
    'Hello,',
    '',
    `${oneLine(volunteerName)} is looking for someone to take over their shift:`,
    '',
    line(shift),
    ...(note === null ? [] : ['', `Their note: ${oneLine(note)}`]),
    '',
    'They stay booked until someone takes it over. You are a contact of this rota.',
    '',
  ].join('\n');
  return { to, subject: `Stand-in wanted: ${headline(shift)}`, text };
}

export interface StandInFoundMailInput {
  to: string;
  userName: string;
  takerName: string;
  /** The shift as it was theirs, its sequence counted by the hand-over. */
  shift: MailShift;
  host: string;
  now: Date;
  organizer?: string;
}

/** To the previous volunteer: the shift is no longer theirs, with a METHOD:CANCEL part taking it out of their calendar. */
export function standInFoundMail(input: StandInFoundMailInput): MailMessage {
  const { to, userName, takerName, host, now, organizer } = input;
  const shift = { ...input.shift, status: 'cancelled' as const, userEmail: to, userName };
  const text = [
    `Hello ${oneLine(userName)},`,
    '',
    `${oneLine(takerName)} has taken over your shift:`,
    '',
    line(shift),
    '',
    'It is no longer yours. The attached cancel.ics takes it out of your calendar.',
    '',
  ].join('\n');
  const ics = shiftCalendar({ method: 'CANCEL', shifts: [shift], host, now, organizer });
  return {
    to,
    subject: `Stand-in found: ${headline(shift)}`,
    text,
    attachments: [calendarFile('CANCEL', 'cancel.ics', ics)],
  };
}
