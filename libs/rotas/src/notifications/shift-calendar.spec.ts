import { describe, expect, it } from '@jest/globals';
import ical, { type VEvent } from 'node-ical';
import { type CalendarShift, shiftCalendar, shiftUid } from './shift-calendar.js';

const HOST = 'vol.example';
const NOW = new Date('2027-06-01T10:00:00Z');

const calendarShift = (more: Partial<CalendarShift> = {}): CalendarShift => ({
  id: 7,
  organisationId: 3,
  rotaName: 'Café, mornings',
  teamName: 'North',
  start: new Date('2027-07-01T06:30:00Z'),
  end: new Date('2027-07-01T14:00:00Z'),
  zone: 'Europe/London',
  sequence: 0,
  status: 'booked',
  userEmail: 'ann@vol.example',
  userName: 'Ann Lee',
  ...more,
});

const events = (text: string): VEvent[] =>
  Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');
const onlyEvent = (text: string): VEvent => {
  const all = events(text);
  expect(all).toHaveLength(1);
  return all[0]!;
};
const request = (...shifts: CalendarShift[]) => shiftCalendar({ method: 'REQUEST', shifts, host: HOST, now: NOW });

describe('shiftCalendar', () => {
  it('writes a 07:30 Europe/London shift on 2027-07-01 in the rota zone, with its VTIMEZONE, and it reads back as 06:30Z', () => {
    const text = request(calendarShift());
    expect(text).toContain('DTSTART;TZID=Europe/London:20270701T073000\r\n');
    expect(text).toContain('DTEND;TZID=Europe/London:20270701T150000\r\n');
    expect(text).toMatch(/BEGIN:VTIMEZONE\r\nTZID:Europe\/London\r\n[\s\S]*END:VTIMEZONE\r\n/);
    const event = onlyEvent(text);
    expect([event.start.toISOString(), event.end?.toISOString()]).toEqual([
      '2027-07-01T06:30:00.000Z',
      '2027-07-01T14:00:00.000Z',
    ]);
    expect(event.start.tz).toBe('Europe/London');
  });

  it('keeps the wall clock across the spring change: 00:30–03:30 on 2027-03-28 lasts 2 real hours', () => {
    const text = request(
      calendarShift({ start: new Date('2027-03-28T00:30:00Z'), end: new Date('2027-03-28T02:30:00Z') }),
    );
    expect(text).toContain('DTSTART;TZID=Europe/London:20270328T003000\r\n');
    expect(text).toContain('DTEND;TZID=Europe/London:20270328T033000\r\n');
    const event = onlyEvent(text);
    expect([event.start.toISOString(), event.end?.toISOString()]).toEqual([
      '2027-03-28T00:30:00.000Z',
      '2027-03-28T02:30:00.000Z',
    ]);
  });

  it.each([
    ['America/New_York', '2027-07-01T11:30:00Z', '20270701T073000'],
    ['Pacific/Auckland', '2027-06-30T19:30:00Z', '20270701T073000'],
  ])('writes %s shifts in their own zone', (zone, instant, wall) => {
    const text = request(
      calendarShift({ zone, start: new Date(instant), end: new Date(Date.parse(instant) + 3_600_000) }),
    );
    expect(text).toContain(`DTSTART;TZID=${zone}:${wall}\r\n`);
    expect(text).toContain(`BEGIN:VTIMEZONE\r\nTZID:${zone}\r\n`);
    expect(onlyEvent(text).start.toISOString()).toBe(new Date(instant).toISOString());
  });

  it('names the VTIMEZONE an alias resolves to, and writes a zone it does not know in UTC', () => {
    const alias = request(calendarShift({ zone: 'US/Eastern', start: new Date('2027-07-01T11:30:00Z') }));
    expect(alias).toContain('DTSTART;TZID=America/New_York:20270701T073000\r\n');
    expect(alias).toContain('TZID:America/New_York\r\n');
    const unknown = request(calendarShift({ zone: 'Nowhere/Land' }));
    expect(unknown).toContain('DTSTART:20270701T063000Z\r\n');
    expect(unknown).not.toContain('VTIMEZONE');
  });

  it('writes one VTIMEZONE per zone, however many shifts use it', () => {
    const text = request(calendarShift(), calendarShift({ id: 8 }), calendarShift({ id: 9, zone: 'Pacific/Auckland' }));
    expect(text.match(/BEGIN:VTIMEZONE/g)).toHaveLength(2);
    expect(events(text)).toHaveLength(3);
  });

  it('follows RFC 5545: CRLF line ends only, VERSION, PRODID naming uvol, METHOD, and a UTC DTSTAMP in every VEVENT', () => {
    const text = request(calendarShift(), calendarShift({ id: 8 }));
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\nPRODID:-\/\/uvol\/\/shifts\/\/EN\r\nMETHOD:REQUEST\r\n/);
    expect(text.match(/DTSTAMP:20270601T100000Z\r\n/g)).toHaveLength(2);
    expect(ical.sync.parseICS(text).vcalendar?.method).toBe('REQUEST');
  });

  it('gives a shift the same UID in every calendar, and its SEQUENCE', () => {
    const first = onlyEvent(request(calendarShift()));
    const edited = onlyEvent(
      request(
        calendarShift({ sequence: 2, start: new Date('2027-07-02T06:30:00Z'), end: new Date('2027-07-02T08:00:00Z') }),
      ),
    );
    expect(first.uid).toBe('shift-3-7@vol.example');
    expect(edited.uid).toBe(first.uid);
    expect(shiftUid(3, 7, HOST)).toBe(first.uid);
    expect([first.sequence, edited.sequence]).toEqual([0, 2]);
  });

  it('makes an invitation: SUMMARY the rota, DESCRIPTION the team, STATUS CONFIRMED, ORGANIZER and the volunteer as an accepted ATTENDEE', () => {
    const event = onlyEvent(
      shiftCalendar({
        method: 'REQUEST',
        shifts: [calendarShift()],
        host: HOST,
        now: NOW,
        organizer: 'rota@vol.example',
      }),
    );
    expect([event.summary, event.description, event.status]).toEqual(['Café, mornings', 'Team: North', 'CONFIRMED']);
    expect(event.organizer).toMatchObject({ val: 'mailto:rota@vol.example' });
    expect(event.attendee).toMatchObject({
      val: 'MAILTO:ann@vol.example',
      params: { CN: 'Ann Lee', PARTSTAT: 'ACCEPTED', RSVP: false },
    });
  });

  it('marks every shift of a CANCEL as STATUS:CANCELLED', () => {
    const text = shiftCalendar({ method: 'CANCEL', shifts: [calendarShift({ sequence: 3 })], host: HOST, now: NOW });
    expect(text).toContain('METHOD:CANCEL\r\n');
    const event = onlyEvent(text);
    expect([event.uid, event.sequence, event.status]).toEqual(['shift-3-7@vol.example', 3, 'CANCELLED']);
  });

  it('makes a feed with no METHOD, ORGANIZER or ATTENDEE, and its name', () => {
    const text = shiftCalendar({ method: null, shifts: [calendarShift()], host: HOST, now: NOW, name: 'My shifts' });
    expect(text).not.toMatch(/METHOD|ORGANIZER|ATTENDEE/);
    expect(text).toContain('X-WR-CALNAME:My shifts\r\n');
    expect(onlyEvent(text).status).toBe('CONFIRMED');
  });
});
