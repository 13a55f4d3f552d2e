import { describe, expect, it } from '@jest/globals';
import ical, { type VEvent } from 'node-ical';
import { type MailShift, type ShiftChange, selfCancelledMail, shiftChangesMail } from './shift-mail.js';
import { swapAcceptedMail, swapProposedMail } from './swap-mail.js';

/** A shift of the London rota "Café" by its local times (BST, so UTC is an hour earlier). */
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
const mail = (changes: ShiftChange[], actorName: string | null = 'Sam Manager') =>
  shiftChangesMail({
    to: 'ann@vol.example',
    userName: 'Ann Lee',
    changes,
    actorName,
    host: 'vol.example',
    now: new Date('2027-06-01T10:00:00Z'),
  });
const veventsOf = (content: string | Buffer) =>
  Object.values(ical.sync.parseICS(content.toString())).filter((c): c is VEvent => c?.type === 'VEVENT');

describe('shiftChangesMail', () => {
  it('sends one booking with its local date and times, and an invite.ics (METHOD:REQUEST) for it', () => {
    const message = mail([{ kind: 'booked', shift: shift(7, '2027-07-01 07:30', '2027-07-01 15:00') }]);
    expect(message.to).toBe('ann@vol.example');
    expect(message.subject).toBe('Shift booked: Café, Thursday 2027-07-01 07:30');
    expect(message.text).toContain(
      'Hello Ann Lee,\n\nSam Manager has changed your shifts:\n\nBooked:\n- Café (North): Thursday 2027-07-01, 07:30–15:00\n',
    );
    expect(message.attachments).toHaveLength(1);
    const [invite] = message.attachments!;
    expect(invite).toMatchObject({
      filename: 'invite.ics',
      contentType: 'text/calendar; method=REQUEST; charset=UTF-8',
    });
    expect(ical.sync.parseICS(invite!.content.toString()).vcalendar?.method).toBe('REQUEST');
    const [event] = veventsOf(invite!.content);
    expect([event!.uid, event!.start.toISOString(), event!.status]).toEqual([
      'shift-3-7@vol.example',
      '2027-07-01T06:30:00.000Z',
      'CONFIRMED',
    ]);
    expect(event!.attendee).toMatchObject({ val: 'MAILTO:ann@vol.example', params: { CN: 'Ann Lee' } });
  });

  it('lists every change of a request by date, each kind under its heading, with a REQUEST and a separate CANCEL', () => {
    const message = mail(
      [
        {
          kind: 'cancelled',
          shift: shift(9, '2027-07-05 09:00', '2027-07-05 12:00', { status: 'cancelled', sequence: 2 }),
          reason: 'the rota is closed that day',
        },
        { kind: 'booked', shift: shift(8, '2027-07-03 22:00', '2027-07-04 06:00') },
        { kind: 'changed', shift: shift(7, '2027-07-02 08:00', '2027-07-02 12:00', { sequence: 3 }) },
        { kind: 'booked', shift: shift(6, '2027-07-01 07:30', '2027-07-01 15:00') },
      ],
      null,
    );
    expect(message.subject).toBe('Your shifts: 2 booked, 1 changed, 1 cancelled');
    expect(message.text).toBe(
      [
        'Hello Ann Lee,',
        '',
        'A change to the rota has changed your shifts:',
        '',
        'Booked:',
        '- Café (North): Thursday 2027-07-01, 07:30–15:00',
        '- Café (North): Saturday 2027-07-03, 22:00 to Sunday 2027-07-04 06:00',
        '',
        'Changed (new times):',
        '- Café (North): Friday 2027-07-02, 08:00–12:00',
        '',
        'Cancelled:',
        '- Café (North): Monday 2027-07-05, 09:00–12:00 (the rota is closed that day)',
        '',
        'The attached invite.ics puts the booked and changed shifts in your calendar; cancel.ics takes the cancelled ones out.',
        '',
      ].join('\n'),
    );
    const [invite, cancel] = message.attachments!;
    expect(veventsOf(invite!.content).map((e) => [e.uid, e.sequence, e.status])).toEqual([
      ['shift-3-6@vol.example', 1, 'CONFIRMED'],
      ['shift-3-7@vol.example', 3, 'CONFIRMED'],
      ['shift-3-8@vol.example', 1, 'CONFIRMED'],
    ]);
    expect(cancel).toMatchObject({
      filename: 'cancel.ics',
      contentType: 'text/calendar; method=CANCEL; charset=UTF-8',
    });
    expect(ical.sync.parseICS(cancel!.content.toString()).vcalendar?.method).toBe('CANCEL');
    expect(veventsOf(cancel!.content).map((e) => [e.uid, e.sequence, e.status, e.start.toISOString()])).toEqual([
      ['shift-3-9@vol.example', 2, 'CANCELLED', '2027-07-05T08:00:00.000Z'],
    ]);
  });

  it('sends only cancel.ics when everything was cancelled', () => {
    const message = mail([
      { kind: 'cancelled', shift: shift(9, '2027-07-05 09:00', '2027-07-05 12:00', { status: 'cancelled' }) },
    ]);
    expect(message.subject).toBe('Shift cancelled: Café, Monday 2027-07-05 09:00');
    expect(message.attachments!.map((a) => a.filename)).toEqual(['cancel.ics']);
    expect(message.text).toContain('The attached cancel.ics takes these shifts out of your calendar.');
  });

  it('refuses to compose a mail without a change', () => {
    expect(() => mail([])).toThrow('no change');
  });
});

describe('selfCancelledMail', () => {
  it('tells each contact and manager once, by their own message, with no calendar part', () => {
    const messages = selfCancelledMail({
      to: ['lead@vol.example', 'boss@vol.example', 'Lead@vol.example'],
      volunteerName: 'Ann Lee',
      shift: shift(7, '2027-07-01 22:00', '2027-07-02 06:00', { status: 'cancelled' }),
    });
    expect(messages.map((m) => m.to)).toEqual(['lead@vol.example', 'boss@vol.example']);
    const [first] = messages;
    expect(first!.subject).toBe('Shift cancelled by Ann Lee: Café, Thursday 2027-07-01 22:00');
    expect(first!.text).toBe(
      'Hello,\n\nAnn Lee has cancelled their shift:\n\n- Café (North): Thursday 2027-07-01, 22:00 to ' +
        'Friday 2027-07-02 06:00\n\nTheir place on the rota is free again.\n',
    );
    expect(first!.attachments).toBeUndefined();
  });
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
