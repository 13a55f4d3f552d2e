import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { PrivacyModule } from './privacy.module.js';
import { PRIVACY_RETENTION, RetentionProcessor, RetentionSchedule } from './retention/retention.processor.js';

/** The context's queues, for the operator's tools (queues:status, the dashboard). */
export const PRIVACY_QUEUES: readonly string[] = [PRIVACY_RETENTION];

/** The worker's privacy jobs: the retention sweep and its schedule. */
@Module({
  imports: [PrivacyModule, BullModule.registerQueue({ name: PRIVACY_RETENTION })],
  providers: [RetentionProcessor, RetentionSchedule],
})
export class PrivacyWorkerModule {}
