import { describe, expect, it } from '@jest/globals';
import ical, { type VEvent } from 'node-ical';
import type { MailShift } from './shift-mail.js';
import { swapAcceptedMail, swapProposedMail } from './swap-mail.js';

const shift = (id: number, localStart: string, localEnd: string, more: Partial<MailShift> = {}): MailShift => ({
  id,
  organisationId: 3,
  rotaName: 'Café',
  teamName: 'North',
  start: new Date(`${localStart.replace(' ', 'T')}:00+01:00`),
  end: new Date(`${localEnd.replace(' ', 'T')}:00+01:00`),
  zone: 'Europe/London',
  sequence: 1,
  status: 'booked',
  localStart,
  localEnd,
  ...more,
});
const calendar = (content: string | Buffer) => {
  const parsed = ical.sync.parseICS(content.toString());
  return {
    method: parsed.vcalendar?.method,
    uids: Object.values(parsed)
      .filter((c): c is VEvent => c?.type === 'VEVENT')
      .map((e) => e.uid),
  };
};
const ANN = { email: 'ann@vol.example', name: 'Ann Lee' };

describe('swapProposedMail', () => {
  it('given a proposal, then one mail to the with volunteer, subject "Swap proposed:", both shifts, no calendar part', () => {
    const message = swapProposedMail(
      ANN,
      'Bea Cole',
      shift(7, '2027-07-01 07:30', '2027-07-01 15:00'),
      shift(8, '2027-07-02 09:00', '2027-07-02 12:00'),
    );
    expect(message.to).toBe(ANN.email);
    expect(message.subject).toBe('Swap proposed: Café, Friday 2027-07-02 09:00 for Café, Thursday 2027-07-01 07:30');
    expect(message.text).toContain(
      'Bea Cole proposes to swap shifts with you. You would take:\n\n- Café (North): Thursday',
    );
    expect(message.attachments).toBeUndefined();
  });
});

describe('swapAcceptedMail', () => {
  it('given an accepted swap, then invite.ics (METHOD:REQUEST) for the shift gained and cancel.ics (METHOD:CANCEL) for the one given up', () => {
    const message = swapAcceptedMail({
      to: ANN,
      gained: shift(8, '2027-07-02 09:00', '2027-07-02 12:00'),
      gaveUp: shift(7, '2027-07-01 07:30', '2027-07-01 15:00', { status: 'cancelled' }),
      host: 'vol.example',
      now: new Date('2027-06-01T10:00:00Z'),
    });
    expect(message.subject).toMatch(/^Swap accepted: /);
    expect(message.attachments!.map((a) => [a.filename, calendar(a.content)])).toEqual([
      ['invite.ics', { method: 'REQUEST', uids: ['shift-3-8@vol.example'] }],
      ['cancel.ics', { method: 'CANCEL', uids: ['shift-3-7@vol.example'] }],
    ]);
  });
});
