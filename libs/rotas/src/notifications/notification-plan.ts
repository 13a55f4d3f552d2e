import { actorOf, type EventMetadata } from '#app/event-store';
import { type MailMessage, oneLine } from '#app/platform';
import type { RotaEvent, ShiftCancelReason, ShiftEvent, ShiftTimesData } from '../rotas.events.js';
import { CALENDAR_CHANGES, type CalendarChangeType } from '../rota/misfits.js';
import { type MailShift, type ShiftChange, selfCancelledMail, shiftChangesMail } from './shift-mail.js';
import { standInFoundMail, standInWantedMail } from './stand-in-mail.js';

/**
 * Who gets what e-mail from the shift events of one request (docs/rota-domain.md#notifications). Pure: the
 * processor (notifications.processor.ts) reads the events and the names, addresses and rotas, and
 * sends what this composes.
 *
 * - A volunteer whose shifts someone else booked, changed or cancelled (a manager, or a rota
 *   change) gets one e-mail for the request, each shift once as it ends: booked (and
 *   maybe moved) is "booked" with its last times, moved is "changed", cancelled is "cancelled";
 *   a shift booked and cancelled in the same request never reached their calendar: nothing.
 * - The shifts a rota change cancels (in the change's own write, docs/rota-domain.md#shifts-that-no-longer-fit)
 *   are the rota's doing, whoever made the change: told as from no one ("a change to the rota"),
 *   also to a manager whose own shift it was, and never as a self-cancellation.
 * - Acting on one's own shift sends oneself nothing; a volunteer who cancels their own shifts has
 *   the rotas' contacts and the managers with add-user-shifts over the rotas' teams told, one
 *   e-mail each (themselves left out).
 * - Stand-ins (docs/rota-domain.md#stand-ins-and-take-overs): a request (not a new note) tells the
 *   rota's contacts, one e-mail each (the volunteer and whoever asked left out); a take-over tells
 *   the previous volunteer (with a CANCEL part), and a taker put there by a manager gets the usual
 *   booking e-mail. Neither goes once the shift is cancelled or has started (composeMails).
 * - A booking by the system is an occurrence the series generator booked: it sends nothing,
 *   because the request that started the series told the volunteer of its first shift (and a
 *   series' later dates are its pattern, not news). The generator is the only system actor that
 *   books, so the actor alone tells it, for every event of its transaction alike.
 */

export const MAILED_TYPES = [
  'rotas.ShiftBooked',
  'rotas.ShiftMoved',
  'rotas.ShiftCancelled',
  'rotas.ShiftStandInRequested',
  'rotas.ShiftHandedOver',
] as const;
export type MailedType = (typeof MAILED_TYPES)[number];

/** The user an event's metadata names as actor, or null for the system (or an event recorded without one). */
const actingUser = (metadata: EventMetadata): number | null => {
  const actor = actorOf(metadata);
  return actor?.kind === 'user' ? actor.userId : null;
};

/**
 * The shift event types whose jobs may send mail, given who wrote them: without the system's
 * bookings (see above). One write has one actor, so every event of a transaction gets the same
 * answer: the reactor and the processor use it alike to find the transaction's first such event.
 */
export function mailedTypes(metadata: EventMetadata): readonly MailedType[] {
  return actingUser(metadata) === null ? MAILED_TYPES.filter((t) => t !== 'rotas.ShiftBooked') : MAILED_TYPES;
}

/** A shift event with the metadata it was stored with. */
export type MailedEvent = ShiftEvent & { readonly metadata: EventMetadata };

/** The rota changes a request's transaction is read with, beside its mailed events: their cancellations are the rota's doing. */
export const ROTA_CHANGE_TYPES = CALENDAR_CHANGES;
export type RotaChangeEvent = Extract<RotaEvent, { type: CalendarChangeType }>;

const isRotaChange = (event: MailedEvent | RotaChangeEvent): event is RotaChangeEvent =>
  (ROTA_CHANGE_TYPES as readonly string[]).includes(event.type);

/** One shift's change, as it ends in the request. */
export interface PlannedChange {
  readonly kind: ShiftChange['kind'];
  readonly shiftId: number;
  readonly rotaId: number;
  readonly sequence: number;
  /** Its times after the request; null for a cancellation (the shift's row keeps the times it had). */
  readonly times: ShiftTimesData | null;
  readonly reason: ShiftCancelReason | null;
  /** Told only while the shift is booked and has not started (a take-over's booking). */
  readonly whileOpen?: true;
}

/** The e-mail to a volunteer whose shifts someone else changed. */
export interface VolunteerNotice {
  readonly userId: number;
  /** Who changed them; null for the system (a rota change). */
  readonly actorUserId: number | null;
  readonly changes: readonly PlannedChange[];
}

