import { Module } from '@nestjs/common';
import { CalendarFeedController } from './http/calendar-feed.controller.js';
import { RotasHistoryController } from './http/history.controller.js';
import { RepeatingShiftsController } from './http/repeating-shifts.controller.js';
import { RotaContactsController } from './http/rota-contacts.controller.js';
import { RotaViewsController } from './http/rota-views.controller.js';
import { RotasBulkController } from './http/rotas-bulk.controller.js';
import { RotasController, RotaTeamsController } from './http/rotas.controller.js';
import { ShiftChangesController } from './http/shift-changes.controller.js';
import { ShiftPatternsController } from './http/shift-patterns.controller.js';
import { ShiftsController } from './http/shifts.controller.js';
import { ShiftSwapsController } from './http/shift-swaps.controller.js';
import { StandInsController } from './http/stand-ins.controller.js';
import { VolunteerHoursController } from './http/volunteer-hours.controller.js';
import { RotasModule } from './rotas.module.js';

/**
 * The rota context's api role: its controllers, listed here only, so http/ imports the areas and no
 * area imports http/ (docs/contexts.md, "Layout"). Their handlers and queries come from RotasModule.
 */
@Module({
  imports: [RotasModule],
  controllers: [
    ShiftPatternsController,
    RotasController,
    RotaTeamsController,
    RotasBulkController,
    RotaContactsController,
    ShiftsController,
    ShiftChangesController,
    StandInsController,
    RepeatingShiftsController,
    CalendarFeedController,
    RotaViewsController,
    RotasHistoryController,
    VolunteerHoursController,
    ShiftSwapsController,
  ],
})
export class RotasHttpModule {}
