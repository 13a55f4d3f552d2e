import { DateTime } from 'luxon';
import { type MailMessage, oneLine } from '#app/platform';

/**
 * When, and whether, a volunteer is reminded of a booked shift (docs/rota-domain.md#reminders). Pure: the
 * processors (reminders.processor.ts) read the shift, the organisation's setting and the clock, and act on
 * what this answers.
 *
 * - The reminder is due `shift_reminder_hours` before the shift starts; "0" switches reminders off.
 * - A shift booked or moved inside that window is due at once; one that has started is past
 *   reminding.
 * - A reminder belongs to a shift *time*: its job and its outbox key are named by the shift and its
 *   start instant. A job for a time the shift no longer has (moved, cancelled) does nothing, and the
 *   outbox sends each key once, so no shift time is reminded twice: not after a move back to a time
 *   already reminded, nor after reminders were switched off and on again.
 */

/** The organisation setting (libs/organisation's field table): a string holding 0–336, default "48". */
export const REMINDER_SETTING = 'shift_reminder_hours';

/** The setting's hours; the field table only stores whole numbers 0–336, so anything else is read as off. */
export function reminderHours(value: unknown): number {
  const hours = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(hours) ? hours : 0;
}

/** A shift as a reminder needs it: whether it is still booked, and when it starts. */
export interface ReminderShift {
  readonly booked: boolean;
  readonly start: Date;
}

/** What to do about a shift's reminder for one start instant, now. */
export type ReminderStep =
  { readonly kind: 'none' } | { readonly kind: 'wait'; readonly until: Date } | { readonly kind: 'send' };

/**
 * The step for the reminder of `shift` at `start` (the time a job was made for, or the shift's
 * own): nothing when the shift is gone or cancelled, starts at another time now, reminders are off
 * or it has started; otherwise wait until start − hours, or send when that has come.
 */
export function reminderStep(
  shift: ReminderShift | undefined,
  start: Date,
  hours: number,
  hourMs: number,
  now: Date,
): ReminderStep {
  if (!shift?.booked || shift.start.getTime() !== start.getTime()) return { kind: 'none' };
  if (hours <= 0 || start.getTime() <= now.getTime()) return { kind: 'none' };
  const due = start.getTime() - hours * hourMs;
  return due > now.getTime() ? { kind: 'wait', until: new Date(due) } : { kind: 'send' };
}

/** Whole seconds: shift times are whole minutes, and the id stays short. */
const epoch = (start: Date) => Math.floor(start.getTime() / 1000);

/** The delayed job of a shift time: one per shift and start, so scheduling it again adds nothing. */
export const reminderJobId = (shiftId: number, start: Date) => `reminder-${shiftId}-${epoch(start)}`;

/** The outbox key of a shift time's reminder: sent once, whatever schedules it again. */
export const reminderMailKey = (shiftId: number, start: Date) => `shift-reminder-${shiftId}-${epoch(start)}`;

export interface ReminderMailInput {
  readonly to: string;
  readonly userName: string;
  readonly rotaName: string;
  /** `YYYY-MM-DD HH:MM` in the rota zone, as the shift's row keeps them. */
  readonly startWall: string;
  readonly endWall: string;
}

/** The reminder: the rota, the shift's local date (with its weekday) and its times. */
export function reminderMail({ to, userName, rotaName, startWall, endWall }: ReminderMailInput): MailMessage {
  const [date, start] = startWall.split(' ') as [string, string];
  const [endDate, end] = endWall.split(' ') as [string, string];
  const day = (d: string) => `${weekdayOf(d)} ${d}`;
  const until = endDate === date ? end : `${day(endDate)} ${end}`;
  const rota = oneLine(rotaName);
  const text = [
    `Hello ${oneLine(userName)},`,
    '',
    `A reminder of your shift on ${rota}:`,
    '',
    `${day(date)}, ${start} to ${until}`,
    '',
  ].join('\n');
  return { to, subject: `Shift reminder: ${rota}, ${day(date)} ${start}`, text };
}

/** The English weekday of a local date; the date alone names it, whatever the server's zone. */
const weekdayOf = (date: string) => DateTime.fromISO(date, { zone: 'UTC', locale: 'en-GB' }).toFormat('cccc');