/** A volunteer's cancellation of their own shifts, for the rotas' contacts and managers. */
export interface SelfCancelNotice {
  readonly userId: number;
  readonly shifts: readonly { readonly shiftId: number; readonly rotaId: number; readonly sequence: number }[];
}

/** A stand-in asked for: the rota's contacts are told (`Stand-in wanted:`). */
export interface StandInWantedNotice {
  readonly shiftId: number;
  readonly rotaId: number;
  /** The shift's volunteer. */
  readonly userId: number;
  readonly requestedBy: number;
  readonly note: string | null;
}

/** A shift taken over: its previous volunteer is told (`Stand-in found:`, with a CANCEL part). */
export interface StandInFoundNotice {
  readonly shiftId: number;
  readonly rotaId: number;
  readonly fromUserId: number;
  readonly toUserId: number;
  readonly sequence: number;
}

export interface NotificationPlan {
  readonly volunteers: readonly VolunteerNotice[];
  readonly selfCancelled: readonly SelfCancelNotice[];
  readonly standInWanted: readonly StandInWantedNotice[];
  readonly standInFound: readonly StandInFoundNotice[];
}

/** Whether the plan has anything to send. */
export const plansMail = (plan: NotificationPlan): boolean =>
  plan.volunteers.length + plan.selfCancelled.length + plan.standInWanted.length + plan.standInFound.length > 0;

interface ShiftStory {
  readonly userId: number;
  readonly rotaId: number;
  actor: number | null;
  booked: boolean;
  generated: boolean;
  moved: boolean;
  times: ShiftTimesData | null;
  sequence: number;
  cancelled: ShiftCancelReason | null;
}

/** Who gets what from the shift events (and rota changes) of one request, in log order; see the top of this file. */
export function planNotifications(events: readonly (MailedEvent | RotaChangeEvent)[]): NotificationPlan {
  const changedRotas = new Set(events.filter(isRotaChange).map((e) => e.data.id));
  const stories = new Map<number, ShiftStory>();
  const standInWanted: StandInWantedNotice[] = [];
  const standInFound: (StandInFoundNotice & { actor: number | null })[] = [];
  for (const event of events) {
    if (isRotaChange(event)) continue;
    if (event.type === 'rotas.ShiftStandInRequested') {
      const { id, rotaId, userId, requestedBy, note } = event.data;
      standInWanted.push({ shiftId: id, rotaId, userId, requestedBy, note });
      continue;
    }
    if (event.type === 'rotas.ShiftHandedOver') {
      // Swaps are told by their own notices.
      const { id, rotaId, fromUserId, toUserId, sequence, by } = event.data;
      if (by === 'take_over')
        standInFound.push({ shiftId: id, rotaId, fromUserId, toUserId, sequence, actor: actingUser(event.metadata) });
      continue;
    }
    const { id, userId, rotaId } = event.data as { id: number; userId?: number; rotaId?: number };
    if (userId === undefined || rotaId === undefined) continue; // ShiftSeriesChanged: no new times, nothing to tell
    const byRotaChange = event.type === 'rotas.ShiftCancelled' && changedRotas.has(rotaId);
    const actor = byRotaChange ? null : actingUser(event.metadata);
    const story = stories.get(id) ?? {
      userId,
      rotaId,
      actor,
      booked: false,
      generated: false,
      moved: false,
      times: null,
      sequence: 0,
      cancelled: null,
    };
    story.actor = actor;
    if (event.type === 'rotas.ShiftBooked')
      Object.assign(story, { booked: true, generated: actor === null, times: timesOf(event.data), sequence: 0 });
    if (event.type === 'rotas.ShiftMoved')
      Object.assign(story, { moved: true, times: timesOf(event.data), sequence: event.data.sequence });
    if (event.type === 'rotas.ShiftCancelled')
      Object.assign(story, { cancelled: event.data.reason, sequence: event.data.sequence });
    stories.set(id, story);
  }
  const volunteers = new Map<number, { actorUserId: number | null; changes: PlannedChange[] }>();
  const selfCancelled = new Map<number, SelfCancelNotice['shifts'][number][]>();
  for (const [shiftId, s] of stories) {
    if (s.generated || (s.booked && s.cancelled)) continue;
    // An anonymised volunteer's shifts (docs/privacy.md#anonymising-a-user) are told as their own
    // cancellation, whoever asked: the contacts and managers hear of it, the volunteer of nothing.
    if (s.actor === s.userId || s.cancelled === 'user_anonymised') {
      if (s.cancelled)
        selfCancelled.set(s.userId, [
          ...(selfCancelled.get(s.userId) ?? []),
          { shiftId, rotaId: s.rotaId, sequence: s.sequence },
        ]);
      continue;
    }
    const kind = s.cancelled ? 'cancelled' : s.booked ? 'booked' : 'changed';
    const change: PlannedChange = {
      kind,
      shiftId,
      rotaId: s.rotaId,
      sequence: s.sequence,
      times: s.cancelled ? null : s.times,
      reason: s.cancelled,
    };
    const notice =
      volunteers.get(s.userId) ?? volunteers.set(s.userId, { actorUserId: s.actor, changes: [] }).get(s.userId)!;
    notice.changes.push(change);
  }
  // A taker a manager put there hears of it as of any booking by someone else.
  for (const { actor, ...found } of standInFound) {
    if (actor === found.toUserId) continue;
    const booking: PlannedChange = {
      kind: 'booked',
      shiftId: found.shiftId,
      rotaId: found.rotaId,
      sequence: found.sequence,
      times: null,
      reason: null,
      whileOpen: true,
    };
    const notice =
      volunteers.get(found.toUserId) ??
      volunteers.set(found.toUserId, { actorUserId: actor, changes: [] }).get(found.toUserId)!;
    notice.changes.push(booking);
  }
  return {
    volunteers: [...volunteers].map(([userId, n]) => ({ userId, ...n })),
    selfCancelled: [...selfCancelled].map(([userId, shifts]) => ({ userId, shifts })),
    standInWanted,
    standInFound: standInFound.map(({ actor: _actor, ...n }) => n),
  };
}

