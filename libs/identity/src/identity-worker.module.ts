import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { MessagingModule } from '#app/platform';
import { MessagePurgeProcessor } from './messages/message-purge.processor.js';
import { IDENTITY_MESSAGE_PURGE } from './messages/message-purge.reactor.js';
import { IDENTITY_MESSAGES } from './messages/two-factor-messages.reactor.js';
import { TwoFactorMessagesProcessor } from './messages/two-factor-messages.processor.js';

/** The context's queues, for the operator's tools (queues:status, the dashboard). */
export const IDENTITY_QUEUES: readonly string[] = [IDENTITY_MESSAGES, IDENTITY_MESSAGE_PURGE];

/** Sends the two-factor e-mails and texts; redacts an anonymised user's in their queue. */
@Module({
  imports: [MessagingModule, BullModule.registerQueue({ name: IDENTITY_MESSAGES }, { name: IDENTITY_MESSAGE_PURGE })],
  providers: [TwoFactorMessagesProcessor, MessagePurgeProcessor],
})
export class IdentityWorkerModule {}
