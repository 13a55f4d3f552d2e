import { Module } from '@nestjs/common';
import { CALENDAR_FEED_CONTROLLERS } from './calendar-feed/calendar-feed.providers.js';
import { HISTORY_CONTROLLERS } from './history/history.providers.js';
import { HOURS_CONTROLLERS } from './hours/hours.providers.js';
import { BULK_CONTROLLERS } from './rota/bulk.providers.js';
import { ROTA_CONTROLLERS } from './rota/rota.providers.js';
import { RotasModule } from './rotas.module.js';
import { SWAP_CONTROLLERS } from './swap/swap.providers.js';
import { REPEATING_SHIFT_CONTROLLERS } from './booking/repeating-shift.providers.js';
import { SHIFT_CONTROLLERS } from './booking/shift.providers.js';
import { SHIFT_PATTERN_CONTROLLERS } from './shift-pattern/shift-pattern.providers.js';
import { VIEW_CONTROLLERS } from './views/views.providers.js';

@Module({
  imports: [RotasModule],
  controllers: [
    ...SHIFT_PATTERN_CONTROLLERS,
    ...ROTA_CONTROLLERS,
    ...BULK_CONTROLLERS,
    ...SHIFT_CONTROLLERS,
    ...REPEATING_SHIFT_CONTROLLERS,
    ...CALENDAR_FEED_CONTROLLERS,
    ...VIEW_CONTROLLERS,
    ...HISTORY_CONTROLLERS,
    ...HOURS_CONTROLLERS,
    ...SWAP_CONTROLLERS,
  ],
})
export class RotasHttpModule {}
