import { Injectable } from '@nestjs/common';
import { AsReactor, causedJob, type CausedJob, defineReactor, type StoredEvent } from '#app/event-store';
import type { ShiftEvent } from '../rotas.events.js';
import { REMINDER_SETTING } from './reminder-plan.js';

/**
 * Two queues of the reminders' own. The reactor's jobs go to REMINDER_PLANS, which holds no
 * delayed jobs; the delayed reminders wait in ROTA_REMINDERS. On BullMQ's PostgreSQL backend a
 * worker that misses a new job's notification (its LISTEN connection was down) polls every few
 * seconds, or sleeps until its queue's next delayed job, which for reminders may be hours away
 * (generation.reactor.ts).
 */
export const REMINDER_PLANS = 'rotas-reminder-plans';
export const ROTA_REMINDERS = 'rotas-reminders';

export const PLAN_SHIFT = 'plan-shift';
export const PLAN_ORGANISATION = 'plan-organisation';

/** A plan job: the shift whose reminder to (re)schedule, or null for every upcoming shift of the organisation. */
export interface PlanData {
  readonly organisationId: number;
  readonly shiftId: number | null;
}
export type PlanJob = CausedJob<PlanData>;

type Planned = Extract<ShiftEvent, { type: 'rotas.ShiftBooked' | 'rotas.ShiftMoved' | 'rotas.ShiftCancelled' }>;
/** The organisation context's settings change, declared here by its type (contexts.md: another context's event). */
type SettingsChanged = {
  type: 'organisation.SettingsChanged';
  data: { organisationId: number; changes: Record<string, unknown> };
};

// Only ids travel: the job reads the shift and the setting as they are when it runs.
const planShift = (event: StoredEvent<string, { id: number; organisationId: number }>) =>
  causedJob(PLAN_SHIFT, event, {
    organisationId: event.data.organisationId,
    shiftId: event.data.id,
  } satisfies PlanData);

const planOrganisation = (event: StoredEvent<string, SettingsChanged['data']>) =>
  Object.hasOwn(event.data.changes, REMINDER_SETTING)
    ? causedJob(PLAN_ORGANISATION, event, {
        organisationId: event.data.organisationId,
        shiftId: null,
      } satisfies PlanData)
    : null;

/**
 * Every booking, move and cancellation of a shift, the series generator's included (each booked
 * shift is reminded), and each change of `shift_reminder_hours`, become plan jobs (the event id the
 * job id); reminders.processor.ts schedules, moves or drops the reminders.
 */
@AsReactor()
@Injectable()
export class RemindersReactor extends defineReactor<Planned | SettingsChanged>({
  name: 'rotas.reminders',
  queue: REMINDER_PLANS,
  on: {
    'rotas.ShiftBooked': planShift,
    'rotas.ShiftMoved': planShift,
    'rotas.ShiftCancelled': planShift,
    'organisation.SettingsChanged': planOrganisation,
  },
}) {}
