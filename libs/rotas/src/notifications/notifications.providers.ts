import { BullModule } from '@nestjs/bullmq';
import type { DynamicModule, Provider, Type } from '@nestjs/common';
import { OutboxModule } from '#app/platform';
import { ShiftSystemQueries } from '../booking/shift-system.queries.js';
import { NotificationsProcessor } from './notifications.processor.js';
import { ROTA_NOTIFICATIONS } from './notifications.reactor.js';
import { SwapMailProcessor } from './swap-mail.processor.js';
import { SWAP_MAIL } from './swap-mail.reactor.js';

/** Notification e-mails in the worker: queue, processor (the reactor: RotasModule; the outbox sends each once), and the system reads they use. */
export const NOTIFICATION_WORKER: { imports: (DynamicModule | Type<unknown>)[]; providers: Provider[] } = {
  imports: [BullModule.registerQueue({ name: ROTA_NOTIFICATIONS }, { name: SWAP_MAIL }), OutboxModule],
  providers: [NotificationsProcessor, SwapMailProcessor, ShiftSystemQueries],
};