const timesOf = (d: ShiftTimesData): ShiftTimesData => ({
  date: d.date,
  start: d.start,
  end: d.end,
  startWall: d.startWall,
  endWall: d.endWall,
});

/** How a mail words a cancel reason (none for a plain cancellation). */
export function reasonText(reason: ShiftCancelReason | null): string | undefined {
  switch (reason) {
    case null:
    case 'cancelled':
      return undefined;
    case 'series_cancelled':
      return 'the repeating shift was cancelled';
    case 'series_ended':
      return 'the repeating shift has ended';
    case 'rota_archived':
      return 'the rota was archived';
    case 'rota_not_started':
      return 'the rota has not started by then';
    case 'rota_ended':
      return 'the rota has ended by then';
    case 'rota_closed':
      return 'the rota is closed that day';
    case 'outside_timeslot':
      return 'no timeslot holds it any more';
    case 'user_anonymised':
      return 'the volunteer was anonymised';
  }
}

/** What composing the plan's e-mails needs beyond the events (the processor reads it). */
export interface MailFacts {
  /** The request's first mailed event: the outbox keys hang on it, so a re-run finds what it sent. */
  readonly requestKey: string;
  readonly organisationId: number;
  readonly zone: string;
  readonly host: string;
  readonly now: Date;
  readonly organizer?: string;
  /** Each planned shift's row (times for a cancelled one; its team; whether it is cancelled now). */
  readonly shifts: ReadonlyMap<number, { readonly teamId: number; readonly cancelled?: boolean } & ShiftTimesData>;
  readonly rotaNames: ReadonlyMap<number, string>;
  readonly teamNames: ReadonlyMap<number, string>;
  readonly emails: ReadonlyMap<number, string>;
  readonly names: ReadonlyMap<number, string>;
  /** The contacts and add-user-shifts managers of each rota with a self-cancellation. */
  readonly rotaWatchers: ReadonlyMap<number, readonly number[]>;
  /** The contacts of each rota with a stand-in request. */
  readonly rotaContacts?: ReadonlyMap<number, readonly number[]>;
}

/** One e-mail to send once: its outbox key and the message. */
export interface OutgoingMail {
  readonly key: string;
  readonly message: MailMessage;
}

/**
 * The plan's e-mails, each under an outbox key made of the request and the recipient's user id
 * (a retried job finds it sent). A recipient without an address, or a shift whose row is missing,
 * is left out rather than failing the others.
 */
