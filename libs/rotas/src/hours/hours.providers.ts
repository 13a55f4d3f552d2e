import type { Provider, Type } from '@nestjs/common';
import { VolunteerHoursController } from '../http/volunteer-hours.controller.js';
import { VolunteerHoursProjection } from './volunteer-hours.projection.js';
import { VolunteerHoursQueries } from './volunteer-hours.queries.js';

/** The volunteer hours report: its read model and query (rotas.module.ts lists these). */
export const HOURS_PROVIDERS: Provider[] = [VolunteerHoursProjection, VolunteerHoursQueries];

/** Its controller (rotas-http.module.ts). */
export const HOURS_CONTROLLERS: Type<unknown>[] = [VolunteerHoursController];
