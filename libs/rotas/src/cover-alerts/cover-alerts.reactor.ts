import { Injectable } from '@nestjs/common';
import { AsReactor, causedJob, type CausedJob, defineReactor, type StoredEvent } from '#app/event-store';
import type { RotaEvent, ShiftEvent } from '../rotas.events.js';
import { COVER_ALERT_SETTING } from './cover-alert-plan.js';

/**
 * Two queues of the cover alerts' own. COVER_ALERTS holds the reactor's plan jobs and the alert
 * jobs they fan out to, and never a delayed job; the hourly scheduler's job waits delayed in
 * COVER_SWEEP, since on BullMQ's PostgreSQL backend an embedded worker that no notification wakes
 * sleeps until its queue's next delayed job (series-extension.ts).
 */
export const COVER_ALERTS = 'rotas-cover-alerts';
export const COVER_SWEEP = 'rotas-cover-sweep';

export const PLAN_COVER = 'plan-cover';

/** A plan job: the rota whose watched occurrences to check, or null for every rota of the organisation. */
export interface CoverPlanData {
  readonly organisationId: number;
  readonly rotaId: number | null;
}
export type CoverPlanJob = CausedJob<CoverPlanData>;

/** Coverage drops when a shift goes, moves away or looks for a stand-in; a booking only raises it. */
type ShiftDrop = Extract<
  ShiftEvent,
  { type: 'rotas.ShiftMoved' | 'rotas.ShiftCancelled' | 'rotas.ShiftStandInRequested' }
>;
/** The organisation context's settings change, declared here by its type (contexts.md: another context's event). */
type SettingsChanged = {
  type: 'organisation.SettingsChanged';
  data: { organisationId: number; changes: Record<string, unknown> };
};

// Only ids travel: the job reads the rota, its shifts and the setting as they are when it runs.
const plan = (event: StoredEvent<string, { organisationId: number }>, rotaId: number) =>
  causedJob(PLAN_COVER, event, { organisationId: event.data.organisationId, rotaId } satisfies CoverPlanData);
const byId = (event: StoredEvent<string, { id: number; organisationId: number }>) => plan(event, event.data.id);
const byRotaId = (event: StoredEvent<string, { rotaId: number; organisationId: number }>) =>
  plan(event, event.data.rotaId);
/** An archived rota, or a contact removed: nothing more to alert. */
const nothing = () => null;

const planOrganisation = (event: StoredEvent<string, SettingsChanged['data']>) =>
  Object.hasOwn(event.data.changes, COVER_ALERT_SETTING)
    ? causedJob(PLAN_COVER, event, { organisationId: event.data.organisationId, rotaId: null } satisfies CoverPlanData)
    : null;

/**
 * Whatever can leave a watched occurrence below minimum, or change who hears of it
 * (docs/rota-domain.md#cover-alerts): a shift cancelled, moved or looking for a stand-in, every change of a rota (its
 * settings, timeslots, dates, closures, contacts; a new rota starts empty), and a change of
 * `cover_alert_days`. Each becomes a plan job (the event id the job id); the window moving on is
 * the hourly sweep's (cover-alerts.processor.ts).
 */
@AsReactor()
@Injectable()
export class CoverAlertsReactor extends defineReactor<ShiftDrop | RotaEvent | SettingsChanged>({
  name: 'rotas.cover-alerts',
  queue: COVER_ALERTS,
  on: {
    'rotas.ShiftMoved': byRotaId,
    'rotas.ShiftCancelled': byRotaId,
    'rotas.ShiftStandInRequested': byRotaId,
    'rotas.RotaCreated': byId,
    'rotas.RotaChanged': byId,
    'rotas.RotaTimeslotsChanged': byId,
    'rotas.RotaPatternReplaced': byId,
    'rotas.RotaEnded': byId,
    'rotas.RotaClosed': byId,
    'rotas.RotaReopened': byId,
    'rotas.RotaArchived': nothing,
    'rotas.RotaContactAdded': byRotaId,
    'rotas.RotaContactRemoved': nothing,
    'organisation.SettingsChanged': planOrganisation,
  },
}) {}
