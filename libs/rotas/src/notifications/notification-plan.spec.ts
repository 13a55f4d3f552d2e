import { describe, expect, it } from '@jest/globals';
import ical from 'node-ical';
import { type EventMetadata, systemActor, userActor } from '#app/event-store';
import type { ShiftCancelReason } from '../rotas.events.js';
import {
  composeMails,
  type MailedEvent,
  type MailFacts,
  mailedTypes,
  planNotifications,
  type RotaChangeEvent,
} from './notification-plan.js';

const VOL = 10;
const OTHER_VOL = 11;
const MANAGER = 20;
const CONTACT = 30;
const by = (userId: number): EventMetadata => ({ organisationId: 1, actor: userActor(userId), correlationId: 'req-1' });
const bySystem = (reason: string): EventMetadata => ({
  organisationId: 1,
  actor: systemActor(reason),
  causationId: 'cause',
  correlationId: 'req-1',
});
const times = (date: string, from: string, to: string) => ({
  date,
  start: `${date}T${from}:00.000Z`,
  end: `${date}T${to}:00.000Z`,
  startWall: `${date} ${from}`,
  endWall: `${date} ${to}`,
});

const booked = (id: number, userId: number, metadata: EventMetadata, seriesId: number | null = null): MailedEvent => ({
  type: 'rotas.ShiftBooked',
  metadata,
  data: { id, organisationId: 1, rotaId: 7, teamId: 3, userId, seriesId, ...times('2027-01-04', '10:00', '12:00') },
});
const moved = (id: number, userId: number, metadata: EventMetadata, sequence = 1): MailedEvent => ({
  type: 'rotas.ShiftMoved',
  metadata,
  data: {
    id,
    organisationId: 1,
    rotaId: 7,
    userId,
    sequence,
    ...times('2027-01-04', '13:00', '15:00'),
    was: times('2027-01-04', '10:00', '12:00'),
  },
});
const cancelled = (
  id: number,
  userId: number,
  metadata: EventMetadata,
  reason: ShiftCancelReason = 'cancelled',
  sequence = 1,
): MailedEvent => ({
  type: 'rotas.ShiftCancelled',
  metadata,
  data: { id, organisationId: 1, rotaId: 7, userId, date: '2027-01-04', reason, sequence },
});

const closed = (rotaId: number): RotaChangeEvent => ({
  type: 'rotas.RotaClosed',
  data: {
    id: rotaId,
    organisationId: 1,
    effectiveFrom: '2027-01-04',
    dates: ['2027-01-04'],
    calendar: { startDate: '2026-12-01', endDate: null, archived: false, closedDates: ['2027-01-04'], timeline: [] },
  },
});

/** A plan that sends nothing. */
const NOTHING = { volunteers: [], selfCancelled: [], standInWanted: [], standInFound: [] };

