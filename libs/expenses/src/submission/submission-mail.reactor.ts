import { Injectable } from '@nestjs/common';
import { AsReactor, causedJob, type CausedJob, defineReactor } from '#app/event-store';
import type { ClaimEvent } from '../expenses.events.js';

export const EXPENSES_MAIL = 'expenses-mail';
/**
 * The ClaimSubmitted's data and the event as `cause`. Jobs enqueued before they carried a cause
 * have the event's id as `eventId` instead.
 */
type Submitted = Extract<ClaimEvent, { type: 'expenses.ClaimSubmitted' }>;
export type SubmissionJob = CausedJob<Submitted['data']>;

/** A submitted claim is mailed to finance: one job per ClaimSubmitted. */
@AsReactor()
@Injectable()
export class SubmissionMailReactor extends defineReactor<Submitted>({
  name: 'expenses.submission-mail',
  queue: EXPENSES_MAIL,
  on: { 'expenses.ClaimSubmitted': (event) => causedJob('claim-submitted', event) },
}) {}
