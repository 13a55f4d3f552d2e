import { Injectable } from '@nestjs/common';
import { AsReactor, defineReactor } from '#app/event-store';
import type { PreAuthEvent } from '../login/login.events.js';

export const IDENTITY_MESSAGES = 'identity-messages';

type Challenge = Extract<PreAuthEvent, { type: 'identity.TwoFactorChallengeIssued' }>;
export type TwoFactorMessageJob = Challenge['data'];

/** The outbox of log-in: each challenge becomes one job that sends its e-mail or text. */
@AsReactor()
@Injectable()
export class TwoFactorMessagesReactor extends defineReactor<Challenge>({
  name: 'identity.two-factor-messages',
  queue: IDENTITY_MESSAGES,
  on: {
    // A code is worthless once expired, so there is no point retrying for long.
    'identity.TwoFactorChallengeIssued': ({ data }) => ({
      name: data.method,
      data,
      options: { attempts: 4, backoff: { type: 'exponential', delay: 2_000 } },
    }),
  },
}) {}