describe('who gets what from the shift events of one request (docs/rota-domain.md#notifications)', () => {
  it('given a manager booking three shifts for a volunteer, then the volunteer gets one notice listing the three as booked, naming the manager', () => {
    const plan = planNotifications([
      booked(1, VOL, by(MANAGER)),
      booked(2, VOL, by(MANAGER)),
      booked(3, VOL, by(MANAGER)),
    ]);
    expect(plan.selfCancelled).toEqual([]);
    expect(plan.volunteers).toEqual([
      {
        userId: VOL,
        actorUserId: MANAGER,
        changes: [1, 2, 3].map((shiftId) =>
          expect.objectContaining({ kind: 'booked', shiftId, sequence: 0, reason: null }),
        ),
      },
    ]);
  });

  it('given a manager booking for two volunteers in one request, then each gets their own notice', () => {
    const plan = planNotifications([booked(1, VOL, by(MANAGER)), booked(2, OTHER_VOL, by(MANAGER))]);
    expect(plan.volunteers.map((n) => [n.userId, n.changes.map((c) => c.shiftId)])).toEqual([
      [VOL, [1]],
      [OTHER_VOL, [2]],
    ]);
  });

  it('given a volunteer booking, moving or cancelling their own shift, then they get nothing; a self-cancellation goes to the rota watchers instead', () => {
    expect(planNotifications([booked(1, VOL, by(VOL))])).toEqual(NOTHING);
    expect(planNotifications([moved(1, VOL, by(VOL))])).toEqual(NOTHING);
    expect(planNotifications([cancelled(1, VOL, by(VOL), 'cancelled', 2)])).toEqual({
      ...NOTHING,
      selfCancelled: [{ userId: VOL, shifts: [{ shiftId: 1, rotaId: 7, sequence: 2 }] }],
    });
  });

  it('given a manager moving a shift, then it is "changed" with its new times and SEQUENCE', () => {
    const [notice] = planNotifications([moved(1, VOL, by(MANAGER), 3)]).volunteers;
    expect(notice!.changes).toEqual([
      {
        kind: 'changed',
        shiftId: 1,
        rotaId: 7,
        sequence: 3,
        times: times('2027-01-04', '13:00', '15:00'),
        reason: null,
      },
    ]);
  });

  it('given a shift booked then moved in one request, then it is one booking with the last times; booked then cancelled, nothing', () => {
    const plan = planNotifications([
      booked(1, VOL, by(MANAGER)),
      moved(1, VOL, by(MANAGER)),
      booked(2, VOL, by(MANAGER)),
      cancelled(2, VOL, by(MANAGER)),
    ]);
    expect(plan.volunteers).toEqual([
      {
        userId: VOL,
        actorUserId: MANAGER,
        changes: [
          {
            kind: 'booked',
            shiftId: 1,
            rotaId: 7,
            sequence: 1,
            times: times('2027-01-04', '13:00', '15:00'),
            reason: null,
          },
        ],
      },
    ]);
  });

  it(
    'given a rota change and the cancellations it wrote with the manager’s metadata, then each volunteer is told as ' +
      'by the rota (no actor), the manager of their own shift too, and no one of a self-cancellation',
    () => {
      const plan = planNotifications([
        closed(7),
        cancelled(1, VOL, by(MANAGER), 'rota_closed'),
        cancelled(2, MANAGER, by(MANAGER), 'rota_closed'),
      ]);
      expect(plan.selfCancelled).toEqual([]);
      expect(plan.volunteers).toEqual(
        [VOL, MANAGER].map((userId, i) => ({
          userId,
          actorUserId: null,
          changes: [{ kind: 'cancelled', shiftId: i + 1, rotaId: 7, sequence: 1, times: null, reason: 'rota_closed' }],
        })),
      );
    },
  );

  it('given a rota change of another rota in the request, then a cancellation by the manager is still theirs', () => {
    const plan = planNotifications([closed(8), cancelled(1, VOL, by(MANAGER), 'outside_timeslot')]);
    expect(plan.volunteers).toEqual([expect.objectContaining({ userId: VOL, actorUserId: MANAGER })]);
  });

  it('given cancellations by the system after a rota change, then the volunteer is told, with no actor and the reason', () => {
    const plan = planNotifications([cancelled(1, VOL, bySystem('rota change'), 'rota_closed')]);
    expect(plan.volunteers).toEqual([
      {
        userId: VOL,
        actorUserId: null,
        changes: [{ kind: 'cancelled', shiftId: 1, rotaId: 7, sequence: 1, times: null, reason: 'rota_closed' }],
      },
    ]);
  });

  it('given occurrences the series generator booked (the system), then nothing is sent, and their jobs are not even made', () => {
    expect(
      planNotifications([
        booked(1, VOL, bySystem('series generation'), 5),
        booked(2, VOL, bySystem('series generation'), 5),
      ]),
    ).toEqual(NOTHING);
    expect(mailedTypes(bySystem('series generation'))).not.toContain('rotas.ShiftBooked');
    expect(mailedTypes(by(MANAGER))).toEqual([
      'rotas.ShiftBooked',
      'rotas.ShiftMoved',
      'rotas.ShiftCancelled',
      'rotas.ShiftStandInRequested',
      'rotas.ShiftHandedOver',
    ]);
  });
});

