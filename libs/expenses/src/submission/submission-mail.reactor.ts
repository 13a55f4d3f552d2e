import { Injectable } from '@nestjs/common';
import { AsReactor, type Reactor, type ReactorJob, type StoredEvent } from '#app/event-store';
import type { ClaimEvent } from '../expenses.events.js';

export const EXPENSES_MAIL = 'expenses-mail';
export type SubmissionJob = Extract<ClaimEvent, { type: 'expenses.ClaimSubmitted' }>['data'] & { eventId: string };

/** A submitted claim is mailed to finance: one job per ClaimSubmitted. */
@AsReactor()
@Injectable()
export class SubmissionMailReactor implements Reactor {
  readonly name = 'expenses.submission-mail';
  readonly queue = EXPENSES_MAIL;
  readonly handles = ['expenses.ClaimSubmitted'];

  toJob(event: StoredEvent): ReactorJob {
    return { name: 'claim-submitted', data: { ...(event.data as SubmissionJob), eventId: event.eventId } };
  }
}
