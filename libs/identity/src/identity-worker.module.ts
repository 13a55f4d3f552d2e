import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { MessagingModule } from '#app/platform';
import { IDENTITY_MESSAGES } from './messages/two-factor-messages.reactor.js';
import { TwoFactorMessagesProcessor } from './messages/two-factor-messages.processor.js';

/** The context's queues, for the operator's tools (queues:status, the dashboard). */
export const IDENTITY_QUEUES: readonly string[] = [IDENTITY_MESSAGES];

/** Sends the two-factor e-mails and texts. */
@Module({
  imports: [MessagingModule, BullModule.registerQueue({ name: IDENTITY_MESSAGES })],
  providers: [TwoFactorMessagesProcessor],
})
export class IdentityWorkerModule {}
