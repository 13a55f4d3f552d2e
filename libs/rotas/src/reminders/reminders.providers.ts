import { BullModule } from '@nestjs/bullmq';
import type { DynamicModule, Provider, Type } from '@nestjs/common';
import { OutboxModule } from '#app/platform';
import { ReminderQueries } from './reminder.queries.js';
import { ReminderPlanProcessor, ReminderProcessor, Reminders, ReminderTick } from './reminders.processor.js';
import { REMINDER_PLANS, ROTA_REMINDERS } from './reminders.reactor.js';
import { ReminderReconciler } from './reminders.reconciler.js';

/**
 * Shift reminders in the worker: the plan and reminder queues, both processors (the reactor:
 * RotasModule), the tick, and their reads (the outbox sends each once).
 */
export const REMINDER_WORKER: { imports: (DynamicModule | Type<unknown>)[]; providers: Provider[] } = {
  imports: [BullModule.registerQueue({ name: REMINDER_PLANS }, { name: ROTA_REMINDERS }), OutboxModule],
  providers: [ReminderPlanProcessor, ReminderProcessor, Reminders, ReminderTick, ReminderQueries, ReminderReconciler],
};
