import { BullModule } from '@nestjs/bullmq';
import type { DynamicModule, Provider, Type } from '@nestjs/common';
import { OutboxModule } from '#app/platform';
import { CoverAlertQueries } from './cover-alert.queries.js';
import {
  CoverAlertProcessor,
  CoverAlerts,
  CoverSweepProcessor,
  CoverSweepScheduler,
} from './cover-alerts.processor.js';
import { COVER_ALERTS, COVER_SWEEP } from './cover-alerts.reactor.js';

/**
 * Cover alerts in the worker: the alert and sweep queues, their processors (the reactor:
 * RotasModule), the hourly scheduler, and their reads (the outbox sends each alert once).
 */
export const COVER_ALERT_WORKER: { imports: (DynamicModule | Type<unknown>)[]; providers: Provider[] } = {
  imports: [BullModule.registerQueue({ name: COVER_ALERTS }, { name: COVER_SWEEP }), OutboxModule],
  providers: [CoverAlerts, CoverAlertProcessor, CoverSweepProcessor, CoverSweepScheduler, CoverAlertQueries],
};
