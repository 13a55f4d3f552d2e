import { Injectable } from '@nestjs/common';
import { AsReactor, defineReactor } from '#app/event-store';

export const IDENTITY_MESSAGE_PURGE = 'identity-message-purge';

/** identity.UserAnonymised as this reactor reads it (the privacy contract's shape; ids only). */
type UserAnonymised = { type: 'identity.UserAnonymised'; data: { userId: number; organisationId: number } };
export type MessagePurgeJob = UserAnonymised['data'];

/**
 * The two-factor messages' queue keeps a done job a week, with its destination (an e-mail address
 * or a phone number): an anonymised user's are redacted there (message-purge.processor.ts).
 */
@AsReactor()
@Injectable()
export class MessagePurgeReactor extends defineReactor<UserAnonymised>({
  name: 'identity.message-purge',
  queue: IDENTITY_MESSAGE_PURGE,
  on: {
    'identity.UserAnonymised': ({ data }) => ({
      name: 'purge',
      data: { userId: data.userId, organisationId: data.organisationId } satisfies MessagePurgeJob,
      options: { attempts: 10, backoff: { type: 'exponential', delay: 2_000 } },
    }),
  },
}) {}
