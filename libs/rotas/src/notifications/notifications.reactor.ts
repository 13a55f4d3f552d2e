import { Injectable } from '@nestjs/common';
import {
  AsReactor,
  causedJob,
  type CausedJob,
  defineReactor,
  type ReactorJob,
  type StoredEvent,
} from '#app/event-store';
import type { ShiftEvent } from '../rotas.events.js';
import { type MailedType, mailedTypes } from './notification-plan.js';

export const ROTA_NOTIFICATIONS = 'rotas-notifications';

/** The job: the transaction the event belongs to (the request: the processor reads the whole of it) and its organisation. */
export interface NotificationJobData {
  readonly transactionId: string;
  readonly organisationId: number;
}
export type NotificationJob = CausedJob<NotificationJobData>;

type Mailed = Extract<ShiftEvent, { type: MailedType }>;

/** A job for each shift event that may be mailed (not the series generator's bookings: notification-plan.ts). */
function notificationJob(event: StoredEvent<MailedType, Mailed['data']>): ReactorJob | null {
  if (!mailedTypes(event.metadata).includes(event.type)) return null;
  return causedJob('shift-mail', event, {
    transactionId: event.transactionId,
    organisationId: event.data.organisationId,
  } satisfies NotificationJobData);
}

/**
 * Shift bookings, changes, cancellations, stand-in requests and take-overs become e-mail jobs, one per request (transaction): the
 * job of its first mailed event, which sends the e-mails of the whole transaction.
 */
@AsReactor()
@Injectable()
export class NotificationsReactor extends defineReactor<Mailed>({
  name: 'rotas.notifications',
  queue: ROTA_NOTIFICATIONS,
  perTransaction: true,
  on: {
    'rotas.ShiftBooked': notificationJob,
    'rotas.ShiftMoved': notificationJob,
    'rotas.ShiftCancelled': notificationJob,
    'rotas.ShiftStandInRequested': notificationJob,
    'rotas.ShiftHandedOver': notificationJob,
  },
}) {}
