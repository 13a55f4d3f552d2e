import { Module } from '@nestjs/common';
import { RotasModule } from './rotas.module.js';
import { GENERATION_WORKER } from './repeating-shift/generation.providers.js';
import { NOTIFICATION_WORKER } from './notifications/notifications.providers.js';
import { REMINDER_WORKER } from './reminders/reminders.providers.js';
import { MISFIT_WORKER } from './shift/misfits.providers.js';

/**
 * The rota context's worker role: series generation and its daily extension, the cancellation of
 * shifts a rota change leaves behind, and the notification e-mails. Each area lists its queues,
 * processors and worker-only command handlers in its own providers file.
 */
@Module({
  imports: [
    RotasModule,
    ...GENERATION_WORKER.imports,
    ...MISFIT_WORKER.imports,
    ...NOTIFICATION_WORKER.imports,
    ...REMINDER_WORKER.imports,
  ],
  providers: [
    ...GENERATION_WORKER.providers,
    ...MISFIT_WORKER.providers,
    ...NOTIFICATION_WORKER.providers,
    ...REMINDER_WORKER.providers,
  ],
})
export class RotasWorkerModule {}