describe('the e-mails a plan makes', () => {
  const facts = (over: Partial<MailFacts> = {}): MailFacts => ({
    requestKey: 'ev-1',
    organisationId: 1,
    zone: 'Europe/London',
    host: 'vol.example',
    now: new Date('2026-12-01T10:00:00Z'),
    shifts: new Map([1, 2, 3].map((id) => [id, { teamId: 3, ...times(`2027-01-0${id + 3}`, '10:00', '12:00') }])),
    rotaNames: new Map([[7, 'Café']]),
    teamNames: new Map([[3, 'North']]),
    emails: new Map([
      [VOL, 'vol@x.example'],
      [MANAGER, 'boss@x.example'],
      [CONTACT, 'contact@x.example'],
    ]),
    names: new Map([
      [VOL, 'Val'],
      [MANAGER, 'Max'],
      [CONTACT, 'Cora'],
    ]),
    rotaWatchers: new Map([[7, [CONTACT, MANAGER, VOL]]]),
    ...over,
  });

  it(
    'given a volunteer notice of bookings and a cancellation, then one mail to them under the request ' +
      "and their id, with invite.ics and cancel.ics carrying the shifts' UIDs",
    () => {
      const plan = planNotifications([
        booked(1, VOL, by(MANAGER)),
        booked(2, VOL, by(MANAGER)),
        cancelled(3, VOL, by(MANAGER), 'cancelled', 2),
      ]);
      const mails = composeMails(plan, facts());
      expect(mails.map((m) => [m.key, m.message.to])).toEqual([['rotas-shift-mail-ev-1-10', 'vol@x.example']]);
      const message = mails[0]!.message;
      expect(message.text).toContain('Max has changed your shifts:');
      const [invite, cancel] = message.attachments!.map((a) => ical.sync.parseICS(a.content.toString()));
      expect(invite!.vcalendar?.method).toBe('REQUEST');
      expect(
        Object.values(invite!)
          .filter((c) => c?.type === 'VEVENT')
          .map((e) => (e as { uid: string }).uid),
      ).toEqual(['shift-1-1@vol.example', 'shift-1-2@vol.example']);
      expect(cancel!.vcalendar?.method).toBe('CANCEL');
      expect(
        Object.values(cancel!)
          .filter((c) => c?.type === 'VEVENT')
          .map((e) => (e as { uid: string; sequence: number }).sequence),
      ).toEqual([2]);
    },
  );

  it('given a cancellation by a rota change, then the mail says the rota changed it and why', () => {
    const [mail] = composeMails(
      planNotifications([cancelled(1, VOL, bySystem('rota change'), 'rota_closed')]),
      facts(),
    );
    expect(mail!.message.text).toContain('A change to the rota has changed your shifts:');
    expect(mail!.message.text).toContain('(the rota is closed that day)');
  });

  it('given a self-cancellation, then each watcher but the volunteer gets one mail, without a calendar part', () => {
    const mails = composeMails(planNotifications([cancelled(1, VOL, by(VOL))]), facts());
    expect(mails.map((m) => [m.key, m.message.to])).toEqual([
      ['rotas-self-cancelled-ev-1-10-30', 'contact@x.example'],
      ['rotas-self-cancelled-ev-1-10-20', 'boss@x.example'],
    ]);
    expect(mails[0]!.message.subject).toBe('Shift cancelled by Val: Café, Monday 2027-01-04 10:00');
    expect(mails[0]!.message.attachments).toBeUndefined();
  });

  it('given a volunteer cancelling several of their shifts in one request (a repeating shift), then each watcher still gets one mail listing them', () => {
    const mails = composeMails(
      planNotifications([
        cancelled(2, VOL, by(VOL), 'series_cancelled'),
        cancelled(1, VOL, by(VOL), 'series_cancelled'),
      ]),
      facts({ rotaWatchers: new Map([[7, [CONTACT]]]) }),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.message.subject).toBe('2 shifts cancelled by Val');
    expect(mails[0]!.message.text).toContain(
      'Val has cancelled 2 of their shifts:\n\n- Café (North): Monday 2027-01-04, 10:00–12:00\n- Café (North): Tuesday 2027-01-05, 10:00–12:00\n',
    );
  });

  it('given a recipient without an address, or a shift without its row, then that mail or line is left out and the rest still go', () => {
    const plan = planNotifications([
      booked(1, VOL, by(MANAGER)),
      booked(9, VOL, by(MANAGER)),
      booked(2, OTHER_VOL, by(MANAGER)),
    ]);
    const mails = composeMails(plan, facts());
    expect(mails.map((m) => m.message.to)).toEqual(['vol@x.example']);
    expect(mails[0]!.message.subject).toBe('Shift booked: Café, Monday 2027-01-04 10:00');
  });
});