export function composeMails(plan: NotificationPlan, facts: MailFacts): OutgoingMail[] {
  const mailShift = (
    shiftId: number,
    rotaId: number,
    sequence: number,
    times: ShiftTimesData | null,
    cancelled: boolean,
  ): MailShift | null => {
    const row = facts.shifts.get(shiftId);
    const t = times ?? row;
    if (!row || !t) return null;
    return {
      id: shiftId,
      organisationId: facts.organisationId,
      rotaName: facts.rotaNames.get(rotaId) ?? '',
      teamName: facts.teamNames.get(row.teamId) ?? '',
      start: new Date(t.start),
      end: new Date(t.end),
      zone: facts.zone,
      sequence,
      status: cancelled ? 'cancelled' : 'booked',
      localStart: t.startWall,
      localEnd: t.endWall,
    };
  };
  // docs/rota-domain.md#stand-ins-and-take-overs: nothing about a shift cancelled or started since.
  const open = (shiftId: number) => {
    const row = facts.shifts.get(shiftId);
    return !!row && !row.cancelled && Date.parse(row.start) > facts.now.getTime();
  };
  const mails: OutgoingMail[] = [];
  for (const notice of plan.volunteers) {
    const to = facts.emails.get(notice.userId);
    const changes = notice.changes.flatMap((c): ShiftChange[] => {
      if (c.whileOpen && !open(c.shiftId)) return [];
      const shift = mailShift(c.shiftId, c.rotaId, c.sequence, c.times, c.kind === 'cancelled');
      const reason = reasonText(c.reason);
      return shift ? [{ kind: c.kind, shift, ...(reason && { reason }) }] : [];
    });
    if (!to || changes.length === 0) continue;
    const actorName = notice.actorUserId === null ? null : (facts.names.get(notice.actorUserId) ?? 'A rota manager');
    const message = shiftChangesMail({
      to,
      userName: facts.names.get(notice.userId) ?? '',
      changes,
      actorName,
      host: facts.host,
      now: facts.now,
      ...(facts.organizer && { organizer: facts.organizer }),
    });
    mails.push({ key: `rotas-shift-mail-${facts.requestKey}-${notice.userId}`, message });
  }
  for (const notice of plan.standInWanted) {
    const shift = open(notice.shiftId) && mailShift(notice.shiftId, notice.rotaId, 0, null, false);
    if (!shift) continue;
    const volunteerName = facts.names.get(notice.userId) ?? '';
    for (const contact of facts.rotaContacts?.get(notice.rotaId) ?? []) {
      const to = facts.emails.get(contact);
      if (!to || contact === notice.userId || contact === notice.requestedBy) continue;
      mails.push({
        key: `rotas-stand-in-wanted-${facts.requestKey}-${notice.shiftId}-${contact}`,
        message: standInWantedMail({ to, volunteerName, shift, note: notice.note }),
      });
    }
  }
  for (const notice of plan.standInFound) {
    const to = facts.emails.get(notice.fromUserId);
    const shift = open(notice.shiftId) && mailShift(notice.shiftId, notice.rotaId, notice.sequence, null, true);
    if (!to || !shift) continue;
    mails.push({
      key: `rotas-stand-in-found-${facts.requestKey}-${notice.fromUserId}`,
      message: standInFoundMail({
        to,
        userName: facts.names.get(notice.fromUserId) ?? '',
        takerName: facts.names.get(notice.toUserId) ?? '',
        shift,
        host: facts.host,
        now: facts.now,
        ...(facts.organizer && { organizer: facts.organizer }),
      }),
    });
  }
  for (const notice of plan.selfCancelled) {
    const volunteerName = facts.names.get(notice.userId) ?? '';
    const byWatcher = new Map<number, MailShift[]>();
    for (const s of notice.shifts) {
      const shift = mailShift(s.shiftId, s.rotaId, s.sequence, null, true);
      if (!shift) continue;
      for (const watcher of facts.rotaWatchers.get(s.rotaId) ?? []) {
        if (watcher !== notice.userId) byWatcher.set(watcher, [...(byWatcher.get(watcher) ?? []), shift]);
      }
    }
    for (const [watcher, shifts] of byWatcher) {
      const to = facts.emails.get(watcher);
      if (!to) continue;
      mails.push({
        key: `rotas-self-cancelled-${facts.requestKey}-${notice.userId}-${watcher}`,
        message: selfCancelledMessage(to, volunteerName, shifts),
      });
    }
  }
  return mails;
}

/**
 * selfCancelledMail tells of one shift; a volunteer cancelling a repeating shift cancels several in
 * one request, and each watcher still gets one e-mail: the shifts' lines, as selfCancelledMail
 * writes them, under one heading.
 */
function selfCancelledMessage(to: string, volunteerName: string, shifts: readonly MailShift[]): MailMessage {
  const sorted = [...shifts].sort((a, b) => a.start.getTime() - b.start.getTime());
  const single = sorted.map((shift) => selfCancelledMail({ to: [to], volunteerName, shift })[0]!);
  if (single.length === 1) return single[0]!;
  const lines = single.map((m) => m.text.split('\n').find((l) => l.startsWith('- '))!);
  const text = [
    'Hello,',
    '',
    `${oneLine(volunteerName)} has cancelled ${lines.length} of their shifts:`,
    '',
    ...lines,
    '',
    'Their places on the rota are free again.',
    '',
  ].join('\n');
  return { to, subject: `${lines.length} shifts cancelled by ${oneLine(volunteerName)}`, text };
}
