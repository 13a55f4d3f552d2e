import { type MailMessage, oneLine } from '#app/platform';
import { shiftCalendar } from './shift-calendar.js';
import { calendarFile, headline, line, type MailShift } from './shift-mail.js';

/** A volunteer of a swap: their address and name. */
export interface SwapMailPerson {
  readonly email: string;
  readonly name: string;
}

/**
 * To the `with` volunteer (docs/rota-domain.md#swaps): the proposer offers `offered` (their shift)
 * for `asked` (the recipient's). No calendar part: nothing changes until it is accepted.
 */
export function swapProposedMail(
  to: SwapMailPerson,
  proposerName: string,
  offered: MailShift,
  asked: MailShift,
): MailMessage {
  return {
    to: to.email,
    subject: `Swap proposed: ${headline(asked)} for ${headline(offered)}`,
    text: [
      `Hello ${oneLine(to.name)},`,
      '',
      `${oneLine(proposerName)} proposes to swap shifts with you. You would take:`,
      '',
      line(offered),
      '',
      'and give them yours:',
      '',
      line(asked),
      '',
      'Accept or decline the swap in the rota.',
      '',
    ].join('\n'),
  };
}

export interface SwapAcceptedMailInput {
  readonly to: SwapMailPerson;
  readonly gained: MailShift;
  readonly gaveUp: MailShift;
  readonly host: string;
  readonly now: Date;
  readonly organizer?: string;
}

/**
 * To each volunteer of an accepted swap, once (docs/rota-domain.md#swaps): invite.ics
 * (METHOD:REQUEST) puts the shift they gained in their calendar, cancel.ics (METHOD:CANCEL) takes
 * out the one they gave up.
 */
export function swapAcceptedMail({ to, gained, gaveUp, host, now, organizer }: SwapAcceptedMailInput): MailMessage {
  const attendee = { userEmail: to.email, userName: to.name };
  const calendar = (method: 'REQUEST' | 'CANCEL', shift: MailShift) =>
    shiftCalendar({ method, shifts: [{ ...shift, ...attendee }], host, now, organizer });
  return {
    to: to.email,
    subject: `Swap accepted: ${headline(gained)} for ${headline(gaveUp)}`,
    text: [
      `Hello ${oneLine(to.name)},`,
      '',
      'Your shift swap has been accepted. Your shift now:',
      '',
      line(gained),
      '',
      'no longer yours:',
      '',
      line(gaveUp),
      '',
      'The attached invite.ics puts the new shift in your calendar; cancel.ics takes the other one out.',
      '',
    ].join('\n'),
    attachments: [
      calendarFile('REQUEST', 'invite.ics', calendar('REQUEST', gained)),
      calendarFile('CANCEL', 'cancel.ics', calendar('CANCEL', gaveUp)),
    ],
  };
}
