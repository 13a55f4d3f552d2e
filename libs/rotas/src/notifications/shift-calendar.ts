import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library';

/** What a calendar needs of one shift; `sequence` must grow with every change the user is sent. */
export interface CalendarShift {
  id: number;
  organisationId: number;
  rotaName: string;
  teamName: string;
  start: Date;
  end: Date;
  /** The rota zone (the organisation's IANA time zone). */
  zone: string;
  sequence: number;
  status: 'booked' | 'cancelled';
  userEmail?: string;
  userName?: string;
}

export interface ShiftCalendarInput {
  /** REQUEST or CANCEL for an e-mail (iTIP); null for a subscribed feed, which carries no METHOD. */
  method: 'REQUEST' | 'CANCEL' | null;
  shifts: CalendarShift[];
  /** The installation's UID domain (CalendarUidDomain, docs/adr/0012-calendar-uids.md): it makes the UIDs globally unique. */
  host: string;
  /** DTSTAMP: when this calendar object was made. */
  now: Date;
  /** The calendar's name (NAME, X-WR-CALNAME), for a feed. */
  name?: string;
  /** ORGANIZER of an invitation: the address the mail comes from (default no-reply@<host>). */
  organizer?: string;
}

/** The same shift keeps its UID through every edit and its cancellation, in mails and feeds alike. */
export function shiftUid(organisationId: number, shiftId: number, host: string): string {
  return `shift-${organisationId}-${shiftId}@${host}`;
}

/**
 * One iCalendar object (RFC 5545: CRLF line ends, folded lines) with a VEVENT per shift. Times carry
 * the rota zone's TZID with its VTIMEZONE (Outlook shows a TZID without one an hour off); a zone the
 * VTIMEZONE library does not know is written in UTC, which is still the right instant.
 *
 * An invitation (REQUEST/CANCEL) names an ORGANIZER and the volunteer as ATTENDEE (RFC 5546 asks
 * for both): PARTSTAT=ACCEPTED and RSVP=FALSE, because the shift is already booked and a client
 * should not offer to accept or decline it. A feed leaves them out, so clients show plain events.
 */
export function shiftCalendar(input: ShiftCalendarInput): string {
  const { method, shifts, host, now, name } = input;
  // The calendar's own zone stays unset: ical-generator would then write DTSTAMP as local time
  // without a Z. The generator alone makes it emit one VTIMEZONE per zone its events use.
  const calendar = ical({
    prodId: { company: 'uvol', product: 'shifts', language: 'EN' },
    method: method === null ? null : ICalCalendarMethod[method],
    name: name ?? null,
    timezone: { name: null, generator: (tzid) => vtimezone(tzid)?.block ?? null },
  });
  const organizer = input.organizer ?? `no-reply@${host}`;
  for (const shift of shifts) {
    const tzid = vtimezone(shift.zone)?.tzid ?? null;
    const cancelled = method === 'CANCEL' || shift.status === 'cancelled';
    calendar.createEvent({
      id: shiftUid(shift.organisationId, shift.id, host),
      sequence: shift.sequence,
      stamp: now,
      // A native Date with a zone would be written in the server's local time; luxon is converted
      // into the event's zone by the library.
      start: DateTime.fromJSDate(shift.start),
      end: DateTime.fromJSDate(shift.end),
      timezone: tzid,
      summary: shift.rotaName,
      // A team is not a place: LOCATION would become a map link, so the team goes in DESCRIPTION.
      description: `Team: ${shift.teamName}`,
      status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      ...(method === null
        ? {}
        : {
            organizer: { name: 'uvol', email: organizer },
            attendees: shift.userEmail
              ? [
                  {
                    email: shift.userEmail,
                    name: shift.userName ?? null,
                    role: ICalAttendeeRole.REQ,
                    status: ICalAttendeeStatus.ACCEPTED,
                    rsvp: false,
                  },
                ]
              : [],
          }),
    });
  }
  return calendar.toString();
}

const known = new Set(tzlib_get_timezones(false) as string[]);
const blocks = new Map<string, { tzid: string; block: string } | null>();

/**
 * The VTIMEZONE of an IANA zone and the TZID it declares (an alias such as US/Eastern comes back as
 * America/New_York, and the events must name the TZID the block declares). Null for an unknown zone
 * (checked first: the library logs an error for one).
 */
function vtimezone(zone: string): { tzid: string; block: string } | null {
  if (!blocks.has(zone)) {
    const found = known.has(zone) ? tzlib_get_ical_block(zone, false) : '';
    const [block, tzidLine] = Array.isArray(found) ? found : [];
    blocks.set(zone, block && tzidLine ? { tzid: tzidLine.replace(/^TZID=/, ''), block } : null);
  }
  return blocks.get(zone) ?? null;
}
