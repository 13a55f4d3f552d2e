import type { Provider } from '@nestjs/common';
import { VolunteerHoursProjection } from './volunteer-hours.projection.js';
import { VolunteerHoursQueries } from './volunteer-hours.queries.js';

/** The volunteer hours report: its read model and query (rotas.module.ts lists these). */
export const HOURS_PROVIDERS: Provider[] = [VolunteerHoursProjection, VolunteerHoursQueries];
