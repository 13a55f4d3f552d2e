import { Module } from '@nestjs/common';
import { IdentityModule } from '#app/identity';
import { OrganisationModule } from '#app/organisation';
import { CALENDAR_FEED_PROVIDERS } from './calendar-feed/calendar-feed.providers.js';
import { HISTORY_PROVIDERS } from './history/history.providers.js';
import { HOURS_PROVIDERS } from './hours/hours.providers.js';
import { RotaIds } from './next-id.js';
import { BULK_PROVIDERS } from './rota/bulk.providers.js';
import { ROTA_PROVIDERS } from './rota/rota.providers.js';
import { RotaRecords } from './public-records.js';
import { RotasPolicy } from './rotas.policy.js';
import { AnonymisedUserShifts } from './booking/anonymised-user-shifts.js';
import { GenerationReactor } from './booking/generation.reactor.js';
import { NotificationsReactor } from './notifications/notifications.reactor.js';
import { RemindersReactor } from './reminders/reminders.reactor.js';
import { CoverAlertsReactor } from './cover-alerts/cover-alerts.reactor.js';
import { REPEATING_SHIFT_PROVIDERS } from './booking/repeating-shift.providers.js';
import { SHIFT_PROVIDERS } from './booking/shift.providers.js';
import { SHIFT_PATTERN_PROVIDERS } from './shift-pattern/shift-pattern.providers.js';
import { VIEW_PROVIDERS } from './views/views.providers.js';
import { SwapMailReactor } from './notifications/swap-mail.reactor.js';
import { SWAP_PROVIDERS } from './swap/swap.providers.js';
// Declares which fields of rotas's events are whose personal data (sealed in the log).
import './rotas.personal-data.js';

@Module({
  imports: [IdentityModule, OrganisationModule],
  providers: [
    RotasPolicy,
    RotaIds,
    RotaRecords,
    AnonymisedUserShifts,
    ...SHIFT_PATTERN_PROVIDERS,
    ...ROTA_PROVIDERS,
    ...BULK_PROVIDERS,
    ...SHIFT_PROVIDERS,
    ...REPEATING_SHIFT_PROVIDERS,
    ...CALENDAR_FEED_PROVIDERS,
    ...VIEW_PROVIDERS,
    ...HISTORY_PROVIDERS,
    ...HOURS_PROVIDERS,
    ...SWAP_PROVIDERS,
    SwapMailReactor,
    // Known everywhere (projections:status lists them); only the worker runs them, with the queues it registers.
    GenerationReactor,
    NotificationsReactor,
    RemindersReactor,
    CoverAlertsReactor,
  ],
  // The areas' providers are exported too: their controllers live in RotasHttpModule, which imports this module.
  exports: [
    RotasPolicy,
    RotaIds,
    RotaRecords,
    AnonymisedUserShifts,
    IdentityModule,
    ...SHIFT_PATTERN_PROVIDERS,
    ...ROTA_PROVIDERS,
    ...BULK_PROVIDERS,
    ...SHIFT_PROVIDERS,
    ...REPEATING_SHIFT_PROVIDERS,
    ...CALENDAR_FEED_PROVIDERS,
    ...VIEW_PROVIDERS,
    ...HISTORY_PROVIDERS,
    ...SWAP_PROVIDERS,
    ...HOURS_PROVIDERS,
  ],
})
export class RotasModule {}
