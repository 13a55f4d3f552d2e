import { Module } from '@nestjs/common';
import { RotasModule } from './rotas.module.js';
import { GENERATION_WORKER } from './booking/generation.providers.js';
import { NOTIFICATION_WORKER } from './notifications/notifications.providers.js';
import { REMINDER_WORKER } from './reminders/reminders.providers.js';
import { COVER_ALERT_WORKER } from './cover-alerts/cover-alerts.providers.js';
import { COVER_ALERTS, COVER_SWEEP } from './cover-alerts/cover-alerts.reactor.js';
import { SERIES_GENERATION } from './booking/generation.reactor.js';
import { SERIES_EXTENSION } from './booking/series-extension.js';
import { ROTA_NOTIFICATIONS } from './notifications/notifications.reactor.js';
import { SWAP_MAIL } from './notifications/swap-mail.reactor.js';
import { REMINDER_PLANS, ROTA_REMINDERS } from './reminders/reminders.reactor.js';

/** The context's queues, for the operator's tools (queues:status, the dashboard). */
export const ROTAS_QUEUES: readonly string[] = [
  SERIES_GENERATION,
  SERIES_EXTENSION,
  ROTA_NOTIFICATIONS,
  SWAP_MAIL,
  REMINDER_PLANS,
  ROTA_REMINDERS,
  COVER_ALERTS,
  COVER_SWEEP,
];

/**
 * The rota context's worker role: series generation and its daily extension, the notification
 * e-mails, the reminders and the cover alerts. Each area lists its queues,
 * processors and worker-only command handlers in its own providers file.
 */
@Module({
  imports: [
    RotasModule,
    ...GENERATION_WORKER.imports,
    ...NOTIFICATION_WORKER.imports,
    ...REMINDER_WORKER.imports,
    ...COVER_ALERT_WORKER.imports,
  ],
  providers: [
    ...GENERATION_WORKER.providers,
    ...NOTIFICATION_WORKER.providers,
    ...REMINDER_WORKER.providers,
    ...COVER_ALERT_WORKER.providers,
  ],
})
export class RotasWorkerModule {}
