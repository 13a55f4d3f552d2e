import { Injectable } from '@nestjs/common';
import { AsReactor, type Reactor, type ReactorJob, type StoredEvent } from '#app/event-store';
import type { PreAuthEvent } from '../login/login.events.js';

export const IDENTITY_MESSAGES = 'identity-messages';

export type TwoFactorMessageJob = Extract<PreAuthEvent, { type: 'identity.TwoFactorChallengeIssued' }>['data'];

/** The outbox of log-in: each challenge becomes one job that sends its e-mail or text. */
@AsReactor()
@Injectable()
export class TwoFactorMessagesReactor implements Reactor {
  readonly name = 'identity.two-factor-messages';
  readonly queue = IDENTITY_MESSAGES;
  readonly handles = ['identity.TwoFactorChallengeIssued'];

  toJob(event: StoredEvent): ReactorJob {
    // A code is worthless once expired, so there is no point retrying for long.
    return { name: (event.data as TwoFactorMessageJob).method, data: event.data, options: { attempts: 4, backoff: { type: 'exponential', delay: 2_000 } } };
  }
}