describe('stand-in e-mails (docs/rota-domain.md#stand-ins-and-take-overs)', () => {
  const TAKER = 12;
  const requested = (id: number, metadata: EventMetadata, note: string | null = null): MailedEvent => ({
    type: 'rotas.ShiftStandInRequested',
    metadata,
    data: {
      id,
      organisationId: 1,
      rotaId: 7,
      userId: VOL,
      date: '2027-01-04',
      requestedBy: actorOfTest(metadata),
      note,
    },
  });
  const handedOver = (id: number, metadata: EventMetadata, by: 'take_over' | 'swap' = 'take_over'): MailedEvent => ({
    type: 'rotas.ShiftHandedOver',
    metadata,
    data: {
      id,
      organisationId: 1,
      rotaId: 7,
      date: '2027-01-04',
      fromUserId: VOL,
      toUserId: TAKER,
      by,
      swapId: by === 'swap' ? 3 : null,
      leftSeriesId: null,
      sequence: 2,
    },
  });
  function actorOfTest(metadata: EventMetadata): number {
    return metadata.actor?.kind === 'user' ? metadata.actor.userId : 0;
  }
  const facts = (over: Partial<MailFacts> = {}): MailFacts => ({
    requestKey: 'ev-1',
    organisationId: 1,
    zone: 'Europe/London',
    host: 'vol.example',
    now: new Date('2026-12-01T10:00:00Z'),
    shifts: new Map([[1, { teamId: 3, ...times('2027-01-04', '10:00', '12:00') }]]),
    rotaNames: new Map([[7, 'Café']]),
    teamNames: new Map([[3, 'North']]),
    emails: new Map([
      [VOL, 'vol@x.example'],
      [MANAGER, 'boss@x.example'],
      [CONTACT, 'contact@x.example'],
      [TAKER, 'taker@x.example'],
    ]),
    names: new Map([
      [VOL, 'Val'],
      [MANAGER, 'Max'],
      [CONTACT, 'Cora'],
      [TAKER, 'Tess'],
    ]),
    rotaWatchers: new Map(),
    rotaContacts: new Map([[7, [CONTACT, MANAGER, VOL]]]),
    ...over,
  });

  it('given a request by a manager, then each contact but the volunteer and the manager gets one "Stand-in wanted:" mail with the note, no calendar part', () => {
    const mails = composeMails(planNotifications([requested(1, by(MANAGER), 'Ill')]), facts());
    expect(mails.map((m) => [m.key, m.message.to])).toEqual([['rotas-stand-in-wanted-ev-1-1-30', 'contact@x.example']]);
    expect(mails[0]!.message.subject).toBe('Stand-in wanted: Café, Monday 2027-01-04 10:00');
    expect(mails[0]!.message.text).toContain('Val is looking for someone to take over their shift:');
    expect(mails[0]!.message.text).toContain('Their note: Ill');
    expect(mails[0]!.message.attachments).toBeUndefined();
  });

  it('given a take-over by the taker, then only the previous volunteer hears: "Stand-in found:" with a CANCEL part at the new sequence', () => {
    const plan = planNotifications([handedOver(1, by(TAKER))]);
    expect(plan.volunteers).toEqual([]);
    const mails = composeMails(plan, facts());
    expect(mails.map((m) => [m.key, m.message.to])).toEqual([['rotas-stand-in-found-ev-1-10', 'vol@x.example']]);
    expect(mails[0]!.message.subject).toBe('Stand-in found: Café, Monday 2027-01-04 10:00');
    expect(mails[0]!.message.text).toContain('Tess has taken over your shift:');
    const cancel = ical.sync.parseICS(mails[0]!.message.attachments![0]!.content.toString());
    expect(cancel.vcalendar?.method).toBe('CANCEL');
    const [event] = Object.values(cancel).filter((c) => c?.type === 'VEVENT') as unknown as {
      uid: string;
      sequence: string;
    }[];
    expect([event!.uid, Number(event!.sequence)]).toEqual(['shift-1-1@vol.example', 2]);
  });

  it('given a take-over a manager made for the taker, then the taker also gets the usual booking mail (REQUEST part)', () => {
    const mails = composeMails(planNotifications([handedOver(1, by(MANAGER))]), facts());
    expect(mails.map((m) => m.message.to).sort()).toEqual(['taker@x.example', 'vol@x.example']);
    const booking = mails.find((m) => m.message.to === 'taker@x.example')!.message;
    expect(booking.subject).toBe('Shift booked: Café, Monday 2027-01-04 10:00');
    expect(booking.attachments!.map((a) => a.filename)).toEqual(['invite.ics']);
  });

  it('given a shift cancelled or started by the time the job runs, then none of these mails goes (tapir#828, helfertool#45)', () => {
    const events = [requested(1, by(VOL)), handedOver(1, by(MANAGER))];
    const gone = facts({
      shifts: new Map([[1, { teamId: 3, cancelled: true, ...times('2027-01-04', '10:00', '12:00') }]]),
    });
    expect(composeMails(planNotifications(events), gone)).toEqual([]);
    const started = facts({ now: new Date('2027-01-04T10:30:00Z') });
    expect(composeMails(planNotifications(events), started)).toEqual([]);
  });

  it('given a hand-over by a swap, then the take-over mails are not sent (a swap has its own)', () => {
    expect(planNotifications([handedOver(1, by(TAKER), 'swap')])).toEqual(NOTHING);
  });
});
